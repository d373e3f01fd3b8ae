#include "worker/translate/core/unit_arguments.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "clang/Tooling/CompilationDatabase.h"

namespace hipforge::translate {
namespace {

bool IsSkippedDirectory(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.empty() || name[0] == '.' || name == "build" || name == "node_modules" || name == "third_party";
}

// Keeps only what changes how the source parses; drops nvcc-only flags, outputs and the compiler itself.
std::vector<std::string> ParseRelevantFlags(const std::vector<std::string>& command, const std::string& directory) {
  std::vector<std::string> kept;
  auto absolute = [&](const std::string& path) {
    return std::filesystem::path(path).is_absolute() ? path : (std::filesystem::path(directory) / path).string();
  };
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& arg = command[i];
    auto with_value = [&](const std::string& flag) -> std::optional<std::string> {
      if (arg == flag && i + 1 < command.size()) return command[++i];
      if (arg.rfind(flag, 0) == 0 && arg.size() > flag.size()) return arg.substr(flag.size());
      return std::nullopt;
    };
    if (auto value = with_value("-I")) {
      kept.push_back("-I" + absolute(*value));
    } else if (auto value = with_value("-isystem")) {
      kept.push_back("-isystem" + absolute(*value));
    } else if (auto value = with_value("-D")) {
      kept.push_back("-D" + *value);
    } else if (auto value = with_value("-U")) {
      kept.push_back("-U" + *value);
    } else if (arg == "-include" && i + 1 < command.size()) {
      kept.push_back("-include");
      kept.push_back(absolute(command[++i]));
    } else if (arg.rfind("-std=", 0) == 0 || arg.rfind("--std=", 0) == 0) {
      kept.push_back("-std=" + arg.substr(arg.find('=') + 1));
    }
  }
  return kept;
}

}  // namespace

UnitArguments::UnitArguments(UnitArguments&&) noexcept = default;
UnitArguments& UnitArguments::operator=(UnitArguments&&) noexcept = default;
UnitArguments::~UnitArguments() = default;

absl::StatusOr<UnitArguments> UnitArguments::Create(const TranslateOptions& options, const CudaFrontend& frontend,
                                                    const std::filesystem::path& root) {
  UnitArguments result;
  result.base_ = frontend.ClangArgs();
  for (const auto& dir : frontend.options().include_dirs) result.include_dirs_.push_back(dir);
  if (options.compilation_database) {
    std::string error;
    result.database_ = clang::tooling::CompilationDatabase::loadFromDirectory(
        options.compilation_database->string(), error);
    if (!result.database_) return absl::InvalidArgumentError("compile database: " + error);
  } else if (options.guess_build_flags) {
    // Guessed flags go before the user's own (front end extra args come last in base_ anyway).
    std::vector<std::string> guessed;
    for (const auto& dir : GuessIncludeDirs(root)) {
      guessed.push_back("-I" + dir.string());
      result.include_dirs_.push_back(dir);
    }
    for (const auto& define : DefinesFromBuildFiles(root)) guessed.push_back("-D" + define);
    result.base_.insert(result.base_.end(), guessed.begin(), guessed.end());
  }
  return result;
}

std::vector<std::string> UnitArguments::For(const std::filesystem::path& file) const {
  std::vector<std::string> args = base_;
  if (database_) {
    for (const auto& command : database_->getCompileCommands(file.string())) {
      const auto flags = ParseRelevantFlags(command.CommandLine, command.Directory);
      args.insert(args.end(), flags.begin(), flags.end());
      break;  // the first command for the file decides
    }
  }
  return args;
}

std::vector<std::filesystem::path> GuessIncludeDirs(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> dirs = {root};
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(root, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_directory(error)) continue;
    if (IsSkippedDirectory(it->path()) || it.depth() > 3) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string name = it->path().filename().string();
    if (name == "include" || name == "inc" || name == "common" || name == "Common") dirs.push_back(it->path());
  }
  return dirs;
}

std::vector<std::string> DefinesFromBuildFiles(const std::filesystem::path& root) {
  static const std::regex kCmakeDefinitions(R"((?:add_definitions|add_compile_definitions)\s*\(([^)]*)\))");
  static const std::regex kFlagDefine(R"((?:^|\s)-D([A-Za-z_][A-Za-z0-9_]*(?:=[^\s"'$)]*)?))");
  static const std::regex kBareDefine(R"((?:^|\s)([A-Za-z_][A-Za-z0-9_]*(?:=[^\s"'$)]*)?))");
  std::set<std::string> defines;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(root, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_directory(error)) {
      if (IsSkippedDirectory(it->path()) || it.depth() > 4) it.disable_recursion_pending();
      continue;
    }
    const std::string name = it->path().filename().string();
    const bool cmake = name == "CMakeLists.txt" || it->path().extension() == ".cmake";
    const bool make = name == "Makefile" || name == "makefile" || it->path().extension() == ".mk";
    if (!cmake && !make) continue;
    std::ifstream in(it->path());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    if (cmake) {
      for (std::sregex_iterator m(text.begin(), text.end(), kCmakeDefinitions), end; m != end; ++m) {
        const std::string inside = (*m)[1];
        const bool has_flags = inside.find("-D") != std::string::npos;
        const std::regex& pattern = has_flags ? kFlagDefine : kBareDefine;
        for (std::sregex_iterator d(inside.begin(), inside.end(), pattern); d != end; ++d) defines.insert((*d)[1]);
      }
    } else {
      for (std::sregex_iterator d(text.begin(), text.end(), kFlagDefine), end; d != end; ++d) defines.insert((*d)[1]);
    }
  }
  return {defines.begin(), defines.end()};
}

}  // namespace hipforge::translate
