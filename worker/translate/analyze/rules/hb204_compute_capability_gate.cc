#include "worker/translate/analyze/rules/hb204_compute_capability_gate.h"

#include <set>

#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

constexpr const char* kPropMessage =
    "compute-capability gate on cudaDeviceProp::{name}: AMD GPUs report their own major/minor (the digits "
    "of their gfx name), so NVIDIA-generation checks pick the wrong path";
constexpr const char* kPropFix =
    "Decide on features instead (hipDeviceProp_t::gcnArchName, warpSize, sharedMemPerBlock, hipDeviceAttribute*), "
    "or add an explicit AMD branch.";

bool IsComparison(std::string_view op) {
  return op == ">=" || op == "<=" || op == ">" || op == "<" || op == "==" || op == "!=";
}

}  // namespace

const RuleInfo& ComputeCapabilityGateRule::info() const {
  static const RuleInfo kInfo{kRuleComputeCapabilityGate, Severity::kWarning, RuleClass::kArchitecture,
                              "Compute-capability gates (__CUDA_ARCH__ comparisons, prop.major >= N)"};
  return kInfo;
}

void ComputeCapabilityGateRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(
      binaryOperator(
          isComparisonOperator(),
          hasEitherOperand(ignoringParenImpCasts(
              memberExpr(member(fieldDecl(hasAnyName("major", "minor"), hasDeclContext(recordDecl(hasAnyName(
                                                                            "cudaDeviceProp", "cudaDeviceProp_v2"))))))
                  .bind("member"))))
          .bind("compare"),
      this);
}

void ComputeCapabilityGateRule::Check(const MatchFinder::MatchResult& result) {
  const auto* member = result.Nodes.getNodeAs<clang::MemberExpr>("member");
  const auto* compare = result.Nodes.getNodeAs<clang::BinaryOperator>("compare");
  const clang::Expr* other = StripCasts(compare->getLHS()) == member ? compare->getRHS() : compare->getLHS();
  if (!ConstantValue(other, *result.Context)) return;  // compared with another device's value: not a gate
  const std::string name = member->getMemberDecl()->getName().str();
  std::string message = kPropMessage;
  message.replace(message.find("{name}"), 6, name);
  Report(*result.SourceManager, member->getMemberLoc(), MacroPlacement::kUse, std::move(message), kPropFix);
}

void ComputeCapabilityGateRule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier) continue;
    // Preprocessor gates: always lexical (the AST never sees the condition).
    if (token.text == "__CUDA_ARCH__" && token.in_directive && (token.directive == "if" || token.directive == "elif")) {
      const bool compared = (i + 1 < tokens.size() && tokens[i + 1].in_directive && IsComparison(tokens[i + 1].text)) ||
                            (i > 0 && tokens[i - 1].in_directive && IsComparison(tokens[i - 1].text));
      if (!compared || !lines_done.insert(file.LineColumn(token.offset).first).second) continue;
      Report(file, token.offset,
             "compute-capability gate `__CUDA_ARCH__` comparison: HIP does not define __CUDA_ARCH__ for AMD targets, "
             "so this branch silently takes the other path",
             "Test __HIP_DEVICE_COMPILE__ for device code and feature macros (__gfx<N>__ of each target, "
             "__AMDGCN_WAVEFRONT_SIZE) or HIP feature tests instead of NVIDIA generations.");
      continue;
    }
    if (token.in_directive && token.directive != "define") continue;
    if (token.text == "cudaDevAttrComputeCapabilityMajor" || token.text == "cudaDevAttrComputeCapabilityMinor" ||
        token.text == "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR" ||
        token.text == "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR") {
      if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
      Report(file, token.offset,
             std::string(token.text) +
                 ": AMD GPUs report their own compute capability (the digits of their gfx name), so "
                 "NVIDIA-generation checks pick the wrong path",
             kPropFix);
      continue;
    }
    // Unparsed code: `x.major >= 7` on a variable of a file that uses cudaDeviceProp.
    if ((token.text == "major" || token.text == "minor") && i >= 2 && i + 2 < tokens.size() &&
        (tokens[i - 1].text == "." || tokens[i - 1].text == "->") && file.InFallbackRange(token.offset) &&
        IsComparison(tokens[i + 1].text) && tokens[i + 2].kind == TokenKind::kNumber &&
        file.content().find("cudaDeviceProp") != std::string::npos) {
      if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
      std::string message = kPropMessage;
      message.replace(message.find("{name}"), 6, token.text);
      Report(file, token.offset, std::move(message), kPropFix);
    }
  }
}

}  // namespace hipforge::translate::analyze
