#pragma once
// The environment a user build/test command gets: built from scratch, never inherited, so a job sees
// exactly the GPU leased to it and HSA settings the worker chose.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "worker/validate/gpu_inventory.h"

namespace hipforge::validate {

// Which variable carries the leased GPU. ROCR_VISIBLE_DEVICES is AMD's advice (it acts below HIP,
// for every runtime); HIP_VISIBLE_DEVICES when configured; CUDA_VISIBLE_DEVICES for the NVIDIA
// backend (HIP on NVIDIA maps HIP_VISIBLE_DEVICES onto it).
enum class VisibilityVariable { kRocrVisibleDevices, kHipVisibleDevices, kCudaVisibleDevices };
std::string_view VisibilityVariableName(VisibilityVariable variable);

// Every variable that can widen or narrow device visibility; all but the chosen one are cleared.
const std::vector<std::string>& DeviceVisibilityVariables();

struct JobEnvironmentInput {
  const GpuDevice* device = nullptr;  // the leased GPU; nullptr for compile-only work
  VisibilityVariable visibility = VisibilityVariable::kRocrVisibleDevices;
  std::map<std::string, std::string> requested;    // from the manifest's env
  bool managed_memory = false;                     // analyzer HB404 or manifest flag: HSA_XNACK=1
  bool serialize_kernels = false;                  // re-run of a failure: AMD_SERIALIZE_KERNEL=3
  std::filesystem::path work_dir;                  // HOME and TMPDIR live here
  std::vector<std::filesystem::path> path_prefix;  // toolchain bin dirs before the system PATH
};

struct JobEnvironment {
  std::map<std::string, std::string> variables;
  std::vector<std::string> warnings;  // requests that were refused, and why
};

JobEnvironment BuildJobEnvironment(const JobEnvironmentInput& input);

}  // namespace hipforge::validate
