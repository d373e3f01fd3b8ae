// CUDA version macros -> the CUDA API level HIP provides (see version_macros.h). Sources: HIP's release notes
// (HIP 6.0 moved hipDeviceProp_t, hipGraph and hipMemcpy semantics to CUDA 12's; HIP 5.x covered CUDA 11's
// stream-ordered allocator, graphs and cooperative groups), hipBLAS 2.0 (ROCm 6.0: hipblasComputeType_t in
// hipblasGemmEx, cuBLAS 11's signature; before it only behind HIPBLAS_V2), MIOpen's legacy API (cuDNN 7's).
// Value scales are CUDA's own: CUDA_VERSION 12000 = 12.0; CUBLAS_VERSION 120000 = 12.0 (cuBLAS 12 scale),
// 10200 = 10.2 (cuBLAS 10 scale); CUDNN_VERSION 7600 = 7.6.
#include <algorithm>
#include <array>
#include <cstdint>

#include "worker/translate/tables/version_macros.h"

namespace hipforge::translate {
namespace {

using L = VersionLevel;

constexpr std::array<L, 3> kCudaVersion = {{{{4, 0}, 10020}, {{5, 0}, 11000}, {{6, 0}, 12000}}};
constexpr std::array<L, 3> kCudaMajor = {{{{4, 0}, 10}, {{5, 0}, 11}, {{6, 0}, 12}}};
constexpr std::array<L, 1> kZero = {{{{4, 0}, 0}}};
constexpr std::array<L, 2> kCublasVersion = {{{{4, 0}, 10200}, {{6, 0}, 120000}}};
constexpr std::array<L, 2> kCublasMajor = {{{{4, 0}, 10}, {{6, 0}, 12}}};
constexpr std::array<L, 2> kCusparseVersion = {{{{4, 0}, 11000}, {{6, 0}, 12000}}};
constexpr std::array<L, 2> kCufftVersion = {{{{4, 0}, 10000}, {{6, 0}, 11000}}};
constexpr std::array<L, 2> kCurandVersion = {{{{4, 0}, 10200}, {{6, 0}, 10300}}};
constexpr std::array<L, 2> kCusolverVersion = {{{{4, 0}, 11000}, {{6, 0}, 11400}}};
constexpr std::array<L, 1> kCudnnMajor = {{{{4, 0}, 7}}};
constexpr std::array<L, 1> kCudnnMinor = {{{{4, 0}, 6}}};
constexpr std::array<L, 1> kCudnnVersion = {{{{4, 0}, 7600}}};

constexpr const char* kRuntimeWhy =
    "HIP 6.x provides the CUDA 12 runtime API level (hipDeviceProp_t, graphs, memcpy semantics), HIP 5.x the "
    "CUDA 11 one";
constexpr const char* kCompilerWhy =
    "hipcc of HIP 6.x compiles what nvcc 12 does (C++17, the CUDA 12 headers' "
    "features HIP mirrors), HIP 5.x what nvcc 11 does";
constexpr const char* kBlasWhy =
    "hipBLAS 2.x (ROCm 6) has cuBLAS 11/12's GemmEx with compute types; hipBLAS of "
    "ROCm 5 only cuBLAS 10's signature by default";
constexpr const char* kLibraryWhy = "the ROCm library of the same release mirrors this CUDA library version";
constexpr const char* kDnnWhy = "MIOpen mirrors cuDNN 7's legacy API, not the v8 backend API nor cuDNN 9";

constexpr std::array<VersionMacro, 17> kVersionMacros = {{
    {"CUDA_VERSION", ApiLibrary::kDriver, "HIP_VERSION", kCudaVersion, false, kRuntimeWhy},
    {"CUDART_VERSION", ApiLibrary::kRuntime, "HIP_VERSION", kCudaVersion, false, kRuntimeWhy},
    {"__CUDART_API_VERSION", ApiLibrary::kRuntime, "HIP_VERSION", kCudaVersion, false, kRuntimeWhy},
    {"__CUDA_API_VERSION", ApiLibrary::kDriver, "HIP_VERSION", kCudaVersion, false, kRuntimeWhy},
    {"__CUDACC_VER_MAJOR__", ApiLibrary::kRuntime, "__HIPCC__", kCudaMajor, false, kCompilerWhy},
    {"__CUDACC_VER_MINOR__", ApiLibrary::kRuntime, "__HIPCC__", kZero, false, kCompilerWhy},
    {"__CUDACC_VER_BUILD__", ApiLibrary::kRuntime, "__HIPCC__", kZero, false, kCompilerWhy},
    {"CUBLAS_VERSION", ApiLibrary::kBlas, "HIP_VERSION", kCublasVersion, false, kBlasWhy},
    {"CUBLAS_VER_MAJOR", ApiLibrary::kBlas, "HIP_VERSION", kCublasMajor, false, kBlasWhy},
    {"CUSPARSE_VERSION", ApiLibrary::kSparse, "HIP_VERSION", kCusparseVersion, false, kLibraryWhy},
    {"CUFFT_VERSION", ApiLibrary::kFft, "HIP_VERSION", kCufftVersion, false, kLibraryWhy},
    {"CURAND_VERSION", ApiLibrary::kRand, "HIP_VERSION", kCurandVersion, false, kLibraryWhy},
    {"CUSOLVER_VERSION", ApiLibrary::kSolver, "HIP_VERSION", kCusolverVersion, false, kLibraryWhy},
    {"CUDNN_MAJOR", ApiLibrary::kDnn, "HIP_VERSION", kCudnnMajor, true, kDnnWhy},
    {"CUDNN_MINOR", ApiLibrary::kDnn, "HIP_VERSION", kCudnnMinor, true, kDnnWhy},
    {"CUDNN_PATCHLEVEL", ApiLibrary::kDnn, "HIP_VERSION", kZero, true, kDnnWhy},
    {"CUDNN_VERSION", ApiLibrary::kDnn, "HIP_VERSION", kCudnnVersion, true, kDnnWhy},
}};

}  // namespace

std::span<const VersionMacro> VersionMacros() { return kVersionMacros; }

const VersionMacro* FindVersionMacro(std::string_view cuda_name) {
  for (const VersionMacro& macro : VersionMacros()) {
    if (macro.cuda_name == cuda_name) return &macro;
  }
  return nullptr;
}

int64_t VersionMacroValue(const VersionMacro& macro, ApiVersion hip) {
  int64_t value = macro.levels.front().value;
  for (const VersionLevel& level : macro.levels) {
    if (!(hip < level.since)) value = level.value;
  }
  return value;
}

std::string VersionMacroExpression(const VersionMacro& macro) { return VersionMacroExpression(macro, INT64_MAX); }

std::string VersionMacroExpression(const VersionMacro& macro, int64_t cap) {
  auto value = [&](const VersionLevel& level) { return std::min(level.value, cap); };
  bool constant = true;
  for (const VersionLevel& level : macro.levels) constant = constant && value(level) == value(macro.levels.front());
  if (constant) return std::to_string(value(macro.levels.front()));
  // Highest level first: (HIP_VERSION >= 60000000 ? 12000 : HIP_VERSION >= 50000000 ? 11000 : 10020).
  std::string text = "(";
  for (size_t i = macro.levels.size(); i-- > 1;) {
    const VersionLevel& level = macro.levels[i];
    const int64_t hip_version = int64_t(level.since.major) * 10000000 + int64_t(level.since.minor) * 100000;
    text += "HIP_VERSION >= " + std::to_string(hip_version) + " ? " + std::to_string(value(level)) + " : ";
  }
  return text + std::to_string(value(macro.levels.front())) + ")";
}

}  // namespace hipforge::translate
