#pragma once
// The one record type for CUDA -> HIP API mappings. Each library has one table file
// (tables/<library>_table.cc) that returns a constant span of these records; nothing here is mutable.
#include <cstdint>
#include <span>
#include <string_view>

namespace hipforge::translate {

enum class ApiLibrary : uint8_t {
  kRuntime,            // CUDA runtime API (cuda_runtime_api.h)
  kDriver,             // CUDA driver API (cuda.h)
  kDevice,             // device functions and intrinsics
  kComplex,            // cuComplex.h
  kBlas,               // cuBLAS
  kBlasLt,             // cuBLASLt
  kRand,               // cuRAND
  kFft,                // cuFFT
  kSparse,             // cuSPARSE
  kSolver,             // cuSOLVER
  kDnn,                // cuDNN
  kCub,                // CUB
  kRtc,                // NVRTC
  kCooperativeGroups,  // cooperative_groups
  kNccl,               // NCCL
  kTensor,             // cuTENSOR
  kHeaders,            // include file names
};

enum class ApiKind : uint8_t {
  kFunction,
  kType,
  kEnumType,
  kEnumConstant,
  kMacro,
  kHeader,
  kNamespace,
};

enum class SupportState : uint8_t {
  kSupported,
  kUnsupported,   // no equivalent in the target; translation leaves it and warns
  kDeprecated,    // deprecated in CUDA; still translated
  kRemoved,       // removed from CUDA; still translated when HIP has it
  kExperimental,  // HIP equivalent is experimental; translated only with --experimental
};

// A version such as 11.8 or 6.2; {0, 0} means "not applicable".
struct ApiVersion {
  uint8_t major = 0;
  uint8_t minor = 0;
  constexpr bool IsSet() const { return major != 0 || minor != 0; }
  constexpr auto operator<=>(const ApiVersion&) const = default;
};

struct ApiMapping {
  std::string_view cuda_name;
  std::string_view hip_name;  // empty when HIP has no equivalent
  std::string_view roc_name;  // rocBLAS/rocSPARSE/MIOpen/... name used with --roc or --miopen; empty if none
  ApiKind kind = ApiKind::kFunction;
  ApiLibrary library = ApiLibrary::kRuntime;
  SupportState hip_state = SupportState::kSupported;
  SupportState roc_state = SupportState::kUnsupported;
  ApiVersion cuda_introduced{};
  ApiVersion cuda_deprecated{};
  ApiVersion cuda_removed{};
  ApiVersion hip_introduced{};  // first ROCm/HIP release that has hip_name
  ApiVersion hip_deprecated{};
  ApiVersion hip_removed{};
};

}  // namespace hipforge::translate
