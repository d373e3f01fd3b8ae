#include "worker/translate/translation_types.h"

namespace hipforge::translate {

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
