#include "worker/translate/repo/stages/collect_files.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class CollectFilesTest : public StageTest {};

TEST_F(CollectFilesTest, ReadsAndClassifiesEveryFileSkippingGitAndKeepingSymlinksApart) {
  Write("src/kernel.cu", "#include \"common.h\"\n__global__ void k() {}\n");
  Write("src/common.h", "#pragma once\n");
  Write("CMakeLists.txt", "project(p LANGUAGES CXX CUDA)\n");
  Write("README.md", "hello\n");
  Write(".git/config", "[core]\n");
  fs::create_symlink("README.md", state_.trees->input / "LINK.md");
  ASSERT_TRUE(CollectFiles(state_, Tools()).ok());

  EXPECT_EQ(state_.files->contents.size(), 4u);
  EXPECT_EQ(state_.files->contents.count(".git/config"), 0u);
  EXPECT_EQ(state_.files->contents["src/kernel.cu"], "#include \"common.h\"\n__global__ void k() {}\n");
  EXPECT_EQ(state_.files->kinds["src/kernel.cu"], RepoFileKind::kCudaSource);
  EXPECT_EQ(state_.files->kinds["src/common.h"], RepoFileKind::kHeader) << "included from a CUDA source";
  EXPECT_EQ(state_.files->kinds["CMakeLists.txt"], RepoFileKind::kCMake);
  EXPECT_EQ(state_.files->kinds["README.md"], RepoFileKind::kOther);
  EXPECT_EQ(state_.files->symlinks, std::vector<std::string>{"LINK.md"});
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].stage, "classify");
  EXPECT_EQ(events_[0].done, 4);
  EXPECT_EQ(events_[0].total, 4);
}

TEST_F(CollectFilesTest, ALinkedDirectoryIsNotEntered) {
  Write("real/a.cu", "__global__ void a() {}\n");
  fs::create_directory_symlink("real", state_.trees->input / "alias");
  ASSERT_TRUE(CollectFiles(state_, Tools()).ok());
  EXPECT_EQ(state_.files->contents.count("real/a.cu"), 1u);
  EXPECT_EQ(state_.files->contents.count("alias/a.cu"), 0u);
  EXPECT_EQ(state_.files->symlinks, std::vector<std::string>{"alias"});
}

}  // namespace
}  // namespace hipforge::translate::testing
