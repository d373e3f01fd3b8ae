#include "worker/translate/analyze/rules/hb201_inline_ptx.h"

#include "worker/translate/analyze/ptx_rewrite.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& InlinePtxRule::info() const {
  static const RuleInfo kInfo{kRuleInlinePtx, Severity::kError, RuleClass::kArchitecture, "Inline PTX asm"};
  return kInfo;
}

namespace {

std::string Excerpt(const std::string& text) {
  std::string excerpt = text.substr(0, 60);
  for (char& c : excerpt) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return excerpt + (text.size() > 60 ? "..." : "");
}

std::string Joined(const std::vector<std::string>& words) {
  std::string joined;
  for (const std::string& word : words) joined += (joined.empty() ? "`" : ", `") + word + "`";
  return joined;
}

}  // namespace

void InlinePtxRule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  for (const AsmStatement& statement : FindAsmStatements(tokens)) {
    if (!LooksLikePtx(statement.text)) continue;
    const auto parsed = ParseAsmStatement(file, statement.keyword);
    const uint32_t offset = tokens[statement.keyword].offset;
    if (parsed) {
      if (const auto replacement = MatchPtxIdiom(*parsed)) {
        Report(file, offset,
               "inline PTX `" + replacement->instruction + "` has an exact HIP equivalent: `" + replacement->statement +
                   "`" + (replacement->caveat.empty() ? "" : " (" + replacement->caveat + ")"),
               "Rewritten automatically (PTX idiom table, worker/translate/tables/ptx_table.cc).",
               {EditSpec{parsed->begin, parsed->end - parsed->begin, replacement->statement}});
        continue;
      }
    }
    const std::vector<std::string> instructions = PtxInstructions(statement.text);
    Report(file, offset,
           "inline PTX (`" + Excerpt(statement.text) + "`) does not assemble for AMD GPUs; needs a person: " +
               (instructions.empty() ? std::string("no instruction recognised") : Joined(instructions)) +
               " (no exact HIP equivalent in the PTX idiom table)",
           "Replace it with a HIP intrinsic or portable C++ (e.g. cp.async -> a plain copy and __syncthreads(), "
           "ld.acquire -> __hip_atomic_load with __ATOMIC_ACQUIRE, bfe with register operands -> shifts and masks) "
           "or guard it for NVIDIA only (#ifdef __HIP_PLATFORM_NVIDIA__).");
  }
}

}  // namespace hipforge::translate::analyze
