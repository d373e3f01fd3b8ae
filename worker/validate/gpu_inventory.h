#pragma once
// What GPUs and compile targets this worker has. The HIP runtime and rocm-smi are loaded with dlopen
// so a worker without GPU/driver still starts and advertises compile-only.
#include <cstdint>
#include <string>
#include <vector>

#include <filesystem>

#include "absl/status/statusor.h"
#include "common/process.h"

namespace hipforge::validate {

struct GpuDevice {
  int hip_index = -1;     // ordinal as the HIP runtime numbers it
  std::string key;        // stable key: PCI BDF "0000:c1:00.0" (or unique id)
  std::string arch;       // gcnArchName without feature suffix, e.g. "gfx90a"
  std::string arch_full;  // e.g. "gfx90a:sramecc+:xnack-"
  std::string name;       // marketing name
  int64_t memory_bytes = 0;
  int busy_percent = -1;  // -1 when rocm-smi cannot tell
  double temperature_c = -1;
  std::string render_node;  // /dev/dri/renderD128 when known
  bool instinct = false;    // MI-series (gfx90a, gfx94x, gfx908...) HSA_OVERRIDE_GFX_VERSION is refused
};

struct Capabilities {
  std::vector<GpuDevice> gpus;
  std::vector<std::string> compile_targets;  // offload archs the toolchain accepts
  std::string toolchain;
  bool compile_only() const { return gpus.empty(); }
  std::string runtime_note;  // why no GPU (no libamdhip64, no /dev/kfd, hipGetDeviceCount error...)
};

class GpuInventory {
 public:
  virtual ~GpuInventory() = default;
  virtual absl::StatusOr<std::vector<GpuDevice>> ListGpus() = 0;
  virtual absl::StatusOr<std::vector<std::string>> CompileTargets() = 0;
  virtual std::string ToolchainName() = 0;
  virtual std::string RuntimeNote() = 0;  // empty when the runtime answered
};

// HIP runtime (libamdhip64) + rocm-smi (librocm_smi64) through dlopen; compile targets by asking
// the toolchain's clang which offload archs it accepts.
class HipRocmSmiInventory final : public GpuInventory {
 public:
  HipRocmSmiInventory(ProcessLauncher& launcher, std::filesystem::path hipcc);
  absl::StatusOr<std::vector<GpuDevice>> ListGpus() override;
  absl::StatusOr<std::vector<std::string>> CompileTargets() override;
  std::string ToolchainName() override;
  std::string RuntimeNote() override;

 private:
  ProcessLauncher& launcher_;
  std::filesystem::path hipcc_;
  std::string runtime_note_;
};

// Builds the capability summary the worker advertises to the server.
Capabilities DescribeCapabilities(GpuInventory& inventory);

// True for Instinct (data-centre) archs, where HSA_OVERRIDE_GFX_VERSION must not be used.
bool IsInstinctArch(const std::string& arch);

}  // namespace hipforge::validate
