#include "worker/translate/translation_types.h"

namespace hipforge::translate {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "warning";
}

const char* FileStatusName(FileStatus status) {
  switch (status) {
    case FileStatus::kTranslated: return "translated";
    case FileStatus::kUnchanged: return "unchanged";
    case FileStatus::kFallback: return "fallback";
    case FileStatus::kCopied: return "copied";
    case FileStatus::kFailed: return "failed";
  }
  return "failed";
}

int TranslationStats::ConvertedTotal() const {
  int total = 0;
  for (const auto& [kind, count] : converted) total += count;
  return total;
}

void TranslationStats::Add(const TranslationStats& other) {
  for (const auto& [kind, count] : other.converted) converted[kind] += count;
  unconverted += other.unconverted;
  unsupported += other.unsupported;
  lines_changed += other.lines_changed;
}

}  // namespace hipforge::translate
