#pragma once
// Where a user's build starts, read from the tree's build files: what the validate role builds from and where the
// repository pass discovers compile commands (build_commands.cc), so both see the same roots. hipforge.yaml's
// build.roots/build.system come on top in worker/validate/tree_builder.h (FindBuildRoots).
#include <cstddef>
#include <filesystem>
#include <vector>

namespace hipforge::validate {

enum class BuildSystem { kAuto, kCMake, kMake, kCommands };

// A directory the tree is built from, and with what.
struct BuildRoot {
  std::filesystem::path dir;  // relative to the tree; "." for the top
  BuildSystem system = BuildSystem::kAuto;
};

// The build system `dir`'s own files select: CMake for a CMakeLists.txt (unless it has no project() and a Makefile
// stands beside it), else make for a Makefile; kAuto: nothing to build with.
BuildSystem BuildSystemOfFiles(const std::filesystem::path& dir);

// The top of the tree when it has a build file; else every top-most directory below that has one (a repository of
// several programs), sorted, at most `max_roots`. Empty when there is none.
std::vector<BuildRoot> BuildRootsOfFiles(const std::filesystem::path& source_dir, size_t max_roots = 64);

}  // namespace hipforge::validate
