#include "worker/translate/analyze/rules/hb301_gemm_ex.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& GemmExRule::info() const {
  static const RuleInfo kInfo{kRuleGemmEx, Severity::kWarning, RuleClass::kLibrary,
                              "cublasGemmEx-family call: compute type and algorithm need checking"};
  return kInfo;
}

const IdentifierUseRule::Spec& GemmExRule::spec() const {
  static const Spec kSpec{
      {{"cublasGemmEx", false},
       {"cublasGemmBatchedEx", false},
       {"cublasGemmStridedBatchedEx", false},
       {"cublasSgemmEx", false},
       {"cublasCgemmEx", false},
       {"cublasGemmGroupedBatchedEx", false}},
      Granularity::kEveryCall,
      "{name}: hipBLAS takes hipblasComputeType_t/hipDataType and ignores cuBLAS algorithm ids; tensor-op algorithms "
      "and fast compute types (e.g. CUBLAS_COMPUTE_32F_FAST_TF32) have no identical AMD meaning",
      "Check the compute type and algorithm arguments: map CUBLAS_COMPUTE_* to HIPBLAS_COMPUTE_*, use "
      "HIPBLAS_GEMM_DEFAULT, and compare results with a tolerance."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
