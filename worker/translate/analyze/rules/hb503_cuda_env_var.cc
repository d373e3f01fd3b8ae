#include "worker/translate/analyze/rules/hb503_cuda_env_var.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate::analyze {
namespace {

// The variables and their ROCm counterparts are the build table's (tables/build_tables.h), which the script
// rewriter applies.
using EnvVar = EnvVarMapping;

// The first mention that is a use: `is_prose(text, offset)` filters printed messages and prose strings.
template <typename ProseTest>
const EnvVar* FindVariable(std::string_view text, size_t* position, ProseTest is_prose) {
  for (const EnvVar& variable : EnvVarMappings()) {
    for (size_t hit : FindWord(text, variable.cuda_name)) {
      if (is_prose(text, hit)) continue;
      *position = hit;
      return &variable;
    }
  }
  return nullptr;
}

std::string Message(const EnvVar& variable) {
  return std::string(variable.cuda_name) +
         ": CUDA environment variable; the ROCm runtime ignores or interprets it differently";
}

std::string Fix(const EnvVar& variable) { return EnvVarAdvice(variable); }

}  // namespace

const RuleInfo& CudaEnvVarRule::info() const {
  static const RuleInfo kInfo{kRuleCudaEnvVar, Severity::kWarning, RuleClass::kBuild,
                              "CUDA environment variables (CUDA_VISIBLE_DEVICES, CUDA_LAUNCH_BLOCKING, ...)"};
  return kInfo;
}

void CudaEnvVarRule::CheckLines(const TextFile& file) {
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view code = CodePart(file.Line(line));
    size_t position = 0;
    const EnvVar* variable = FindVariable(code, &position, IsProseMention);
    if (!variable) continue;
    Report(file, file.LineStart(line) + static_cast<uint32_t>(position), Message(*variable), Fix(*variable));
  }
}

void CudaEnvVarRule::CheckTokens(const TextFile& file) {
  std::set<uint32_t> lines_done;
  for (const Token& token : file.tokens()) {
    if (token.kind != TokenKind::kString || token.in_directive) continue;
    size_t position = 0;
    const std::string_view body = StringLiteralBody(token.text);
    const EnvVar* variable = FindVariable(body, &position, IsProseInString);
    if (!variable) continue;
    const uint32_t offset = token.offset + static_cast<uint32_t>(body.data() - token.text.data() + position);
    if (!lines_done.insert(file.LineColumn(offset).first).second) continue;
    Report(file, offset, Message(*variable), Fix(*variable));
  }
}

}  // namespace hipforge::translate::analyze
