#pragma once
// The repository pass's vocabulary: its options, its kind of file, what it says of each file and its result. Below
// everything else in repo/ (the rewriters, the stages, the migrator include it); the pass's entry points are
// repository_migration.h.
#include <set>
#include <string>
#include <vector>

#include "common/source_files.h"
#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct MigrationOptions {
  TranslateOptions translate;
  AnalyzeOptions analyze;
  bool apply_fixes = true;     // apply the analyzer's provably safe fixes
  bool annotate = false;       // `// HIPFORGE HBxxx: ...` comments in the output
  bool rename_to_hip = false;  // .cu -> .hip, includes and build files updated
  std::vector<std::string> hip_architectures = {"gfx90a", "gfx942"};
  // Without a compile_commands.json: configure the project's CMake / dry-run its Makefile (sandboxed) for
  // per-unit arguments (build_commands.h). Off: include dirs guessed from the tree, -D read from build files.
  bool discover_build_commands = true;
  std::vector<std::string> cmake_options;  // extra -DNAME=VALUE for that configure (hipforge.yaml)
};

// The file kinds are common/source_files.h's; in the repository pass a C/C++ file that does not use CUDA is kOther.
using RepoFileKind = FileKind;

struct FileSummary {
  std::string path;         // in the output tree, relative
  std::string source_path;  // in the input tree, relative (differs when renamed)
  RepoFileKind kind = RepoFileKind::kOther;
  FileStatus status = FileStatus::kUnchanged;
  std::set<std::string> changed_by;          // tables, rule ids, "cmake", "makefile", ...
  std::vector<std::string> left_for_person;  // manual steps
  int lines_changed = 0;
  bool from_cache = false;  // reused a previous result for the same content
};

struct MigrationResult {
  std::vector<FileSummary> files;
  std::vector<FileTranslation> translations;
  std::vector<Finding> findings;
  EffortEstimate effort;
  std::string unified_patch;       // input tree -> output tree
  std::vector<std::string> notes;  // pass-level notes (e.g. the analyzer was not built into this binary)
};

}  // namespace hipforge::translate
