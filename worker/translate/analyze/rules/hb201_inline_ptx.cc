#include "worker/translate/analyze/rules/hb201_inline_ptx.h"

namespace hipforge::translate::analyze {

const RuleInfo& InlinePtxRule::info() const {
  static const RuleInfo kInfo{"HB201", Severity::kError, RuleClass::kArchitecture, "Inline PTX asm"};
  return kInfo;
}

void InlinePtxRule::checkTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  for (const AsmStatement& statement : FindAsmStatements(tokens)) {
    if (!LooksLikePtx(statement.text)) continue;
    std::string excerpt = statement.text.substr(0, 60);
    for (char& c : excerpt) {
      if (c == '\n' || c == '\t') c = ' ';
    }
    Report(file, tokens[statement.keyword].offset,
           "inline PTX (`" + excerpt + (statement.text.size() > 60 ? "...`" : "`") +
               ") does not assemble for AMD GPUs",
           "Replace it with a HIP intrinsic or portable C++ (e.g. %laneid -> __lane_id(), %clock -> clock64(), "
           "bfe/bfi -> shifts and masks, ld.global.nc -> __ldg or a plain load) or guard it for NVIDIA only.");
  }
}

}  // namespace hipforge::translate::analyze
