#include "worker/userbuild/build_roots.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <system_error>

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;

// Whether a CMakeLists.txt starts a project of its own (calls project()).
bool IsCMakeProject(const fs::path& cmake_lists) {
  static const std::regex kProject(R"((^|\n)\s*project\s*\()", std::regex::icase);
  std::ifstream in(cmake_lists);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return std::regex_search(text, kProject);
}

}  // namespace

BuildSystem BuildSystemOfFiles(const fs::path& dir) {
  bool has_makefile = false;
  for (const char* name : {"Makefile", "makefile", "GNUmakefile"}) has_makefile |= fs::exists(dir / name);
  if (fs::exists(dir / "CMakeLists.txt")) {
    // A CMakeLists.txt without project() is a piece of a bigger CMake build (HeCBench's per-program files call
    // the top level's add_hecbench_benchmark): beside a Makefile, the Makefile is what builds this directory.
    if (!has_makefile || IsCMakeProject(dir / "CMakeLists.txt")) return BuildSystem::kCMake;
  }
  return has_makefile ? BuildSystem::kMake : BuildSystem::kAuto;  // kAuto: nothing to build with
}

std::vector<BuildRoot> BuildRootsOfFiles(const fs::path& source_dir, size_t max_roots) {
  if (BuildSystem system = BuildSystemOfFiles(source_dir); system != BuildSystem::kAuto) {
    return std::vector<BuildRoot>{{".", system}};
  }
  // No build file at the top (a repository of several programs, each with its own): every top-most
  // directory that has one is a build root, as a user would `cd` into it and build.
  std::vector<BuildRoot> roots;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(source_dir, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
    const std::string name = it->path().filename().string();
    if (!name.empty() && name.front() == '.') {
      it.disable_recursion_pending();
      continue;
    }
    const BuildSystem system = BuildSystemOfFiles(it->path());
    if (system == BuildSystem::kAuto) continue;
    roots.push_back({it->path().lexically_relative(source_dir), system});
    it.disable_recursion_pending();  // what is below is built by this root's own build
  }
  std::sort(roots.begin(), roots.end(), [](const BuildRoot& a, const BuildRoot& b) { return a.dir < b.dir; });
  if (roots.size() > max_roots) roots.resize(max_roots);
  return roots;
}

}  // namespace hipforge::validate
