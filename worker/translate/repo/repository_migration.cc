#include "worker/translate/repo/repository_migration.h"

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/report_conversion.h"

#include "common/report/report_json.h"
#include "worker/translate/core/translation_report.h"
#include "worker/translate/repo/file_classifier.h"
#include "worker/translate/repo/repository_migrator.h"

namespace hipforge::translate {

absl::StatusOr<MigrationResult> MigrateRepository(const std::filesystem::path& input_root,
                                                  const std::filesystem::path& output_root,
                                                  const MigrationOptions& options, const ProgressCallback& progress) {
  BoostProcessLauncher launcher;
  RepositoryMigrator migrator(launcher, DefaultTranslatorFactory(), DefaultAnalyzerFactory(), DefaultEffortEstimator(),
                              RewriterRegistry::CreateDefault());
  return migrator.Run(input_root, output_root, options, progress);
}

report::Report ToReport(const MigrationResult& result) {
  std::map<std::string, const FileTranslation*> translations;
  for (const auto& translation : result.translations) translations[translation.path] = &translation;

  report::Report out;
  report::TranslationSection& section = out.translation.emplace();
  for (const FileSummary& file : result.files) {
    report::FileEntry entry;
    if (auto t = translations.find(file.source_path); t != translations.end()) entry = ToReportFileEntry(*t->second);
    entry.path = file.path;
    entry.source_path = file.source_path;
    entry.kind = RepoFileKindName(ReportedFileKind(file.source_path, file.kind));
    entry.translated_as_cuda = IsSourceKind(file.kind);
    entry.status = file.status;
    entry.lines_changed = file.lines_changed;
    entry.changed_by.assign(file.changed_by.begin(), file.changed_by.end());
    entry.left_for_person = file.left_for_person;
    entry.from_cache = file.from_cache;
    section.files.push_back(std::move(entry));
  }
  section.totals = report::ComputeTotals(section.files);
  section.notes = result.notes;
  out.findings.emplace();
  for (const Finding& finding : result.findings) out.findings->push_back(ToReportFinding(finding));
  out.effort = result.effort;
  return out;
}

nlohmann::json ToReportJson(const MigrationResult& result) { return report::ToJson(ToReport(result)); }

report::ValidateHints ValidateHintsFor(const MigrationResult& result) {
  report::ValidateHints hints;
  for (const Finding& finding : result.findings) {
    if (finding.rule_id == kRuleManagedMemory) hints.managed_memory = true;  // analyzer: managed memory / memory advice
  }
  return hints;
}

}  // namespace hipforge::translate
