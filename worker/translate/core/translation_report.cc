#include "worker/translate/core/translation_report.h"

#include <iomanip>

namespace hipforge::translate {

nlohmann::json FileTranslationJson(const FileTranslation& file) {
  nlohmann::json json = {{"path", file.path},
                         {"status", FileStatusName(file.status)},
                         {"fallback_reason", file.fallback_reason},
                         {"converted", file.stats.converted},
                         {"unconverted", file.stats.unconverted},
                         {"unsupported", file.stats.unsupported},
                         {"lines_changed", file.stats.lines_changed},
                         {"changed_by", file.changed_by}};
  if (file.from_cache) json["from_cache"] = true;
  return json;
}

nlohmann::json FindingJson(const Finding& finding) {
  return {{"rule_id", finding.rule_id},         {"severity", SeverityName(finding.severity)},
          {"path", finding.location.path},      {"line", finding.location.line},
          {"column", finding.location.column},  {"message", finding.message},
          {"fix", finding.fix},                 {"auto_fixed", finding.auto_fixed}};
}

nlohmann::json TranslationSectionJson(const std::vector<FileTranslation>& files) {
  nlohmann::json section = {{"files", nlohmann::json::array()}};
  int translated = 0, fallback = 0, converted = 0, unconverted = 0, unsupported = 0, lines = 0;
  for (const auto& file : files) {
    section["files"].push_back(FileTranslationJson(file));
    translated += file.status == FileStatus::kTranslated;
    fallback += file.status == FileStatus::kFallback;
    converted += file.stats.ConvertedTotal();
    unconverted += file.stats.unconverted;
    unsupported += file.stats.unsupported;
    lines += file.stats.lines_changed;
  }
  section["totals"] = {{"files", files.size()},         {"translated", translated},
                       {"fallback", fallback},          {"converted", converted},
                       {"unconverted", unconverted},    {"unsupported", unsupported},
                       {"lines_changed", lines}};
  return section;
}

namespace {

void PrintOne(const std::string& title, const TranslationStats& stats, int lines_total, std::ostream& out) {
  const int converted = stats.ConvertedTotal();
  const int references = converted + stats.unconverted + stats.unsupported;
  out << "[HIPIFY] info: " << title << "\n";
  out << "CONVERTED refs count: " << converted << "\n";
  out << "UNCONVERTED refs count: " << stats.unconverted + stats.unsupported << "\n";
  out << "  of which unsupported in the target: " << stats.unsupported << "\n";
  out << "CONVERSION %: " << std::fixed << std::setprecision(1)
      << (references ? 100.0 * converted / references : 100.0) << "\n";
  out << "TOTAL lines of code: " << lines_total << "\n";
  out << "CHANGED lines of code: " << stats.lines_changed << "\n";
  if (!stats.converted.empty()) {
    out << "CONVERTED refs by kind:\n";
    for (const auto& [kind, count] : stats.converted) out << "  " << kind << ": " << count << "\n";
  }
}

int CountLines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n');
}

}  // namespace

void PrintStats(const std::vector<FileTranslation>& files, double seconds, std::ostream& out) {
  TranslationStats total;
  int lines_total = 0;
  for (const auto& file : files) {
    const int lines = CountLines(file.output);
    PrintOne("file '" + file.path + "' statistics (" + FileStatusName(file.status) +
                 (file.fallback_reason.empty() ? "" : ": " + file.fallback_reason) + "):",
             file.stats, lines, out);
    total.Add(file.stats);
    lines_total += lines;
  }
  if (files.size() > 1) PrintOne("TOTAL statistics:", total, lines_total, out);
  out << "TIME ELAPSED s: " << std::fixed << std::setprecision(2) << seconds << "\n";
}

}  // namespace hipforge::translate
