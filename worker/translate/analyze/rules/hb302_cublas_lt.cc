#include "worker/translate/analyze/rules/hb302_cublas_lt.h"

#include <cctype>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& CublasLtRule::info() const {
  static const RuleInfo kInfo{kRuleCublasLt, Severity::kWarning, RuleClass::kLibrary,
                              "cuBLASLt descriptors, layouts and epilogues (hipBLASLt)"};
  return kInfo;
}

// cublasLtMatmul, cublasLtHandle_t, CUBLASLT_EPILOGUE_*: the library's names continue with a capital letter
// or '_' after the upper-case prefix; a user wrapper such as `cublasLt_gemm` is not the library.
bool CublasLtRule::Accept(const TextFile& file, size_t index) const {
  const std::string_view name = file.tokens()[index].text;
  if (name.rfind("CUBLASLT_", 0) == 0) return true;
  return name.size() > 8 && std::isupper(static_cast<unsigned char>(name[8]));
}

const IdentifierUseRule::Spec& CublasLtRule::spec() const {
  static const Spec kSpec{{{"cublasLt", true}, {"CUBLASLT_", true}},
                          Granularity::kFirstPerScope,
                          "{name}: cuBLASLt code must move to hipBLASLt, whose matmul descriptors, layout attributes, "
                          "epilogues and heuristics differ",
                          "Port to hipBLASLt (hipblasLtMatmul*): check every descriptor/layout attribute and epilogue "
                          "is supported on the target GPU and use hipblasLtMatmulAlgoGetHeuristic for algorithms."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
