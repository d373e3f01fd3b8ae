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
  // Added after the first cut (appended so existing values keep their numbers):
  kTypes,   // CUDA runtime and driver API types, enums, enum constants and macros
  kCaffe2,  // Caffe2's CUDA headers and helpers (HIPIFY's lit suite covers them)
  kNvtx,    // NVTX annotations (nvToolsExt.h) -> roctx
  kNvml,    // NVML (nvml.h): no ROCm drop-in; every use is reported
};

// Extra facts a few records carry, as bits in ApiMapping::flags.
enum class MappingFlag : uint16_t {
  kMainHeader = 1 << 0,      // a library's main include: emitted once per file even if several map to it
  kMainHeaderV2 = 1 << 1,    // cublas_v2.h: a main include that also enables kBlasV2Only records
  kBlasV2Only = 1 << 2,      // legacy cuBLAS name, translated only when cublas_v2.h is included
  kRocMiopenOnly = 1 << 3,   // roc_name applies with --miopen only, not with plain --roc
  kCudaOverloaded = 1 << 4,  // CUDA overloads this host function; the HIP call depends on the arguments
  kDropInclude = 1 << 5,     // header without a HIP counterpart: the #include is removed
  kHipDataType = 1 << 6,     // CUDA data type (cudaDataType_t, CUDA_R_32F...) whose hip_name is HIP's own
                             // hipDataType; --use-hip-data-types emits it instead of a library's type
  kDropWord = 1 << 7,        // CUDA word (an attribute macro) HIP needs nothing for: the word is removed
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
  // Added after the first cut (appended, with defaults, so existing initializers stay valid):
  uint16_t flags = 0;           // MappingFlag bits
  ApiVersion roc_introduced{};  // first ROCm release that has roc_name
  // HIP renamed a few names after some release (e.g. hipJitOptionMaxRegisters -> HIPRTC_JIT_MAX_REGISTERS).
  // Releases up to and including hip_name_before_until spell hip_name as hip_name_before.
  std::string_view hip_name_before{};
  ApiVersion hip_name_before_until{};
  // Header records: where ROCm installs the header from hip_installed_since on (hipblas/hipblas.h), where that
  // differs from hip_name, HIPIFY's spelling (hipblas.h). Emitted with TranslateOptions::installed_header_layout.
  std::string_view hip_installed_name{};
  ApiVersion hip_installed_since{};
};

constexpr bool HasFlag(const ApiMapping& mapping, MappingFlag flag) {
  return (mapping.flags & static_cast<uint16_t>(flag)) != 0;
}

}  // namespace hipforge::translate
