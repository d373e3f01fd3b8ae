#pragma once
// Types shared by the translator (core/), the analyzer (analyze/) and the repository pass (repo/).
// Kept free of Clang headers so the worker, server and CLI can include them cheaply.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/report/report.h"

namespace hipforge::translate {

// A replacement on the ORIGINAL bytes of one file.
struct TextEdit {
  uint32_t offset = 0;
  uint32_t length = 0;
  std::string replacement;
  std::string origin;  // what asked for it: a table ("runtime"), a rule id ("HB102"), "launch", ...
};
using EditsByFile = std::map<std::string, std::vector<TextEdit>>;  // key: path relative to the repo root

// The report's severity and file status, one enum each (names: report::SeverityName, report::FileStatusName).
using report::FileStatus;
using report::Severity;

struct SourceLocation {
  std::string path;     // relative to the repository root
  uint32_t line = 0;    // 1-based, in the original file
  uint32_t column = 0;  // 1-based
};

// An analyzer finding (rule ids HBxxx) or a translator diagnostic (ids TRxxx, e.g. unsupported API).
struct Finding {
  std::string rule_id;
  Severity severity = Severity::kWarning;
  SourceLocation location;
  std::string message;
  std::string fix;              // what the fix does, or the manual step for a person
  std::vector<TextEdit> edits;  // provably safe automatic fix on the original file; empty when manual
  bool auto_fixed = false;      // set by whoever applied `edits`
  // In lines the build's preprocessing drops (an #if branch neither the host nor the device parse kept, with the
  // build's defines): listed, not charged (MarkInactiveFindings, effort.cc).
  bool inactive = false;
  // The manual fix is one call's rewrite, not a dependency's replacement (HB304 for an API the mapping tables mark
  // unsupported): charged at its severity's default hours, not its rule's (effort.cc).
  bool one_call = false;
};

struct TranslationStats {
  std::map<std::string, int> converted;  // by kind: "function", "type", "enum", "macro", "header", "launch", ...
  int unconverted = 0;                   // CUDA identifiers seen with no mapping
  int unsupported = 0;                   // mapped but unsupported in the target HIP version
  int lines_changed = 0;
  int ConvertedTotal() const;
  void Add(const TranslationStats& other);
};

// The compile arguments one translation unit was parsed with, each with where it came from
// ("compile_commands.json", "cmake", "make -n", "command line", ...), and what was refused.
struct UnitArgumentRecord {
  std::string argument;
  std::string source;
};
struct UnitArgumentReport {
  std::vector<UnitArgumentRecord> used;      // the unit's own: defines, include dirs, standard (front end's left out)
  std::vector<UnitArgumentRecord> rejected;  // argument + reason, never passed to Clang
  std::string configuration;                 // "host", "device", or a build configuration's name
};

struct FileTranslation {
  std::string path;  // relative to the repository root
  FileStatus status = FileStatus::kUnchanged;
  std::string fallback_reason;  // why the AST path was not used (first Clang error, missing header, ...)
  std::string output;           // translated content
  TranslationStats stats;
  std::vector<Finding> diagnostics;
  std::set<std::string> changed_by;  // tables / rule ids that changed this file
  bool from_cache = false;
  std::vector<UnitArgumentReport> arguments;  // translation units only: one per configuration parsed
  std::string covered_by;  // a unit not parsed: the unit whose parse covered every header it includes
};

struct ProgressEvent {
  std::string stage;  // "translate", "analyze", "build-files", ...
  int done = 0;
  int total = 0;
  std::string message;  // e.g. the file just finished
};
using ProgressCallback = std::function<void(const ProgressEvent&)>;

}  // namespace hipforge::translate
