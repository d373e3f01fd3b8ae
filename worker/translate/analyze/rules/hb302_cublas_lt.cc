#include "worker/translate/analyze/rules/hb302_cublas_lt.h"

namespace hipforge::translate::analyze {

const RuleInfo& CublasLtRule::info() const {
  static const RuleInfo kInfo{"HB302", Severity::kWarning, RuleClass::kLibrary,
                             "cuBLASLt descriptors, layouts and epilogues (hipBLASLt)"};
  return kInfo;
}

const IdentifierUseRule::Spec& CublasLtRule::spec() const {
  static const Spec kSpec{
      {{"cublasLt", true},
      {"CUBLASLT_", true}},
      Granularity::kFirstPerScope,
      "{name}: cuBLASLt code must move to hipBLASLt, whose matmul descriptors, layout attributes, epilogues and heuristics differ",
      "Port to hipBLASLt (hipblasLtMatmul*): check every descriptor/layout attribute and epilogue is supported on the target GPU and use hipblasLtMatmulAlgoGetHeuristic for algorithms."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
