#include "worker/role_set.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/process.h"
#include "spdlog/spdlog.h"

#include "worker/translate_runner.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/gpu_inventory.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"
#include "worker/validate/nvidia_backend/nvidia_inventory.h"
#include "worker/validate/toolchain.h"
#include "worker/validate/validator.h"
#include "worker/validate_runner.h"

namespace hipforge::worker {
namespace {

class RoleSetImpl final : public RoleSet {
 public:
  std::map<v1::TaskRole, TaskRunner*> runners() override {
    std::map<v1::TaskRole, TaskRunner*> result;
    if (translate_) result[v1::TASK_ROLE_TRANSLATE] = translate_.get();
    if (validate_) result[v1::TASK_ROLE_VALIDATE] = validate_.get();
    return result;
  }
  v1::WorkerCapabilities capabilities() override { return capabilities_; }

  std::unique_ptr<TranslateTaskRunner> translate_;
  std::unique_ptr<validate::GpuInventory> inventory_;
  std::unique_ptr<validate::FileLockLeaseManager> leases_;
  std::unique_ptr<validate::Validator> validator_;
  std::unique_ptr<ValidateTaskRunner> validate_;
  v1::WorkerCapabilities capabilities_;
};

}  // namespace

namespace {

// The toolchains this worker has, probed once for both roles.
std::vector<validate::Toolchain> DiscoverToolchains(ProcessLauncher& launcher, const RoleSetOptions& options) {
  validate::LocalToolchainOptions toolchain_options;
  toolchain_options.cache_dir = options.toolchain_dir;
  toolchain_options.host_hipcc = options.hipcc;
  toolchain_options.host_name = options.host_toolchain_name;
  toolchain_options.sandbox = validate::ProbeSandbox(launcher, validate::DefaultBwrap()).ok();
  validate::LocalToolchainSource source(launcher, toolchain_options);
  std::vector<std::string> problems;
  std::vector<validate::Toolchain> toolchains = options.toolchain_dir.empty() && options.hipcc.empty()
                                                    ? std::vector<validate::Toolchain>{}
                                                    : source.Discover(problems);
  for (const std::string& problem : problems) spdlog::warn("toolchains: {}", problem);
  for (const validate::Toolchain& toolchain : toolchains) {
    spdlog::info("toolchain {} ({} archs, libraries: {})", toolchain.Describe(), toolchain.probe.offload_archs.size(),
                 absl::StrJoin(toolchain.probe.libraries, ","));
  }
  return toolchains;
}

// Whether the validate role runs on HIP's NVIDIA platform (RoleSetOptions::gpu_platform).
absl::StatusOr<bool> ValidatesOnNvidia(ProcessLauncher& launcher, const RoleSetOptions& options) {
  if (options.gpu_platform == "nvidia") return true;
  if (options.gpu_platform == "amd") return false;
  if (options.gpu_platform != "auto") {
    return absl::InvalidArgumentError("--gpu-platform must be auto, amd or nvidia, not " + options.gpu_platform);
  }
  validate::HipRocmSmiInventory amd(launcher, options.hipcc);
  if (!validate::DescribeCapabilities(amd).gpus.empty()) return false;
  validate::NvidiaSmiInventory nvidia(launcher);
  absl::StatusOr<std::vector<validate::GpuDevice>> gpus = nvidia.ListGpus();
  return gpus.ok() && !gpus->empty();
}

// The hip-on-cuda toolchain for the GPUs nvidia-smi lists (their sm_XX targets).
absl::StatusOr<validate::Toolchain> NvidiaToolchain(ProcessLauncher& launcher, const RoleSetOptions& options) {
  validate::NvidiaSmiInventory inventory(launcher);
  std::vector<std::string> archs;
  if (absl::StatusOr<std::vector<validate::GpuDevice>> gpus = inventory.ListGpus(); gpus.ok()) {
    for (const validate::GpuDevice& gpu : *gpus) {
      if (std::find(archs.begin(), archs.end(), gpu.arch) == archs.end()) archs.push_back(gpu.arch);
    }
  }
  validate::HipOnCudaToolchainOptions hip_on_cuda;
  // Not under /tmp: sandboxed builds get a private /tmp (bubblewrap --tmpfs), and they must see the toolchain.
  hip_on_cuda.dir = std::filesystem::path("/var/tmp") /
                    ("hipforge-hip-on-cuda-" + std::to_string(::getuid()) + "-" + std::to_string(::getpid()));
  hip_on_cuda.nvcc = options.nvcc;
  hip_on_cuda.archs = archs;
  absl::StatusOr<validate::Toolchain> made = validate::MakeHipOnCudaToolchain(launcher, hip_on_cuda);
  if (made.ok()) {
    spdlog::info("validate role on HIP's NVIDIA platform: {} (targets {})", made->Describe(),
                 absl::StrJoin(made->probe.offload_archs, ","));
  }
  return made;
}

// The validate role: its inventory, toolchains, leases and what it registers.
absl::Status AddValidateRole(RoleSetImpl& set, ProcessLauncher& launcher, const RoleSetOptions& options,
                             const std::vector<validate::Toolchain>& toolchains, bool nvidia) {
  validate::ValidatorOptions validator_options;
  validator_options.hipcc = options.hipcc;
  validator_options.cuda_reference = options.cuda_reference;
  validator_options.gpu_slots = std::max(1, options.gpu_slots);
  validator_options.parallel_jobs = options.build_jobs > 0 ? options.build_jobs : static_cast<int>(UsableCpus());
  // Kernel times measured while other jobs' tests share the GPU would be wrong, not just noisy.
  validator_options.profile = options.profile && validator_options.gpu_slots == 1;
  if (validator_options.gpu_slots > 1) {
    spdlog::info("validate role: up to {} jobs' tests share each GPU; kernel profiles off",
                 validator_options.gpu_slots);
  }
  if (nvidia) {
    set.inventory_ = std::make_unique<validate::NvidiaSmiInventory>(launcher);
    validator_options.visibility = validate::VisibilityVariable::kCudaVisibleDevices;
  } else {
    set.inventory_ = std::make_unique<validate::HipRocmSmiInventory>(launcher, options.hipcc);
  }
  validate::Capabilities caps = validate::DescribeCapabilities(*set.inventory_);
  for (const auto& gpu : caps.gpus) set.capabilities_.add_gpu_archs(gpu.arch);
  set.capabilities_.set_has_gpu(!caps.gpus.empty());
  if (toolchains.empty()) {
    for (const auto& target : caps.compile_targets) set.capabilities_.add_toolchain_targets(target);
    set.capabilities_.set_toolchain(caps.toolchain);
  } else {
    set.capabilities_.set_toolchain(toolchains.front().Describe());
    std::set<std::string> targets;
    for (const validate::Toolchain& toolchain : toolchains) {
      v1::ToolchainCapability* capability = set.capabilities_.add_toolchains();
      capability->set_name(toolchain.name);
      capability->set_hip_version(toolchain.probe.hip_version);
      capability->set_clang_version(toolchain.probe.clang_version);
      for (const auto& arch : toolchain.probe.offload_archs) capability->add_offload_archs(arch);
      for (const auto& library : toolchain.probe.libraries) capability->add_libraries(library);
      for (const auto& arch : validate::ReachableArchs(toolchain.probe.offload_archs))
        capability->add_stand_in_archs(arch);
      targets.insert(toolchain.probe.offload_archs.begin(), toolchain.probe.offload_archs.end());
    }
    for (const auto& target : targets) set.capabilities_.add_toolchain_targets(target);
  }
  std::filesystem::path lock_dir = options.gpu_lock_dir.empty()
                                       ? std::filesystem::temp_directory_path() / "hipforge-gpu-locks"
                                       : options.gpu_lock_dir;
  set.leases_ = std::make_unique<validate::FileLockLeaseManager>(caps.gpus, lock_dir, validator_options.gpu_slots);
  validator_options.toolchains = toolchains;
  set.validator_ = std::make_unique<validate::Validator>(launcher, *set.inventory_, *set.leases_, validator_options);
  set.validate_ = std::make_unique<ValidateTaskRunner>(*set.validator_);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::TaskRole> ParseRole(std::string_view name) {
  if (name == "translate") return v1::TASK_ROLE_TRANSLATE;
  if (name == "validate") return v1::TASK_ROLE_VALIDATE;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown role '", std::string(name), "' (expected translate or validate)"));
}

RoleSetOptions RoleSetOptionsFromEnvironment() {
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && std::string_view(value) == "1";
  };
  RoleSetOptions options;
  options.cuda_reference = !set("MIGRATE_NO_CUDA_REFERENCE");
  options.profile = !set("MIGRATE_NO_PROFILE");
  if (const char* jobs = std::getenv("MIGRATE_BUILD_JOBS"); jobs != nullptr) {
    int value = 0;
    if (absl::SimpleAtoi(jobs, &value) && value >= 0) options.build_jobs = value;
  }
  if (const char* jobs = std::getenv("MIGRATE_TRANSLATE_JOBS"); jobs != nullptr) {
    int value = 0;
    if (absl::SimpleAtoi(jobs, &value) && value >= 0) options.translate_jobs = value;
  }
  if (const char* slots = std::getenv("MIGRATE_GPU_SLOTS"); slots != nullptr) {
    int value = 0;
    if (absl::SimpleAtoi(slots, &value) && value >= 1) options.gpu_slots = value;
  }
  return options;
}

absl::StatusOr<std::unique_ptr<RoleSet>> MakeRoleSet(const std::vector<v1::TaskRole>& roles, ProcessLauncher& launcher,
                                                     const RoleSetOptions& options) {
  auto set = std::make_unique<RoleSetImpl>();
  std::vector<validate::Toolchain> toolchains = DiscoverToolchains(launcher, options);
  // An NVIDIA validate pool builds with its hip-on-cuda toolchain only, and the translate role beside it targets
  // the HIP release that toolchain stands for.
  bool nvidia = false;
  if (std::find(roles.begin(), roles.end(), v1::TASK_ROLE_VALIDATE) != roles.end()) {
    absl::StatusOr<bool> on_nvidia = ValidatesOnNvidia(launcher, options);
    if (!on_nvidia.ok()) return on_nvidia.status();
    nvidia = *on_nvidia;
  }
  if (nvidia) {
    absl::StatusOr<validate::Toolchain> made = NvidiaToolchain(launcher, options);
    if (!made.ok()) return made.status();
    toolchains = {*made};
  }
  const std::string newest_release = toolchains.empty() ? "" : toolchains.front().HipRelease();
  const std::string newest = toolchains.empty() ? "" : toolchains.front().Describe();
  for (v1::TaskRole role : roles) {
    if (role == v1::TASK_ROLE_TRANSLATE) {
      std::string hip_version = options.default_hip_version;
      if (hip_version == "auto" && !newest_release.empty()) {
        // The newest toolchain is the one validation builds with when a job names no HIP release.
        hip_version = newest_release;
        spdlog::info("translate role: jobs without a HIP version target HIP {} ({})", hip_version, newest);
      } else if (hip_version == "auto") {
        absl::StatusOr<std::string> detected = DetectHipVersion(launcher, options.hipcc);
        hip_version = detected.ok() ? *detected : "";
        spdlog::info("translate role: jobs without a HIP version target {}",
                     detected.ok() ? "HIP " + hip_version + " (" + options.hipcc.string() + ")"
                                   : "the translator's default (" + std::string(detected.status().message()) + ")");
      }
      const unsigned jobs = options.translate_jobs > 0 ? options.translate_jobs : UsableCpus();
      set->translate_ = std::make_unique<TranslateTaskRunner>(
          launcher, TranslateRunnerOptions{
                        .default_hip_version = hip_version, .pch_cache_bytes = options.pch_cache_bytes, .jobs = jobs});
    } else if (role == v1::TASK_ROLE_VALIDATE) {
      if (absl::Status status = AddValidateRole(*set, launcher, options, toolchains, nvidia); !status.ok()) {
        return status;
      }
    } else {
      return absl::InvalidArgumentError("unspecified role");
    }
  }
  return set;
}

}  // namespace hipforge::worker
