#pragma once
// HIP's NVIDIA platform as a validate toolchain: the HIP-on-CUDA header set (hip_on_cuda_header.h), a
// `hipcc` that takes hipcc's command line and runs nvcc with the header set, and CMake packages for
// hip, hipblas, hipfft, ... so that a migrated tree builds with its own build files (CMake, make, manifest
// commands) exactly as on a ROCm worker. The NVIDIA validate pool (docs/validation.md) builds and runs
// with it; its reports say what that proves: behaviour on HIP's NVIDIA platform, not on AMD hardware.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "worker/validate/toolchain.h"

namespace hipforge::validate {

inline constexpr char kHipOnCudaToolchainName[] = "hip-on-cuda";
// The HIP release the header set stands for (its HIP_VERSION macros; what the translator targets).
inline constexpr char kHipOnCudaHipRelease[] = "6.4";

struct HipOnCudaToolchainOptions {
  std::filesystem::path dir;       // written here: bin/hipcc, include/, lib/cmake/
  std::filesystem::path nvcc;      // empty: nvcc on PATH, else /usr/local/cuda/bin/nvcc
  std::vector<std::string> archs;  // sm_XX targets (the GPUs'); empty: sm_90
};

// Writes the toolchain into `options.dir` (replacing an older one) and describes it: hipcc = dir/bin/hipcc,
// offload archs = `archs`, libraries = the hip* libraries whose CUDA counterpart nvcc's installation has.
// NotFound without nvcc.
absl::StatusOr<Toolchain> MakeHipOnCudaToolchain(ProcessLauncher& launcher, const HipOnCudaToolchainOptions& options);

// The nvcc that builds the submitted CUDA tree for the automatic CUDA reference (exposed for tests): the tree's own
// build files run it as they would nvcc, and its GPU-architecture options (-arch, -gencode, -code,
// --gpu-architecture, ...) become `-arch=<arch>`, the GPU the HIP build runs on: old build files name sm_5x-sm_7x,
// which CUDA 13 no longer builds, and a reference for another GPU would not be one.
std::string CudaReferenceNvccScript(const std::filesystem::path& nvcc, const std::string& arch);

// The wrapper script's text (exposed for tests): hipcc's options mapped to nvcc's.
std::string HipccOverNvccScript(const std::filesystem::path& nvcc, const std::filesystem::path& include_dir,
                                const std::string& default_arch);

}  // namespace hipforge::validate
