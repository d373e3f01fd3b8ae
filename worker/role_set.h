#pragma once
// Builds the runners (and what they need) for a set of roles, so migrate-worker and the server's
// --local-workers run exactly the same code.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "common/hip_version.h"  // DetectHipVersion, shared with migrate-cli
#include "common/process.h"
#include "hipforge/v1/worker_service.pb.h"
#include "worker/task_runner.h"

namespace hipforge::worker {

struct RoleSetOptions {
  std::filesystem::path hipcc = "hipcc";  // validate role; translate role: its HIP version (below)
  // Translate role: HIP release to translate for when a job names none. "auto": the version of
  // `hipcc` above when it runs here (else the translator's default); empty: the translator's default.
  std::string default_hip_version = "auto";
  std::filesystem::path gpu_lock_dir;  // validate role; empty: <tmp>/hipforge-gpu-locks
  // Toolchain root filesystems made by scripts/make-toolchain.sh (validate role builds in them; the
  // translate role's "auto" HIP version is the newest one's). Empty: only the host's `hipcc`.
  std::filesystem::path toolchain_dir = "/var/cache/hipforge/toolchains";
  std::string host_toolchain_name = "host";  // how reports name the `hipcc` above
  // Translate role: the PCH cache's size cap in bytes (0: unbounded); unset: the translator's default.
  std::optional<uint64_t> pch_cache_bytes;
  // Validate role: which GPUs this worker validates on. "amd": ROCm (HIP runtime, rocm-smi, toolchains);
  // "nvidia": HIP's NVIDIA platform (nvidia-smi, nvcc with the HIP-on-CUDA header set, target sm_XX, leases
  // through CUDA_VISIBLE_DEVICES); "auto": nvidia when nvidia-smi lists GPUs and no AMD GPU is found.
  std::string gpu_platform = "auto";
  std::filesystem::path nvcc;  // nvidia platform; empty: PATH, then /usr/local/cuda/bin/nvcc
  // nvidia platform: also build the submitted CUDA tree and run the same tests (the automatic CUDA reference).
  bool cuda_reference = true;
  bool profile = true;  // kernel profiles of the validate role (--no-profile)
  // Validate role: how many jobs' tests may run on one GPU at once (--gpu-slots, env MIGRATE_GPU_SLOTS). 1: a GPU
  // is leased to one job (the default; needed for kernel profiles, which more than 1 turns off).
  int gpu_slots = 1;
  // Validate role: parallel compile jobs of a build (make -j / ninja -j; --build-jobs, env MIGRATE_BUILD_JOBS).
  // 0: the CPUs this process may use -- a 16-core GPU host built ggml's 186 CUDA units two at a time before.
  int build_jobs = 0;
  // Translate role: threads of a task's Clang parses (--translate-jobs, env MIGRATE_TRANSLATE_JOBS). 0: the CPUs this
  // process may use -- at 1, ggml took 315 s on the 16-core GPU host where `migrate-cli translate` took 34 s.
  int translate_jobs = 0;
};

class RoleSet {
 public:
  virtual ~RoleSet() = default;
  virtual std::map<v1::TaskRole, TaskRunner*> runners() = 0;
  virtual v1::WorkerCapabilities capabilities() = 0;
};

// Unimplemented when a role's library was not built into this binary.
// Default options with the validate role's switches as the environment sets them (MIGRATE_NO_CUDA_REFERENCE=1,
// MIGRATE_NO_PROFILE=1): migrate-worker's flag defaults and migrate-server's local workers both start from it.
RoleSetOptions RoleSetOptionsFromEnvironment();

absl::StatusOr<std::unique_ptr<RoleSet>> MakeRoleSet(const std::vector<v1::TaskRole>& roles, ProcessLauncher& launcher,
                                                     const RoleSetOptions& options);

// "translate" / "validate" -> role; InvalidArgument otherwise.
absl::StatusOr<v1::TaskRole> ParseRole(std::string_view name);

}  // namespace hipforge::worker
