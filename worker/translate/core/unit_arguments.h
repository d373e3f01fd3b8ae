#pragma once
// The Clang arguments for each translation unit: the CUDA front end's, then the unit's own defines, include
// dirs and standard, each with where it came from. The unit's own come from the repository's build (a
// compile_commands.json: given with -p/--compile-commands, found in the tree, or made by configuring its CMake
// or dry-running its Makefile, see build_commands.h), or, without one, from include dirs guessed from the tree
// and -D flags found in its build files. Everything read from the tree or a job goes through the allow-list
// (frontend/compile_arguments.h); the local user's own flags do not. A unit built in several configurations
// (a define set for one target, not another) gets one command per distinct configuration.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/translate/core/translate_options.h"
#include "worker/translate/frontend/compile_arguments.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

// One compile command of a unit, as the build gave it (already re-rooted into the tree).
struct BuildCommand {
  std::filesystem::path file;          // absolute, inside the tree
  std::filesystem::path directory;     // absolute
  std::vector<std::string> arguments;  // without the compiler and the file
  ArgumentSource source = ArgumentSource::kCompileDatabase;
};

struct UnitCommand {
  std::vector<std::string> args;  // complete Clang arguments without the file
  UnitArgumentReport report;      // the unit's own arguments with their sources, and what was refused
};

class UnitArguments {
 public:
  static absl::StatusOr<UnitArguments> Create(const TranslateOptions& options, const CudaFrontend& frontend,
                                              const std::filesystem::path& root);
  UnitArguments(UnitArguments&&) noexcept;
  UnitArguments& operator=(UnitArguments&&) noexcept;
  ~UnitArguments();

  // Commands for `file` (absolute): at least one; several when the build compiles it in distinct configurations.
  std::vector<UnitCommand> For(const std::filesystem::path& file) const;
  // Directories searched for quoted/angled includes when no parse is available.
  const std::vector<std::filesystem::path>& include_dirs() const { return include_dirs_; }
  // What a parse may read (empty: unconfined), for MakeParseFileSystem.
  const std::vector<std::string>& readable_roots() const { return readable_roots_; }
  // Pass-level notes: where the build commands came from, or why none could be used.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  UnitArguments() = default;
  struct Sourced {
    std::string argument;
    ArgumentSource source;
  };
  std::vector<std::string> frontend_;  // the CUDA front end's own
  std::vector<Sourced> common_;        // every unit's: guesses, job options, command line
  std::vector<RejectedArgument> common_rejected_;
  std::vector<std::filesystem::path> include_dirs_;
  std::vector<std::string> readable_roots_;
  std::map<std::string, std::vector<BuildCommand>> commands_;  // by canonical file path
  std::vector<std::string> notes_;
  std::filesystem::path root_;
  bool trust_database_ = false;
};

// Reads a compile_commands.json (JSON compilation database; no response-file expansion: an `@/etc/...`
// argument stays an argument and is refused). Entries written on another machine are re-rooted: the longest
// tail of each entry's file path that exists under `root` decides the prefix that maps onto `root`.
absl::StatusOr<std::vector<BuildCommand>> ReadCompileCommands(const std::filesystem::path& json_file,
                                                              const std::filesystem::path& root, ArgumentSource source);

// -D flags (NAME or NAME=VALUE) found in CMakeLists.txt / *.cmake / Makefiles under `root`.
std::vector<std::string> DefinesFromBuildFiles(const std::filesystem::path& root);
// Directories under `root` that look like include roots (include/, inc/, and the root itself).
std::vector<std::filesystem::path> GuessIncludeDirs(const std::filesystem::path& root);

}  // namespace hipforge::translate
