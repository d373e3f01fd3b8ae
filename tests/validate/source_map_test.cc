#include "worker/validate/source_map.h"

#include <gtest/gtest.h>

#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

using testing::ScratchDir;
using testing::WriteFile;

TEST(SourceMapTest, AlignLinesAnchorsUnchangedLines) {
  std::vector<std::string> before = {"a", "b", "cudaMalloc(x)", "c", "d"};
  std::vector<std::string> after = {"#include hip", "a", "b", "hipMalloc(x)", "c", "d"};
  auto anchors = AlignLines(before, after);
  ASSERT_EQ(anchors.size(), 4u);
  EXPECT_EQ(anchors[0], std::make_pair(2, 1));
  EXPECT_EQ(anchors[2], std::make_pair(5, 4));
}

TEST(SourceMapTest, SameLineCountIsIdentityAndRenamedFilesAreFound) {
  ScratchDir dir("map");
  WriteFile(dir.path() / "cuda/src/a.cu", "x\ncudaFree(p);\ny\n");
  WriteFile(dir.path() / "hip/src/a.cu", "x\nhipFree(p);\ny\n");
  WriteFile(dir.path() / "cuda/src/b.cu", "1\n2\n3\n4\n");
  WriteFile(dir.path() / "hip/src/b.hip", "0\n1\n2\n3\n4\n");
  auto mapper = SourceMapper::Create(dir.path() / "hip", dir.path() / "cuda", {});
  ASSERT_TRUE(mapper.ok());
  auto a = mapper->Map((dir.path() / "hip/src/a.cu").string(), 2);
  EXPECT_TRUE(a.mapped);
  EXPECT_EQ(a.path, "src/a.cu");
  EXPECT_EQ(a.line, 2);
  auto b = mapper->Map("src/b.hip", 4, dir.path() / "hip");
  EXPECT_TRUE(b.mapped);
  EXPECT_EQ(b.path, "src/b.cu");
  EXPECT_EQ(b.line, 3);
  // Outside the translated tree (a system header): left as printed.
  auto system = mapper->Map("/usr/include/hip/hip_runtime.h", 10);
  EXPECT_FALSE(system.mapped);
  EXPECT_EQ(system.path, "/usr/include/hip/hip_runtime.h");
}

TEST(SourceMapTest, TranslatorLineMapWins) {
  ScratchDir dir("linemap");
  WriteFile(dir.path() / "hip/k.hip", "a\nb\nc\nd\ne\nf\n");
  WriteFile(dir.path() / "map.jsonl", R"({"translated": "k.hip", "original": "cuda/k.cu", "lines": [[1, 1], [4, 10]]})"
                                      "\n");
  auto mapper = SourceMapper::Create(dir.path() / "hip", {}, dir.path() / "map.jsonl");
  ASSERT_TRUE(mapper.ok()) << mapper.status();
  EXPECT_EQ(mapper->Map("k.hip", 2, dir.path() / "hip").line, 2);
  auto late = mapper->Map("k.hip", 6, dir.path() / "hip");
  EXPECT_EQ(late.path, "cuda/k.cu");
  EXPECT_EQ(late.line, 12);
}

}  // namespace
}  // namespace hipforge::validate
