#include "worker/translate_runner.h"
#include "common/file_io.h"

#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/report/report_json.h"
#include "worker/translate/repo/repository_migration.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;

// "5.2" -> {5, 2}; empty or malformed -> unset (the translator's default).
translate::ApiVersion ParseHipVersion(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, '.');
  int major = 0, minor = 0;
  if (parts.empty() || !absl::SimpleAtoi(parts[0], &major)) return {};
  if (parts.size() > 1 && !absl::SimpleAtoi(parts[1], &minor)) return {};
  if (major <= 0 || major > 255 || minor < 0 || minor > 255) return {};
  return {static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
}

translate::MigrationOptions ToMigrationOptions(const v1::JobSpec& spec, const std::string& default_hip_version,
                                               unsigned jobs) {
  translate::MigrationOptions options;
  const v1::JobOptions& job = spec.options();
  options.translate.hip_kernel_execution_syntax = job.launch_syntax() == v1::LAUNCH_SYNTAX_HIP_LAUNCH_KERNEL_GGL;
  const std::string& hip_version = job.hip_version().empty() ? default_hip_version : job.hip_version();
  if (translate::ApiVersion version = ParseHipVersion(hip_version); version.IsSet()) {
    options.translate.target_hip_version = version;
  }
  // The shims beside the worker's PCH cache, not in the task's scratch: a prelude PCH names the shim files it was
  // built with, so per-task shims made every task find it unusable, parse without it and rebuild it.
  options.translate.frontend.shim_directory = translate::DefaultShimDirectory(options.translate);
  // A job's Clang arguments are data from the submitter: allow-listed against the unpacked tree, and every
  // parse confined to it (frontend/compile_arguments.h, confined_file_system.h).
  options.translate.frontend.untrusted_args.assign(job.extra_clang_args().begin(), job.extra_clang_args().end());
  options.translate.frontend.confine_to_tree = true;
  // The worker's parse threads (--translate-jobs; the CPUs it may use by default). Pool threads never throw
  // TaskAbandoned (the progress callback checks the thread), so an abandoned task stops after the parallel stage.
  options.translate.jobs = jobs;
  options.analyze.frontend = options.translate.frontend;
  options.analyze.jobs = jobs;
  options.rename_to_hip = job.rename_to_hip();
  if (!spec.targets().empty()) options.hip_architectures.assign(spec.targets().begin(), spec.targets().end());
  return options;
}

// Each finding gets the text of the CUDA line it points at ("source_line"): the dashboard shows it beside
// the HIP hunk and the store fingerprints findings by it (rule + path + normalised line), so a finding
// keeps its identity across jobs when lines above it move.
void AddSourceLines(const fs::path& input_root, std::vector<report::Finding>& findings) {
  constexpr size_t kMaxLineChars = 400;
  std::map<std::string, std::vector<std::string>> lines_by_path;
  for (report::Finding& finding : findings) {
    if (finding.path.empty() || finding.line <= 0) continue;
    auto [entry, inserted] = lines_by_path.try_emplace(finding.path);
    if (inserted) {
      const fs::path file = (input_root / finding.path).lexically_normal();
      std::ifstream in(file, std::ios::binary);
      for (std::string text; std::getline(in, text);) entry->second.push_back(std::move(text));
    }
    if (static_cast<size_t>(finding.line) > entry->second.size()) continue;
    std::string text = entry->second[finding.line - 1];
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.size() > kMaxLineChars) text.resize(kMaxLineChars);
    // Source files need not be UTF-8: invalid bytes become U+FFFD rather than breaking the report.
    finding.source_line =
        nlohmann::json::parse(nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            .get<std::string>();
  }
}

// Thrown from the progress callback when the task is abandoned (lease lost, job cancelled, worker
// stopping): the repository pass has no cancel hook, but it reports after every file, outside any
// Clang parse; on this thread only (its parallel stages report from pool threads, which must not throw),
// so the pass ends at the next file this thread reports.
struct TaskAbandoned {};

}  // namespace

absl::StatusOr<TaskOutput> TranslateTaskRunner::Run(const TaskContext& context) {
  const fs::path output_root = context.work_dir / "translated";
  translate::MigrationOptions options = ToMigrationOptions(context.spec, options_.default_hip_version, options_.jobs);
  options.translate.pch_cache_bytes = options_.pch_cache_bytes;

  context.progress.Step("translate", "repository", "started", "");
  std::atomic<int> units = 0;  // the translate stage's total: translation units, named beside the CUDA files
  // Thrown only on this thread: an exception leaving a pool thread would end the process.
  auto progress = [&context, &units,
                   runner_thread = std::this_thread::get_id()](const translate::ProgressEvent& event) {
    if (context.abandon.load() && std::this_thread::get_id() == runner_thread) throw TaskAbandoned{};
    if (event.stage == "translate") {
      units = event.total;
      context.progress.FileDone(event.message, event.done, event.total, "translated");
    } else {
      // "k/n" only when n is known: a count that does not add up ("1/0") says nothing.
      context.progress.Step(event.stage, event.message, "progress",
                            event.total > 0 ? absl::StrCat(event.done, "/", event.total) : absl::StrCat(event.done));
    }
  };
  absl::StatusOr<translate::MigrationResult> result = absl::AbortedError("task abandoned");
  try {
    result = translate::MigrateRepository(context.input_root, output_root, options, progress);
  } catch (const TaskAbandoned&) {
    return absl::AbortedError("task abandoned (lease lost, job cancelled or worker stopping) during the translation");
  }
  if (!result.ok()) {
    context.progress.Step("translate", "repository", "failed", std::string(result.status().message()));
    return result.status();
  }
  if (context.abandon.load()) return absl::AbortedError("task abandoned (lease lost or job cancelled)");

  TaskOutput output;
  report::Report report = translate::ToReport(*result);
  report.job_id = context.job_id;
  if (report.findings) AddSourceLines(context.input_root, *report.findings);
  // Stored with the translation, so every output reads one verdict ("translated only" until a validation
  // stores what it proved in its place).
  report.verdict = report::DecideVerdict(report);
  output.files_total = report.translation->totals.cuda_files;
  output.files_translated = report.translation->totals.cuda_files_translated;
  output.report = std::move(report);
  output.managed_memory = translate::ValidateHintsFor(*result).managed_memory;

  const bool zstd = options_.compression == ArchiveCompression::kZstd;
  const fs::path tree_archive = context.work_dir / (zstd ? "translated.tar.zst" : "translated.tar.gz");
  PackOptions pack;
  pack.compression = options_.compression;
  pack.honour_gitignore = false;               // the output tree is exactly what the translator wrote
  pack.max_name_bytes = kMaxDerivedNameBytes;  // renames may lengthen an accepted name
  absl::StatusOr<PackResult> packed = PackDirectoryToFile(output_root, tree_archive, launcher_, pack);
  if (!packed.ok()) return packed.status();
  output.artifacts.push_back({v1::ARTIFACT_KIND_TRANSLATED_TREE,
                              zstd ? v1::COMPRESSION_FORMAT_TAR_ZSTD : v1::COMPRESSION_FORMAT_TAR_GZIP, tree_archive});

  const fs::path patch = context.work_dir / "translated.patch";
  if (absl::Status written = WriteFileBytes(patch, result->unified_patch); !written.ok()) return written;
  output.artifacts.push_back({v1::ARTIFACT_KIND_PATCH, v1::COMPRESSION_FORMAT_UNSPECIFIED, patch});

  // The progress lines counted units ("translate unit 3/3"); this names both counts, so 3 never reads as 3 of 4.
  output.summary = absl::StrCat(report::CudaFilesSummary(output.report->translation->totals),
                                units > 0 ? absl::StrCat(" from ", units.load(), " translation units") : "", ", ",
                                packed->files, " files in the output tree");
  context.progress.Step("translate", "repository", "ok", output.summary);
  return output;
}

}  // namespace hipforge::worker
