#include "worker/translate/analyze/rules/hb202_tensor_core.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

bool AsmUsesTensorCores(std::string_view text) {
  static constexpr std::string_view kOpcodes[] = {"mma.sync", "wmma.",   "ldmatrix",        "stmatrix", "cp.async",
                                                  "wgmma",    "tcgen05", "cp.reduce.async", "mbarrier"};
  for (std::string_view opcode : kOpcodes) {
    if (text.find(opcode) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

const RuleInfo& TensorCoreRule::info() const {
  static const RuleInfo kInfo{kRuleTensorCore, Severity::kError, RuleClass::kArchitecture,
                              "Tensor-core and async-copy code (wmma, mma.sync, ldmatrix, cp.async, cuda::pipeline)"};
  return kInfo;
}

void TensorCoreRule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (const AsmStatement& statement : FindAsmStatements(tokens)) {
    if (!AsmUsesTensorCores(statement.text)) continue;
    const uint32_t offset = tokens[statement.keyword].offset;
    lines_done.insert(file.LineColumn(offset).first);
    Report(file, offset, "PTX tensor-core/async-copy instruction in asm: no AMD equivalent instruction",
           "Rewrite with rocWMMA (or MFMA builtins such as __builtin_amdgcn_mfma_*) and plain or "
           "__builtin_amdgcn_global_load_lds loads; re-tune tile sizes for 64-wide wavefronts.");
  }
  // API use: one finding per function scope.
  std::set<uint32_t> scopes_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || (token.in_directive && token.directive != "define")) continue;
    const std::string_view word = token.text;
    bool hit = false;
    if (word == "wmma" && i + 1 < tokens.size() && tokens[i + 1].text == "::") hit = true;
    if (word == "nvcuda" && i + 2 < tokens.size() && tokens[i + 1].text == "::" && tokens[i + 2].text == "wmma")
      hit = true;
    if (word == "pipeline" && i >= 2 && tokens[i - 1].text == "::" && tokens[i - 2].text == "cuda") hit = true;
    if (word == "memcpy_async" || word == "__pipeline_memcpy_async" || word == "__pipeline_commit" ||
        word == "__pipeline_wait_prior" || word == "make_pipeline" || word == "pipeline_shared_state") {
      hit = true;
    }
    if (!hit) continue;
    if (i > 0 && tokens[i - 1].text == "namespace") continue;
    if (word == "nvcuda" && i > 0 && tokens[i - 1].text == "namespace") continue;
    if (!scopes_done.insert(token.scope).second) continue;
    if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    const bool is_wmma = word == "wmma" || word == "nvcuda";
    Report(file, token.offset,
           is_wmma ? "nvcuda::wmma tensor-core fragments: AMD matrix cores need rocWMMA (fragment shapes and layouts "
                     "differ, wavefront is 64 lanes)"
                   : std::string(word) + ": CUDA asynchronous copy/pipeline has no direct HIP equivalent",
           is_wmma ? "Port to rocWMMA (rocwmma::fragment, load_matrix_sync, mma_sync, store_matrix_sync) with "
                     "M/N/K shapes each target supports (rocWMMA lists them per architecture)."
                   : "Replace with synchronous global-to-shared copies followed by __syncthreads() (or "
                     "double-buffering by hand).");
  }
}

}  // namespace hipforge::translate::analyze
