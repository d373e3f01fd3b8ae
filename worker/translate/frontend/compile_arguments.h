#pragma once
// Compile arguments that come from data (a job's options, a repository's compile_commands.json, CMake or
// Makefiles) are hostile until checked: only what changes how a source parses may reach Clang, and every path
// must resolve inside the unpacked tree. Flags that write files (--serialize-diagnostics, -MF,
// -Xclang -dependency-file), read host files (-include /etc/..., @response files) or load code (-fplugin)
// never pass. The local user's own command-line flags are trusted and do not go through this.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hipforge::translate {

// Where an argument came from, reported per translation unit.
enum class ArgumentSource {
  kFrontend,         // the CUDA front end's own (language, toolkit, shims)
  kCompileDatabase,  // compile_commands.json (the tree's, or --compile-commands)
  kCMake,            // the project's CMake, configured with CMAKE_EXPORT_COMPILE_COMMANDS
  kMakefile,         // a dry run of the project's Makefile (make -n)
  kBuildFileScan,    // -D flags read from build files without running them
  kTreeGuess,        // include dirs guessed from the tree layout
  kManifest,         // hipforge.yaml
  kCommandLine,      // migrate-cli translate -D/-I/--extra-arg
  kJobOptions,       // JobOptions.extra_clang_args of a submitted job
};
std::string_view ArgumentSourceName(ArgumentSource source);

struct RejectedArgument {
  std::string argument;  // as given (joined with its value when it takes one)
  std::string reason;
};

struct ArgumentCheck {
  std::vector<std::string> kept;  // normalised: -Ipath (absolute), -DX, -UX, -std=..., -include path, -f...
  std::vector<RejectedArgument> rejected;
  std::vector<std::string> ignored;  // build flags that do not change parsing (-O2, -c, -o x, -gencode ...)
};

// Checks `args` (no program name, no source file) against the allow-list: -D, -U, -I/-isystem/-iquote and
// -include whose target lies inside `tree_root` (relative paths resolve against `directory`, symlinks are
// followed), -std=, a few -f language flags, and nvcc's long spellings of the same. Build-only flags that do
// not affect parsing are ignored; everything else is rejected with a reason.
ArgumentCheck AllowListArguments(const std::vector<std::string>& args, const std::filesystem::path& tree_root,
                                 const std::filesystem::path& directory);

// Whether `path` (made absolute against `directory`, symlinks resolved) lies inside `root` (canonical).
bool ResolvesInside(const std::filesystem::path& path, const std::filesystem::path& directory,
                    const std::filesystem::path& root, std::filesystem::path* resolved = nullptr);

}  // namespace hipforge::translate
