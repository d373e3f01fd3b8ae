#include "worker/validate/toolchain_choice.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

bool IsSourceOrBuildFile(const fs::path& path) {
  static const std::set<std::string> kExtensions = {".hip", ".cpp", ".cc",  ".cxx", ".c",  ".h",    ".hpp",
                                                    ".hh",  ".hxx", ".cuh", ".inl", ".mk", ".cmake"};
  const std::string name = path.filename().string();
  return kExtensions.count(path.extension().string()) > 0 || name == "CMakeLists.txt" || name == "Makefile" ||
         name == "makefile" || name == "GNUmakefile";
}

// The library an #include names, by the table's include prefixes.
const RocmLibrary* LibraryOfInclude(std::string_view header) {
  for (const RocmLibrary& library : RocmLibraries()) {
    for (std::string_view prefix : library.include_prefixes) {
      if (prefix.ends_with('/') ? header.starts_with(prefix) : header == prefix) return &library;
    }
  }
  return nullptr;
}

// The library a -l flag or find_package name means: its own name or its shared library's (-lroctx64).
const RocmLibrary* LibraryOfLinkName(const std::string& name) {
  const std::string lower = absl::AsciiStrToLower(name);
  for (const RocmLibrary& library : RocmLibraries()) {
    if (library.name == lower || library.shared_library == "lib" + name + ".so") return &library;
  }
  return nullptr;
}

}  // namespace

std::vector<LibraryUse> FindLibraryUses(const fs::path& tree) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  static const std::regex kLinkFlag(R"((?:^|[\s"'])-l([A-Za-z0-9_]+))");
  static const std::regex kFindPackage(R"(find_package\s*\(\s*([A-Za-z0-9_]+))", std::regex::icase);
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(tree, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec) && IsSourceOrBuildFile(it->path())) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, LibraryUse> first_use;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch match;
      std::vector<const RocmLibrary*> libraries;
      if (std::regex_search(line, match, kInclude)) {
        libraries.push_back(LibraryOfInclude(match[1].str()));
      } else {
        for (const std::regex* pattern : {&kLinkFlag, &kFindPackage}) {
          for (auto it = std::sregex_iterator(line.begin(), line.end(), *pattern); it != std::sregex_iterator(); ++it) {
            libraries.push_back(LibraryOfLinkName((*it)[1].str()));
          }
        }
      }
      for (const RocmLibrary* library : libraries) {
        if (library == nullptr || first_use.count(std::string(library->name))) continue;
        first_use[std::string(library->name)] = {.library = std::string(library->name),
                                                 .file = fs::relative(file, tree, ec),
                                                 .line = number,
                                                 .text = std::string(absl::StripAsciiWhitespace(line))};
      }
    }
  }
  std::vector<LibraryUse> uses;
  for (auto& [name, use] : first_use) uses.push_back(std::move(use));
  return uses;
}

ToolchainChoice ChooseToolchain(const std::string& requested_arch, std::string_view hip_release,
                                const std::vector<LibraryUse>& needed, const std::vector<Toolchain>& toolchains) {
  ToolchainChoice best;
  // Ranked lexicographically: right HIP release, every library, the arch itself, any buildable arch.
  std::tuple<bool, bool, bool, bool> best_rank{};
  for (const Toolchain& toolchain : toolchains) {  // newest first: ties keep the newest
    std::vector<LibraryUse> missing;
    for (const LibraryUse& use : needed) {
      if (!toolchain.HasLibrary(use.library)) missing.push_back(use);
    }
    ArchChoice arch = ChooseBuildArch(requested_arch, toolchain.probe.offload_archs);
    const std::tuple<bool, bool, bool, bool> rank{hip_release.empty() || toolchain.HipRelease() == hip_release,
                                                  missing.empty(), arch.arch == requested_arch, !arch.arch.empty()};
    if (best.toolchain == nullptr || rank > best_rank) {
      best = {.toolchain = &toolchain, .arch = std::move(arch), .missing = std::move(missing)};
      best_rank = rank;
    }
  }
  if (best.toolchain != nullptr && !std::get<0>(best_rank)) {
    best.note = absl::StrCat("HIP ", std::string(hip_release),
                             " was requested but no toolchain here has it; built with ", best.toolchain->Describe());
  }
  return best;
}

std::string MissingLibraryMessage(const LibraryUse& use, const std::vector<Toolchain>& tried) {
  const RocmLibrary* library = FindRocmLibrary(use.library);
  std::string text =
      absl::StrCat("needs ", library ? std::string(library->display) : use.library, " (", use.file.string(), ":",
                   use.line, ": ", use.text, "), which no toolchain here has; tried ");
  for (size_t i = 0; i < tried.size(); ++i) absl::StrAppend(&text, i ? "; " : "", tried[i].Describe());
  if (tried.empty()) absl::StrAppend(&text, "none");
  return text;
}

}  // namespace hipforge::validate
