#include "worker/translate/repo/repository_migration.h"

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

nlohmann::json ToReportJson(const MigrationResult& result) {
  std::map<std::string, const FileTranslation*> translations;
  for (const auto& translation : result.translations) translations[translation.path] = &translation;

  nlohmann::json files = nlohmann::json::array();
  nlohmann::json totals = {{"files", 0}, {"translated", 0}, {"unchanged", 0}, {"fallback", 0}, {"copied", 0},
                           {"failed", 0}, {"converted", 0}, {"unsupported", 0}, {"lines_changed", 0}};
  for (const FileSummary& file : result.files) {
    nlohmann::json entry = {{"path", file.path},
                            {"source_path", file.source_path},
                            {"kind", RepoFileKindName(file.kind)},
                            {"status", FileStatusName(file.status)},
                            {"fallback_reason", ""},
                            {"converted", nlohmann::json::object()},
                            {"unconverted", 0},
                            {"unsupported", 0},
                            {"lines_changed", file.lines_changed},
                            {"changed_by", file.changed_by},
                            {"left_for_person", file.left_for_person},
                            {"from_cache", file.from_cache}};
    if (auto t = translations.find(file.source_path); t != translations.end()) {
      const FileTranslation& translation = *t->second;
      entry["fallback_reason"] = translation.fallback_reason;
      entry["converted"] = translation.stats.converted;
      entry["unconverted"] = translation.stats.unconverted;
      entry["unsupported"] = translation.stats.unsupported;
      // Per translation unit and configuration: the compile arguments used and where each came from.
      if (!translation.arguments.empty()) {
        nlohmann::json configurations = nlohmann::json::array();
        for (const UnitArgumentReport& config : translation.arguments) {
          nlohmann::json used = nlohmann::json::array(), rejected = nlohmann::json::array();
          for (const auto& arg : config.used) used.push_back({{"argument", arg.argument}, {"source", arg.source}});
          for (const auto& arg : config.rejected) rejected.push_back({{"argument", arg.argument}, {"reason", arg.source}});
          configurations.push_back({{"configuration", config.configuration}, {"used", used}, {"rejected", rejected}});
        }
        entry["compile_arguments"] = std::move(configurations);
      }
      totals["converted"] = totals["converted"].get<int>() + translation.stats.ConvertedTotal();
      totals["unsupported"] = totals["unsupported"].get<int>() + translation.stats.unsupported;
    }
    totals["files"] = totals["files"].get<int>() + 1;
    const std::string status = FileStatusName(file.status);
    totals[status] = totals[status].get<int>() + 1;
    totals["lines_changed"] = totals["lines_changed"].get<int>() + file.lines_changed;
    files.push_back(std::move(entry));
  }

  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& finding : result.findings) {
    findings.push_back({{"rule_id", finding.rule_id},
                        {"severity", SeverityName(finding.severity)},
                        {"path", finding.location.path},
                        {"line", finding.location.line},
                        {"column", finding.location.column},
                        {"message", finding.message},
                        {"fix", finding.fix},
                        {"auto_fixed", finding.auto_fixed}});
  }
  nlohmann::json report = {
      {"translation", {{"files", files}, {"totals", totals}}},
      {"findings", findings},
      {"effort",
       {{"engineer_hours", result.effort.engineer_hours},
        {"automatic_share", result.effort.automatic_share},
        {"by_severity", result.effort.findings_by_severity}}},
  };
  if (!result.notes.empty()) report["translation"]["notes"] = result.notes;
  return report;
}

}  // namespace hipforge::translate
