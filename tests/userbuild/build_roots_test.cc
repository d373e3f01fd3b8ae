// worker/userbuild/build_roots.h: where a user's build starts, from the tree's build files alone (what the
// repository pass's compile-command discovery and the validate role share; hipforge.yaml comes on top in
// tests/validate/tree_builder_roots_test.cc).
#include "worker/userbuild/build_roots.h"

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;

void Touch(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::vector<std::string> Dirs(const std::vector<BuildRoot>& roots) {
  std::vector<std::string> dirs;
  for (const BuildRoot& root : roots) dirs.push_back(root.dir.generic_string());
  return dirs;
}

TEST(BuildRootsOfFilesTest, TheTopOrEveryTopMostDirectoryWithABuildFile) {
  hipforge::testing::ScratchDir dir("userbuild-roots");
  const fs::path tree = dir.path();
  EXPECT_TRUE(BuildRootsOfFiles(tree).empty());
  EXPECT_EQ(BuildSystemOfFiles(tree), BuildSystem::kAuto);
  Touch(tree / "a/Makefile", "all:\n");
  Touch(tree / "a/sub/CMakeLists.txt", "project(x)\n");  // below a root: that root's own build
  Touch(tree / "b/CMakeLists.txt", "project(b)\n");
  Touch(tree / "c/d/GNUmakefile", "all:\n");
  EXPECT_EQ(Dirs(BuildRootsOfFiles(tree)), (std::vector<std::string>{"a", "b", "c/d"}));
  EXPECT_EQ(Dirs(BuildRootsOfFiles(tree, 2)), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(BuildRootsOfFiles(tree)[1].system, BuildSystem::kCMake);
  Touch(tree / "Makefile", "all:\n");
  ASSERT_EQ(Dirs(BuildRootsOfFiles(tree)), (std::vector<std::string>{"."}));
  EXPECT_EQ(BuildRootsOfFiles(tree)[0].system, BuildSystem::kMake);
}

}  // namespace
}  // namespace hipforge::validate
