#pragma once
// CUDA -> HIP source translation of a set of files within one repository (the translator's entry point).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/translate/core/translate_options.h"
#include "worker/translate/frontend/compile_arguments.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/tables/api_mapping.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

class ParseCompanion;  // frontend/unit_parser.h
struct ParsedSourcesState;

// What SourceTranslator::Parse learned about a set of files: every unit's facts from one Clang parse per
// configuration (or the cache). Opaque; handed back to Compose.
struct ParsedSources {
  std::filesystem::path root;
  std::vector<std::filesystem::path> files;
  std::shared_ptr<ParsedSourcesState> state;  // the translator's; null: nothing parsed yet (Compose parses)
};

class SourceTranslator {
 public:
  virtual ~SourceTranslator() = default;

  // The two halves of Translate, for a caller whose other consumers of the parse must finish before the
  // edits are composed (the repository pass: the analyzer's AST rules ride on this parse as `companion`, and
  // their fixes become `extra_edits`). Each unit is parsed once per configuration, the first configuration's
  // parse feeding `companion` too; a unit whose facts (and the companion's results) are cached is not parsed.
  virtual absl::StatusOr<ParsedSources> Parse(const std::filesystem::path& root,
                                              const std::vector<std::filesystem::path>& files,
                                              ParseCompanion* companion, const ProgressCallback& progress) {
    (void)companion, (void)progress;
    return ParsedSources{root, files, nullptr};
  }
  virtual absl::StatusOr<std::vector<FileTranslation>> Compose(const ParsedSources& parsed,
                                                               const EditsByFile& extra_edits,
                                                               const ProgressCallback& progress) {
    return Translate(parsed.root, parsed.files, extra_edits, progress);
  }

  // Translates `files` (relative to `root`): CUDA sources and the project headers they include (each header
  // translated once, consistently). `extra_edits` (e.g. analyzer fixes) are applied together with the
  // translator's own edits. Never silently drops a file: a file that does not parse is translated by the
  // token-level fallback and marked kFallback with the reason.
  virtual absl::StatusOr<std::vector<FileTranslation>> Translate(const std::filesystem::path& root,
                                                                 const std::vector<std::filesystem::path>& files,
                                                                 const EditsByFile& extra_edits,
                                                                 const ProgressCallback& progress) = 0;
};

absl::StatusOr<std::unique_ptr<SourceTranslator>> CreateSourceTranslator(TranslateOptions options);

// Where the compatibility headers go when `options.frontend` names no shim directory: beside the PCH cache, shared
// by every run and task (a prelude PCH names the shim files it was built with: per-run shims would make every run
// rebuild it).
std::filesystem::path DefaultShimDirectory(const TranslateOptions& options);

// The host-side Clang arguments the translator parses each unit of `root` with (the first configuration's),
// for the analyzer: one set of compile arguments for both (AnalyzeOptions::unit_arguments).
using UnitArgumentLookup = std::function<std::vector<std::string>(const std::filesystem::path& file)>;
absl::StatusOr<UnitArgumentLookup> MakeUnitArgumentLookup(TranslateOptions options, const std::filesystem::path& root);

// The translator's CUDA prelude PCH for other parses' arguments (the analyzer's device side:
// AnalyzeOptions::device_prelude_pch), built when missing in the translator's PCH directory; null with prelude PCHs
// off or without a CUDA toolkit (as the translator uses none then).
using PreludePchLookup = std::function<std::optional<std::filesystem::path>(const std::vector<std::string>& args)>;
PreludePchLookup MakePreludePchLookup(TranslateOptions options);

}  // namespace hipforge::translate
