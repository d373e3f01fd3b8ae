#pragma once
// The "translation" section of the report (docs/report.md, through common/report) and hipify-clang-like
// --print-stats text.
#include <ostream>
#include <vector>

#include "common/report/report.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

report::FileEntry ToReportFileEntry(const FileTranslation& file);  // kind unknown at this level
// The files' entries and their totals (ComputeTotals).
report::TranslationSection ToTranslationSection(const std::vector<FileTranslation>& files);

// Per-file and total statistics in the spirit of hipify-clang's --print-stats.
void PrintStats(const std::vector<FileTranslation>& files, double seconds, std::ostream& out);
// The same statistics as CSV, a row per file, a TOTAL row and the time (migrate-hipify --print-stats-csv/--o-stats).
void WriteStatsCsv(const std::vector<FileTranslation>& files, double seconds, std::ostream& out);

}  // namespace hipforge::translate
