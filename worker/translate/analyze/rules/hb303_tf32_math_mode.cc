#include "worker/translate/analyze/rules/hb303_tf32_math_mode.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& Tf32MathModeRule::info() const {
  static const RuleInfo kInfo{kRuleTf32MathMode, Severity::kWarning, RuleClass::kLibrary,
                              "TF32 / tensor-op math modes"};
  return kInfo;
}

const IdentifierUseRule::Spec& Tf32MathModeRule::spec() const {
  static const Spec kSpec{{{"CUBLAS_TF32_TENSOR_OP_MATH", false},
                           {"CUBLAS_TENSOR_OP_MATH", false},
                           {"CUBLAS_COMPUTE_32F_FAST_TF32", false},
                           {"CUBLAS_COMPUTE_32F_FAST_16F", false},
                           {"CUBLAS_COMPUTE_32F_FAST_16BF", false},
                           {"CUDNN_TENSOR_OP_MATH", true},
                           {"CUDNN_FMA_MATH", false}},
                          // Not listed on purpose: CUBLAS_PEDANTIC_MATH/CUBLAS_DEFAULT_MATH/CUDNN_DEFAULT_MATH and
                          // CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION ask for full precision (right on AMD too),
                          // and GEMM algorithm ids (CUBLAS_GEMM_DEFAULT_TENSOR_OP, CUBLAS_GEMM_ALGO*) are HB301's.
                          Granularity::kEveryUse,
                          "{name}: TF32/tensor-op math mode: AMD GPUs have no TF32 (MI300's XF32 is reached only "
                          "through hipBLASLt), so precision and speed differ",
                          "Decide the precision explicitly: use FP32 (HIPBLAS_COMPUTE_32F) for parity, or FP16/BF16 "
                          "inputs for matrix cores; compare results with a tolerance."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
