#pragma once
// GPU inventory for the NVIDIA backend (HIP sources built with nvcc through the HIP-on-CUDA
// headers): GPUs from nvidia-smi, compile targets from nvcc. Same interface as the AMD inventory,
// so leasing, environment and sandboxing are shared; the visibility variable there is
// CUDA_VISIBLE_DEVICES (our header set has no HIP runtime to translate HIP_VISIBLE_DEVICES).
#include <filesystem>
#include <string>
#include <vector>

#include "common/process.h"
#include "worker/validate/gpu_inventory.h"

namespace hipforge::validate {

class NvidiaSmiInventory final : public GpuInventory {
 public:
  NvidiaSmiInventory(ProcessLauncher& launcher, std::filesystem::path nvidia_smi = "nvidia-smi",
                     std::filesystem::path nvcc = "nvcc");
  absl::StatusOr<std::vector<GpuDevice>> ListGpus() override;
  absl::StatusOr<std::vector<std::string>> CompileTargets() override;
  std::string ToolchainName() override;
  std::string RuntimeNote() override { return runtime_note_; }

 private:
  ProcessLauncher& launcher_;
  std::filesystem::path nvidia_smi_;
  std::filesystem::path nvcc_;
  std::string runtime_note_;
};

// `nvidia-smi --query-gpu=index,pci.bus_id,name,memory.total,utilization.gpu,temperature.gpu,compute_cap
//  --format=csv,noheader,nounits` -> devices (arch "sm_90" from compute_cap "9.0"; key: lower-case bus id).
std::vector<GpuDevice> ParseNvidiaSmiQuery(const std::string& csv);

}  // namespace hipforge::validate
