#include "worker/translate/repo/cmake_compiler_checks.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <regex>

#include "common/file_io.h"
#include "common/process.h"
#include "nlohmann/json.hpp"

namespace hipforge::translate {
namespace fs = std::filesystem;

namespace {

// Names whose mention means the checks may differ from the probe's.
bool NamesWhatChecksDependOn(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const char* word : {"COMPILER", "FLAGS", "TOOLCHAIN", "CMAKE_SYSTEM", "SYSROOT", "ARCHITECTURES",
                           "CMAKE_GENERATOR", "INCLUDE", "ENABLE_LANGUAGE", "ADD_SUBDIRECTORY"}) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

constexpr const char* kProbeProject =
    "cmake_minimum_required(VERSION 3.18)\nproject(hipforge_compiler_probe LANGUAGES C CXX CUDA)\n";

// The checks a configure of the probe project left: {"ok", "version", "files": {name: text}}; ok false when it
// did not configure (no CUDA compiler, say).
nlohmann::json Probe(const fs::path& probe_dir, const CMakeCompilerChecks::RunConfigure& run) {
  std::error_code error;
  fs::remove_all(probe_dir, error);
  fs::create_directories(probe_dir / "src", error);
  if (error || !WriteFileBytes(probe_dir / "src" / "CMakeLists.txt", kProbeProject).ok() ||
      !run(probe_dir / "src", probe_dir / "build")) {
    return {{"ok", false}};
  }
  static const std::regex kVersion("[0-9]+(\\.[0-9]+)*");
  static const std::regex kChecksFile("CMakeSystem\\.cmake|CMake[A-Za-z]+Compiler\\.cmake");
  for (const auto& entry : fs::directory_iterator(probe_dir / "build" / "CMakeFiles", error)) {
    const std::string version = entry.path().filename().string();
    if (!entry.is_directory() || !std::regex_match(version, kVersion)) continue;
    nlohmann::json files = nlohmann::json::object();
    for (const auto& file : fs::directory_iterator(entry.path(), error)) {
      const std::string name = file.path().filename().string();
      if (!std::regex_match(name, kChecksFile)) continue;
      if (std::optional<std::string> text = ReadFileBytes(file.path())) files[name] = *text;
    }
    if (!files.contains("CMakeSystem.cmake") || !files.contains("CMakeCXXCompiler.cmake")) break;
    return {{"ok", true}, {"version", version}, {"files", std::move(files)}};
  }
  return {{"ok", false}};
}

}  // namespace

bool CompilerChecksAreShared(const std::string& top_level, const std::vector<std::string>& options) {
  for (const std::string& option : options) {
    if (NamesWhatChecksDependOn(option)) return false;
  }
  static const std::regex kProject("(^|[^A-Za-z0-9_])project\\s*\\(", std::regex::icase);
  std::smatch project;
  if (!std::regex_search(top_level, project, kProject)) return false;
  return !NamesWhatChecksDependOn(top_level.substr(0, static_cast<size_t>(project.position(0))));
}

bool LaterLanguagesShareChecks(const std::string& cmake_file) {
  // The last enable_language of a language the probe checks: what the file sets before it reaches every one.
  static const std::regex kEnable("enable_language\\s*\\(\\s*(C|CXX|CUDA)[\\s)]", std::regex::icase);
  size_t last = std::string::npos;
  for (auto it = std::sregex_iterator(cmake_file.begin(), cmake_file.end(), kEnable); it != std::sregex_iterator();
       ++it) {
    last = static_cast<size_t>(it->position(0));
  }
  if (last == std::string::npos) return true;
  static const std::regex kSetting("CMAKE_(C|CXX|CUDA)_(COMPILER|HOST_COMPILER|FLAGS)|CMAKE_TOOLCHAIN_FILE");
  const std::string before = cmake_file.substr(0, last);
  return !std::regex_search(before, kSetting);
}

std::vector<std::string> ToolchainIdentity(const std::vector<std::string>& arguments,
                                           const std::vector<fs::path>& tools) {
  std::vector<std::string> identity = arguments;
  for (const fs::path& tool : tools) {
    const fs::path found = FindProgram(tool.string());
    std::error_code error;
    const fs::path real = found.empty() ? fs::path() : fs::canonical(found, error);
    struct stat info = {};
    if (real.empty() || ::stat(real.c_str(), &info) != 0) {
      identity.push_back(tool.string() + " absent");
      continue;
    }
    identity.push_back(tool.string() + " " + real.string() + " " + std::to_string(info.st_size) + " " +
                       std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec));
  }
  for (const char* name : {"CC", "CXX", "CUDACXX", "CUDAHOSTCXX", "CFLAGS", "CXXFLAGS", "CUDAFLAGS", "LDFLAGS",
                           "CMAKE_GENERATOR", "PATH"}) {
    const char* value = std::getenv(name);
    identity.push_back(std::string(name) + "=" + (value ? value : ""));
  }
  return identity;
}

CMakeCompilerChecks::CMakeCompilerChecks(fs::path directory, std::vector<std::string> toolchain)
    : cache_(std::move(directory)) {
  CacheKey key("cmake-compiler-checks", 1);
  key.Add("probe", kProbeProject);
  for (const std::string& item : toolchain) key.Add("toolchain", item);
  key_ = key.Hex();
}

bool CMakeCompilerChecks::Seed(const fs::path& build_dir, const fs::path& probe_dir, const RunConfigure& run) const {
  if (!cache_.enabled()) return false;
  nlohmann::json entry;
  if (std::optional<std::string> text = cache_.Read(key_, ".json")) {
    entry = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  }
  // A failed probe is kept an hour: a toolchain without CUDA does not pay it on every job, and one that failed
  // for a passing reason (a timeout under load) is probed again.
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  if (entry.is_object() && !entry.value("ok", false) && now.count() - entry.value("at", int64_t{0}) > 3600) {
    entry = nlohmann::json();
  }
  if (!entry.is_object()) {
    entry = Probe(probe_dir, run);
    entry["at"] = static_cast<int64_t>(now.count());
    (void)cache_.Write(key_, ".json", entry.dump());  // best effort: the next job probes again
  }
  if (!entry.value("ok", false) || !entry.contains("files") || !entry["files"].is_object()) return false;
  const fs::path checks = build_dir / "CMakeFiles" / entry.value("version", "");
  std::error_code error;
  fs::create_directories(checks, error);
  bool written = !error;
  for (const auto& [name, text] : entry["files"].items()) {
    written = written && name.find('/') == std::string::npos && text.is_string() &&
              WriteFileBytes(checks / name, text.get<std::string>()).ok();
  }
  // What makes CMake load the files above instead of checking again (cmGlobalGenerator::EnableLanguage).
  written =
      written && WriteFileBytes(build_dir / "CMakeCache.txt", "CMAKE_PLATFORM_INFO_INITIALIZED:INTERNAL=1\n").ok();
  if (!written) {  // a part of the checks would be worse than none: the configure runs its own
    fs::remove_all(build_dir / "CMakeFiles", error);
    fs::remove(build_dir / "CMakeCache.txt", error);
  }
  return written;
}

}  // namespace hipforge::translate
