#include "worker/translate/core/translation_report.h"

#include <algorithm>
#include <iomanip>

namespace hipforge::translate {

report::FileEntry ToReportFileEntry(const FileTranslation& file) {
  report::FileEntry entry;
  entry.path = file.path;
  entry.source_path = file.path;
  entry.status = file.status;
  entry.fallback_reason = file.fallback_reason;
  entry.converted = file.stats.converted;
  entry.unconverted = file.stats.unconverted;
  entry.unsupported = file.stats.unsupported;
  entry.lines_changed = file.stats.lines_changed;
  entry.changed_by.assign(file.changed_by.begin(), file.changed_by.end());
  entry.from_cache = file.from_cache;
  entry.covered_by = file.covered_by;
  for (const UnitArgumentReport& config : file.arguments) {
    report::CompileConfiguration& out = entry.compile_arguments.emplace_back();
    out.configuration = config.configuration;
    for (const auto& arg : config.used) out.used.push_back({.argument = arg.argument, .source = arg.source});
    for (const auto& arg : config.rejected) out.rejected.push_back({.argument = arg.argument, .source = arg.source});
  }
  return entry;
}

report::TranslationSection ToTranslationSection(const std::vector<FileTranslation>& files) {
  report::TranslationSection section;
  for (const auto& file : files) section.files.push_back(ToReportFileEntry(file));
  section.totals = report::ComputeTotals(section.files);
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
  out << "CONVERSION %: " << std::fixed << std::setprecision(1) << (references ? 100.0 * converted / references : 100.0)
      << "\n";
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

void WriteStatsCsv(const std::vector<FileTranslation>& files, double seconds, std::ostream& out) {
  out << "file,status,converted,unconverted,unsupported,conversion_percent,total_lines,changed_lines\n";
  TranslationStats total;
  int lines_total = 0;
  auto row = [&out](const std::string& name, const std::string& status, const TranslationStats& stats, int lines) {
    const int converted = stats.ConvertedTotal();
    const int references = converted + stats.unconverted + stats.unsupported;
    std::string quoted = "\"";
    for (char ch : name) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    out << quoted << "\"," << status << "," << converted << "," << stats.unconverted << "," << stats.unsupported << ","
        << std::fixed << std::setprecision(1) << (references ? 100.0 * converted / references : 100.0) << "," << lines
        << "," << stats.lines_changed << "\n";
  };
  for (const auto& file : files) {
    const int lines = CountLines(file.output);
    row(file.path, std::string(report::FileStatusName(file.status)), file.stats, lines);
    total.Add(file.stats);
    lines_total += lines;
  }
  row("TOTAL", "-", total, lines_total);
  out << "\"TIME ELAPSED s\",-,,,," << std::fixed << std::setprecision(2) << seconds << ",,\n";
}

void PrintStats(const std::vector<FileTranslation>& files, double seconds, std::ostream& out) {
  TranslationStats total;
  int lines_total = 0;
  for (const auto& file : files) {
    const int lines = CountLines(file.output);
    PrintOne("file '" + file.path + "' statistics (" + std::string(report::FileStatusName(file.status)) +
                 (file.fallback_reason.empty() ? "" : ": " + file.fallback_reason) + "):",
             file.stats, lines, out);
    total.Add(file.stats);
    lines_total += lines;
  }
  if (files.size() > 1) PrintOne("TOTAL statistics:", total, lines_total, out);
  out << "TIME ELAPSED s: " << std::fixed << std::setprecision(2) << seconds << "\n";
}

}  // namespace hipforge::translate
