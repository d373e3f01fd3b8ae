#include "worker/translate/repo/build_commands.h"
#include "common/file_io.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "absl/strings/str_replace.h"
#include "worker/translate/repo/cmake_compiler_checks.h"
#include "worker/userbuild/build_roots.h"
#include "worker/userbuild/sandbox.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// A file's text; empty when it cannot be read (the callers then find no commands in it).
std::string ReadText(const fs::path& path) { return ReadFileBytes(path).value_or(std::string()); }

// Shell words of one command line: quotes and backslashes as sh reads them; `&&`, `;`, `||`, `|` split.
std::vector<std::vector<std::string>> SplitShellLine(const std::string& line) {
  std::vector<std::vector<std::string>> commands(1);
  std::string word;
  bool in_word = false;
  auto flush = [&] {
    if (in_word) commands.back().push_back(word);
    word.clear();
    in_word = false;
  };
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'' || c == '"') {
      const size_t end = line.find(c, i + 1);
      if (end == std::string::npos) break;
      word += line.substr(i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else if (c == ';' || c == '&' || c == '|') {
      flush();
      while (i + 1 < line.size() && (line[i + 1] == '&' || line[i + 1] == '|')) ++i;
      if (!commands.back().empty()) commands.emplace_back();
    } else {
      word += c;
      in_word = true;
    }
  }
  flush();
  if (commands.back().empty()) commands.pop_back();
  return commands;
}

bool IsCompiler(const std::string& program) {
  static const std::regex kCompiler(R"(^(nvcc|hipcc|(.*-)?(gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(-\d+)?)$)");
  return std::regex_match(fs::path(program).filename().string(), kCompiler);
}

bool IsSource(const std::string& arg) {
  const std::string ext = fs::path(arg).extension().string();
  return ext == ".cu" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".C";
}

void CopyTree(const fs::path& from, const fs::path& to, std::error_code& error) {
  fs::create_directories(to, error);
  for (auto it = fs::recursive_directory_iterator(from, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const fs::path relative = it->path().lexically_relative(from);
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) continue;  // the build gets no way out of its copy
    if (it->is_directory()) {
      fs::create_directories(to / relative, error);
    } else if (it->is_regular_file()) {
      fs::copy_file(it->path(), to / relative, fs::copy_options::overwrite_existing, error);
    }
  }
}

// Every path of the copy in `json` points back into the input.
void ReplacePrefix(nlohmann::json& json, const std::string& from, const std::string& to) {
  if (json.is_string()) {
    std::string text = json.get<std::string>();
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
    json = text;
  } else if (json.is_array() || json.is_object()) {
    for (auto& item : json) ReplacePrefix(item, from, to);
  }
}

// CMake hands nvcc its include dirs in `--options-file x.rsp`: the file's words replace the flag, when the file
// lies inside the build (`scratch`); any other is left for the allow-list to refuse.
void InlineOptionFiles(nlohmann::json& commands, const fs::path& scratch) {
  for (auto& entry : commands) {
    if (!entry.is_object() || !entry.contains("directory") || !entry["directory"].is_string()) continue;
    const fs::path directory = entry["directory"].get<std::string>();
    std::vector<std::string> words;
    if (entry.contains("arguments") && entry["arguments"].is_array()) {
      for (const auto& word : entry["arguments"]) {
        if (word.is_string()) words.push_back(word.get<std::string>());
      }
    } else if (entry.contains("command") && entry["command"].is_string()) {
      for (auto& part : SplitShellLine(entry["command"].get<std::string>())) {
        words.insert(words.end(), part.begin(), part.end());
      }
    }
    std::vector<std::string> inlined;
    for (size_t i = 0; i < words.size(); ++i) {
      if ((words[i] == "--options-file" || words[i] == "-optf") && i + 1 < words.size()) {
        const fs::path file = fs::weakly_canonical(directory / words[i + 1]);
        const auto relative = file.lexically_relative(fs::weakly_canonical(scratch));
        if (!relative.empty() && *relative.begin() != "..") {
          for (auto& part : SplitShellLine(ReadText(file))) inlined.insert(inlined.end(), part.begin(), part.end());
          ++i;
          continue;
        }
      }
      inlined.push_back(words[i]);
    }
    entry.erase("command");
    entry["arguments"] = inlined;
  }
}

}  // namespace

std::vector<std::string> CudaOptionsInCMake(const std::string& cmake_text) {
  static const std::regex kOption(R"(option\s*\(\s*([A-Za-z0-9_]*(CUDA|CUBLAS|CUDNN))\s)", std::regex::icase);
  std::set<std::string> names;
  for (std::sregex_iterator m(cmake_text.begin(), cmake_text.end(), kOption), end; m != end; ++m) {
    names.insert((*m)[1].str());
  }
  return {names.begin(), names.end()};
}

nlohmann::json CompileCommandsFromMakeDryRun(const std::string& output, const fs::path& directory) {
  nlohmann::json commands = nlohmann::json::array();
  std::vector<fs::path> directories = {directory};
  static const std::regex kEntering(R"(^\S*make(\[\d+\])?: Entering directory [`'](.*)'$)");
  static const std::regex kLeaving(R"(^\S*make(\[\d+\])?: Leaving directory)");
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_match(line, match, kEntering)) {
      directories.push_back(match[2].str());
      continue;
    }
    if (std::regex_search(line, kLeaving)) {
      if (directories.size() > 1) directories.pop_back();
      continue;
    }
    fs::path cwd = directories.back();
    for (auto words : SplitShellLine(line)) {
      // `PATH=/opt/cuda/bin:$PATH nvcc ...` and `env CUDA_HOME=x nvcc ...`: the compiler is the first word after
      // the environment (such a line was skipped, and its unit got a host compiler's flags).
      static const std::regex kAssignment("[A-Za-z_][A-Za-z0-9_]*=.*");
      size_t first = 0;
      if (!words.empty() && words[0] == "env") ++first;
      while (first < words.size() && std::regex_match(words[first], kAssignment)) ++first;
      words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(first));
      if (words.empty()) continue;
      if (words[0] == "cd" && words.size() > 1) {
        cwd = fs::path(words[1]).is_absolute() ? fs::path(words[1]) : cwd / words[1];
        continue;
      }
      if (!IsCompiler(words[0])) continue;
      for (size_t i = 1; i < words.size(); ++i) {
        if (!IsSource(words[i]) || (i > 0 && words[i - 1] == "-o")) continue;
        const fs::path file = fs::path(words[i]).is_absolute() ? fs::path(words[i]) : cwd / words[i];
        commands.push_back({{"directory", cwd.lexically_normal().string()},
                            {"file", file.lexically_normal().string()},
                            {"arguments", words}});
      }
    }
  }
  return commands;
}

namespace {

// What every configure's command line says about the toolchain (a user's and the compiler-check probe's).
std::vector<std::string> CMakeToolchainArguments(const BuildDiscoveryOptions& options) {
  return {"-G", "Unix Makefiles", "-Wno-dev", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
          "-DCMAKE_CUDA_COMPILER=" + (options.cuda_path / "bin" / "nvcc").string(),
          "-DCMAKE_CUDA_ARCHITECTURES=80",  // CUDA 13 dropped sm_70 (its try_compile fails)
          // Includes on the command line, not in nvcc --options-file response files.
          "-DCMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES=OFF", "-DCMAKE_CXX_USE_RESPONSE_FILE_FOR_INCLUDES=OFF"};
}

// `command` run in `directory` under the sandbox (user code: no network, nothing outside the scratch writable).
absl::StatusOr<ProcessResult> RunSandboxed(ProcessLauncher& launcher, const fs::path& directory,
                                           const std::vector<std::string>& command,
                                           const BuildDiscoveryOptions& options) {
  validate::SandboxSpec spec;
  spec.work_dir = options.scratch;
  spec.chdir = directory;
  spec.limits.cpu_seconds = options.timeout.count();
  ProcessSpec process;
  process.argv = validate::SandboxCommand(options.bwrap, options.prlimit, spec, command);
  process.working_directory = directory;
  process.timeout = options.timeout;
  return launcher.Run(process);
}

// Seeds `build_dir` with the compiler checks kept for this toolchain when the project's configure would find
// the same (cmake_compiler_checks.h; `later_languages_share`: LaterLanguagesShareChecks of each of its CMake
// files); the first job on a toolchain probes them.
void SeedCompilerChecks(ProcessLauncher& launcher, const fs::path& root, const fs::path& build_dir,
                        const BuildDiscoveryOptions& options, bool later_languages_share) {
  if (options.compiler_checks_directory.empty() || !later_languages_share ||
      !CompilerChecksAreShared(ReadText(root / "CMakeLists.txt"), options.cmake_options)) {
    return;
  }
  const std::vector<std::string> arguments = CMakeToolchainArguments(options);
  const CMakeCompilerChecks checks(
      options.compiler_checks_directory,
      ToolchainIdentity(arguments, {"cmake", "cc", "c++", "gcc", "g++", options.cuda_path / "bin" / "nvcc"}));
  checks.Seed(build_dir, options.scratch / "compiler-probe", [&](const fs::path& source, const fs::path& build) {
    std::vector<std::string> command = {"cmake", "-S", source.string(), "-B", build.string()};
    command.insert(command.end(), arguments.begin(), arguments.end());
    absl::StatusOr<ProcessResult> result = RunSandboxed(launcher, source, command, options);
    return result.ok() && result->exit_code == 0;
  });
}

// One build root's compile commands, its paths still the copy's; nullopt (with a note) when its tool failed.
std::optional<nlohmann::json> DiscoverRoot(ProcessLauncher& launcher, const fs::path& copy, const fs::path& root,
                                           bool cmake, const fs::path& build_dir, const BuildDiscoveryOptions& options,
                                           std::vector<std::string>& notes) {
  std::error_code error;
  std::vector<std::string> command;
  if (cmake) {
    command = {"cmake", "-S", root.string(), "-B", build_dir.string()};
    for (const std::string& argument : CMakeToolchainArguments(options)) command.push_back(argument);
    std::set<std::string> switches;
    bool later_languages_share = true;
    for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name != "CMakeLists.txt" && it->path().extension() != ".cmake") continue;
      const std::string text = ReadText(it->path());
      for (const auto& option : CudaOptionsInCMake(text)) switches.insert(option);
      later_languages_share = later_languages_share && LaterLanguagesShareChecks(text);
    }
    for (const auto& option : switches) command.push_back("-D" + option + "=ON");
    for (const auto& option : options.cmake_options) command.push_back(option);
    SeedCompilerChecks(launcher, root, build_dir, options, later_languages_share);
  } else {
    command = {"make", "-n", "-w", "-B", "-k", "-C", root.string()};
  }
  auto result = RunSandboxed(launcher, root, command, options);
  std::string summary;
  for (size_t i = 0; i < command.size(); ++i) {
    if (i == 2 && cmake) continue;
    summary += (summary.empty() ? "" : " ") + command[i];
  }
  summary = absl::StrReplaceAll(summary, {{copy.string() + "/", ""}, {copy.string(), "."}});
  if (!result.ok()) {
    notes.push_back("`" + summary + "` did not run: " + std::string(result.status().message()));
    return std::nullopt;
  }
  nlohmann::json commands;
  if (cmake) {
    const fs::path json = build_dir / "compile_commands.json";
    if (result->exit_code != 0 || !fs::exists(json)) {
      std::string tail =
          result->standard_error.substr(result->standard_error.size() > 400 ? result->standard_error.size() - 400 : 0);
      notes.push_back("cmake configure failed (exit " + std::to_string(result->exit_code) + "): " + tail);
      return std::nullopt;
    }
    commands = nlohmann::json::parse(ReadText(json), nullptr, /*allow_exceptions=*/false);
    if (!commands.is_array()) {
      notes.push_back("cmake wrote an unreadable compile_commands.json");
      return std::nullopt;
    }
    InlineOptionFiles(commands, options.scratch);
  } else {
    commands = CompileCommandsFromMakeDryRun(result->standard_output, root);
  }
  notes.push_back(std::to_string(commands.size()) + " compile command(s) from `" + summary + "`");
  return commands;
}

}  // namespace

BuildDiscovery DiscoverBuildCommands(ProcessLauncher& launcher, const fs::path& input,
                                     const BuildDiscoveryOptions& options) {
  BuildDiscovery discovery;
  // Where a user's build starts (the validate role builds from the same roots): the top, or each top-most
  // directory with a build file; each unit's arguments come from the root whose build compiles it.
  const std::vector<validate::BuildRoot> roots = validate::BuildRootsOfFiles(input);
  if (roots.empty()) return discovery;
  const bool any_cmake = std::any_of(roots.begin(), roots.end(), [](const validate::BuildRoot& root) {
    return root.system == validate::BuildSystem::kCMake;
  });
  discovery.tool = any_cmake ? "cmake" : "make -n";
  if (absl::Status sandbox = validate::ProbeSandbox(launcher, options.bwrap); !sandbox.ok()) {
    discovery.notes.push_back("build commands not discovered: " + discovery.tool +
                              " runs user code and needs the sandbox: " + std::string(sandbox.message()));
    discovery.tool.clear();
    return discovery;
  }
  std::error_code error;
  const fs::path copy = options.scratch / "src";
  fs::remove_all(options.scratch, error);
  CopyTree(input, copy, error);
  if (error) {
    discovery.notes.push_back("build commands not discovered: cannot copy the tree: " + error.message());
    return discovery;
  }
  nlohmann::json commands = nlohmann::json::array();
  int index = 0;
  for (const validate::BuildRoot& root : roots) {
    const bool cmake = root.system == validate::BuildSystem::kCMake;
    const fs::path build_dir =
        options.scratch / (roots.size() == 1 ? std::string("build") : "build-" + std::to_string(index++));
    std::optional<nlohmann::json> found =
        DiscoverRoot(launcher, copy, (copy / root.dir).lexically_normal(), cmake, build_dir, options, discovery.notes);
    if (found) commands.insert(commands.end(), found->begin(), found->end());
  }
  if (commands.empty()) return discovery;
  ReplacePrefix(commands, copy.string(), fs::weakly_canonical(input).string());
  const fs::path out = options.scratch / "compile_commands.json";
  std::ofstream(out) << commands.dump(1);
  discovery.compile_commands = out;
  return discovery;
}

}  // namespace hipforge::translate
