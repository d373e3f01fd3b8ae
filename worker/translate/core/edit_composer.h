#pragma once
// Turns the facts of one file (launch sites, warp calls, argument rewrites) plus the lexer pass's renames and
// the caller's extra edits into one conflict-free edit list on the original bytes, and applies it.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/core/translate_options.h"
#include "worker/translate/core/translation_facts.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct ComposeInput {
  std::string_view path;
  std::string_view content;
  std::vector<TextEdit> token_edits;  // lexer pass renames
  std::vector<LaunchSite> launches;
  std::vector<WarpCallSite> warp_calls;
  std::vector<TextEdit> fact_edits;   // AST argument rewrites
  std::vector<TextEdit> extra_edits;  // analyzer fixes etc.
};

struct ComposedFile {
  std::string output;
  std::vector<TextEdit> edits;  // what was applied, sorted by offset
  TranslationStats stats;       // launches, warp calls; lines_changed
  std::vector<Finding> findings;
  std::set<std::string> changed_by;
};

ComposedFile ComposeAndApply(const ComposeInput& input, const TranslateOptions& options);

// Applies sorted, non-overlapping edits.
std::string ApplyEdits(std::string_view content, const std::vector<TextEdit>& sorted_edits);

}  // namespace hipforge::translate
