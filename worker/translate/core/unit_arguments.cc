#include "worker/translate/core/unit_arguments.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "clang/Tooling/JSONCompilationDatabase.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

bool IsSkippedDirectory(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.empty() || name[0] == '.' || name == "build" || name == "node_modules" || name == "third_party";
}

std::string CanonicalKey(const fs::path& path) {
  std::error_code error;
  const fs::path canonical = fs::weakly_canonical(path, error);
  return (error ? path.lexically_normal() : canonical).generic_string();
}

// The compile_commands.json to use: the one given (a file or a directory holding one), else one in the tree
// (the root, build/ or out/), else none.
std::optional<fs::path> FindCompileCommands(const TranslateOptions& options, const fs::path& root) {
  if (options.compilation_database) {
    const fs::path given = *options.compilation_database;
    return fs::is_directory(given) ? given / "compile_commands.json" : given;
  }
  if (!options.find_compile_commands) return std::nullopt;
  for (const char* candidate : {"compile_commands.json", "build/compile_commands.json", "out/compile_commands.json"}) {
    std::error_code error;
    if (fs::is_regular_file(root / candidate, error)) return root / candidate;
  }
  return std::nullopt;
}

// Maps a path written on the build's machine onto the tree: `foreign_prefix` is replaced by `root`.
fs::path Reroot(const fs::path& path, const fs::path& foreign_prefix, const fs::path& root) {
  if (foreign_prefix.empty()) return path;
  const auto relative = path.lexically_normal().lexically_relative(foreign_prefix);
  if (relative.empty() || *relative.begin() == "..") return path;
  return (root / relative).lexically_normal();
}

// The prefix of `file` (absolute, written elsewhere) whose removal leaves a path that exists under `root`.
std::optional<fs::path> ForeignPrefix(const fs::path& file, const fs::path& root) {
  std::vector<fs::path> parts(file.begin(), file.end());
  for (size_t skip = 1; skip < parts.size(); ++skip) {
    fs::path tail;
    for (size_t i = skip; i < parts.size(); ++i) tail /= parts[i];
    std::error_code error;
    if (fs::is_regular_file(root / tail, error)) {
      fs::path prefix;
      for (size_t i = 0; i < skip; ++i) prefix /= parts[i];
      return prefix;
    }
  }
  return std::nullopt;
}

// A command's own path arguments re-rooted, in both spellings (-Idir and -I dir).
std::vector<std::string> RerootArguments(const std::vector<std::string>& args, const fs::path& prefix,
                                         const fs::path& root) {
  if (prefix.empty()) return args;
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    bool done = false;
    for (const std::string flag :
         {"-I", "-isystem", "-iquote", "-include", "--include-path=", "--system-include=", "--pre-include="}) {
      if (arg == flag && i + 1 < args.size() && fs::path(args[i + 1]).is_absolute()) {
        out.push_back(arg);
        out.push_back(Reroot(args[++i], prefix, root).string());
        done = true;
        break;
      }
      if (arg.size() > flag.size() && arg.compare(0, flag.size(), flag) == 0 &&
          fs::path(arg.substr(flag.size())).is_absolute()) {
        out.push_back(flag + Reroot(arg.substr(flag.size()), prefix, root).string());
        done = true;
        break;
      }
    }
    if (!done) out.push_back(arg);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<BuildCommand>> ReadCompileCommands(const fs::path& json_file, const fs::path& root,
                                                              ArgumentSource source) {
  std::string error;
  // loadFromFile, not CompilationDatabase::loadFromDirectory: the plugin path expands @response files, which
  // would read host files named by a hostile database.
  auto database = clang::tooling::JSONCompilationDatabase::loadFromFile(
      json_file.string(), error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!database) return absl::InvalidArgumentError("compile database " + json_file.string() + ": " + error);
  std::vector<BuildCommand> commands;
  std::optional<fs::path> prefix;  // found once: a database describes one tree
  for (const auto& command : database->getAllCompileCommands()) {
    fs::path file = command.Filename;
    fs::path directory = command.Directory;
    if (file.is_relative()) file = directory / file;
    std::error_code ignored;
    if (!fs::exists(file, ignored)) {
      if (!prefix) prefix = ForeignPrefix(file.lexically_normal(), root);
      if (!prefix) continue;  // a file that is not in this tree
      file = Reroot(file, *prefix, root);
      directory = Reroot(directory, *prefix, root);
    }
    BuildCommand entry;
    entry.file = file.lexically_normal();
    entry.directory = directory.lexically_normal();
    entry.source = source;
    // The compiler and the file itself are not arguments.
    for (size_t i = 1; i < command.CommandLine.size(); ++i) {
      const std::string& arg = command.CommandLine[i];
      if (arg == command.Filename || fs::path(arg) == file || fs::path(arg) == fs::path(command.Filename)) continue;
      entry.arguments.push_back(arg);
    }
    entry.arguments = RerootArguments(entry.arguments, prefix.value_or(fs::path()), root);
    commands.push_back(std::move(entry));
  }
  return commands;
}

UnitArguments::UnitArguments(UnitArguments&&) noexcept = default;
UnitArguments& UnitArguments::operator=(UnitArguments&&) noexcept = default;
UnitArguments::~UnitArguments() = default;

absl::StatusOr<UnitArguments> UnitArguments::Create(const TranslateOptions& options, const CudaFrontend& frontend,
                                                    const fs::path& root) {
  UnitArguments result;
  result.root_ = root;
  result.trust_database_ = options.trust_compilation_database;
  // The front end's own arguments; the local user's -I/-D/extra args are reported as the command line's.
  result.frontend_ = frontend.BaseClangArgs();
  for (const auto& dir : frontend.options().include_dirs) {
    result.common_.push_back({"-I" + dir.string(), ArgumentSource::kCommandLine});
    result.include_dirs_.push_back(dir);
  }
  for (const auto& define : frontend.options().defines) {
    result.common_.push_back({"-D" + define, ArgumentSource::kCommandLine});
  }
  std::vector<fs::path> extra_readable;
  if (const auto json = FindCompileCommands(options, root)) {
    const ArgumentSource source =
        options.compilation_database ? options.compilation_database_source : ArgumentSource::kCompileDatabase;
    auto commands = ReadCompileCommands(*json, root, source);
    if (!commands.ok()) return commands.status();
    for (auto& command : *commands) result.commands_[CanonicalKey(command.file)].push_back(std::move(command));
    result.notes_.push_back("compile arguments from " + std::string(ArgumentSourceName(source)) + " (" +
                            std::to_string(result.commands_.size()) + " translation unit(s))");
  }
  if (result.commands_.empty() && options.guess_build_flags) {
    for (const auto& dir : GuessIncludeDirs(root)) {
      result.common_.push_back({"-I" + dir.string(), ArgumentSource::kTreeGuess});
      result.include_dirs_.push_back(dir);
    }
    for (const auto& define : DefinesFromBuildFiles(root)) {
      result.common_.push_back({"-D" + define, ArgumentSource::kBuildFileScan});
    }
  }
  // A job's own Clang arguments are data: allow-listed against the tree.
  if (!frontend.options().untrusted_args.empty()) {
    ArgumentCheck check = AllowListArguments(frontend.options().untrusted_args, root, root);
    for (auto& arg : check.kept) result.common_.push_back({std::move(arg), ArgumentSource::kJobOptions});
    for (auto& rejected : check.rejected) result.common_rejected_.push_back(std::move(rejected));
  }
  for (const auto& arg : frontend.options().extra_args) result.common_.push_back({arg, ArgumentSource::kCommandLine});
  if (options.trust_compilation_database) {
    for (const auto& [file, commands] : result.commands_) {
      for (const auto& command : commands) {
        for (const auto& arg : command.arguments) {
          if (arg.rfind("-I", 0) == 0 && arg.size() > 2) extra_readable.emplace_back(arg.substr(2));
        }
      }
    }
  }
  if (options.pch_directory) extra_readable.push_back(*options.pch_directory);
  if (options.cache_directory) extra_readable.push_back(*options.cache_directory);
  result.readable_roots_ = frontend.ReadableRoots(root, extra_readable);
  return result;
}

std::vector<UnitCommand> UnitArguments::For(const fs::path& file) const {
  // Prefix: the front end's; then the build's per-unit arguments; then every unit's (guesses, job options,
  // the command line: later arguments win, so the user's overrides come last).
  auto make = [&](const std::vector<Sourced>& own, const std::vector<RejectedArgument>& rejected) {
    UnitCommand command;
    command.args = frontend_;
    for (const auto& list : {std::cref(own), std::cref(common_)}) {
      for (const Sourced& arg : list.get()) {
        command.args.push_back(arg.argument);
        command.report.used.push_back({arg.argument, std::string(ArgumentSourceName(arg.source))});
      }
    }
    for (const auto& list : {std::cref(rejected), std::cref(common_rejected_)}) {
      for (const RejectedArgument& arg : list.get()) command.report.rejected.push_back({arg.argument, arg.reason});
    }
    command.report.configuration = "host";
    return command;
  };
  std::vector<UnitCommand> result;
  auto found = commands_.find(CanonicalKey(file));
  bool nearest = false;
  if (found == commands_.end()) {
    // A unit the build does not compile (in this configuration): the command of the file nearest to it in
    // the tree (longest common directory), as clangd's interpolation does; without any, every unit's.
    const std::string key = CanonicalKey(file);
    size_t best = 0;
    for (auto it = commands_.begin(); it != commands_.end(); ++it) {
      size_t common = 0;
      while (common < key.size() && common < it->first.size() && key[common] == it->first[common]) ++common;
      const size_t slash = key.rfind('/', common);
      if (slash != std::string::npos && slash > best) {
        best = slash;
        found = it;
      }
    }
    if (found == commands_.end()) {
      result.push_back(make({}, {}));
      return result;
    }
    nearest = true;
  }
  std::set<std::vector<std::string>> seen;  // configurations that differ only in ignored flags are one
  for (const BuildCommand& build : found->second) {
    // A database the local user named is theirs (paths anywhere); one from the tree or its build is data.
    const fs::path tree = trust_database_ ? fs::path("/") : root_;
    ArgumentCheck check = AllowListArguments(build.arguments, tree, build.directory);
    if (!seen.insert(check.kept).second) continue;
    std::vector<Sourced> own;
    for (auto& arg : check.kept) own.push_back({std::move(arg), build.source});
    result.push_back(make(own, check.rejected));
    if (nearest) {
      for (auto& arg : result.back().report.used) {
        if (arg.source == ArgumentSourceName(build.source))
          arg.source += " (nearest: " + build.file.filename().string() + ")";
      }
      break;  // one borrowed configuration is enough
    }
  }
  if (result.size() > 1) {
    for (size_t i = 0; i < result.size(); ++i)
      result[i].report.configuration = "build configuration " + std::to_string(i + 1);
  }
  return result;
}

std::vector<fs::path> GuessIncludeDirs(const fs::path& root) {
  std::vector<fs::path> dirs = {root};
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (!it->is_directory(error)) continue;
    if (IsSkippedDirectory(it->path()) || it.depth() > 3) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string name = it->path().filename().string();
    if (name != "include" && name != "inc" && name != "common" && name != "Common") continue;
    // A directory link out of the tree is never searched.
    if (ResolvesInside(it->path(), root, fs::weakly_canonical(root, error))) dirs.push_back(it->path());
  }
  return dirs;
}

std::vector<std::string> DefinesFromBuildFiles(const fs::path& root) {
  static const std::regex kCmakeDefinitions(R"((?:add_definitions|add_compile_definitions)\s*\(([^)]*)\))");
  static const std::regex kFlagDefine(R"((?:^|\s)-D([A-Za-z_][A-Za-z0-9_]*(?:=[^\s"'$)]*)?))");
  static const std::regex kBareDefine(R"((?:^|\s)([A-Za-z_][A-Za-z0-9_]*(?:=[^\s"'$)]*)?))");
  std::set<std::string> defines;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
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
