// hipforge-lease-probe: one validate "job" on an NVIDIA worker, for proving lease isolation on real
// GPUs: list GPUs (nvidia-smi), lease one through FileLockLeaseManager (lock files shared by every
// probe on the host), build the job environment (CUDA_VISIBLE_DEVICES = the leased GPU, all other
// visibility variables cleared, nothing inherited), run the child in bubblewrap when available with
// only that GPU's device nodes, and print one JSON line with timestamps and what the child saw.
//   hipforge-lease-probe JOB_ID LOCK_DIR WORK_DIR [--hide-index N] -- CHILD ARGS...
#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "common/process.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/nvidia_backend/nvidia_inventory.h"

namespace fs = std::filesystem;
using namespace hipforge;
using namespace hipforge::validate;

namespace {
double Now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: hipforge-lease-probe JOB_ID LOCK_DIR WORK_DIR [--hide-index N] -- CHILD...\n";
    return 2;
  }
  const std::string job = argv[1];
  const fs::path lock_dir = argv[2], work_dir = argv[3];
  int hide_index = -1;
  int i = 4;
  if (std::string(argv[i]) == "--hide-index") {
    hide_index = std::stoi(argv[i + 1]);
    i += 2;
  }
  if (std::string(argv[i]) != "--") return 2;
  std::vector<std::string> child(argv + i + 1, argv + argc);

  nlohmann::json out = {{"job", job}, {"start", Now()}};
  BoostProcessLauncher launcher;
  NvidiaSmiInventory inventory(launcher);
  auto gpus = inventory.ListGpus();
  if (!gpus.ok() || gpus->empty()) {
    out["error"] = "no GPU: " + inventory.RuntimeNote();
    std::cout << out.dump() << std::endl;
    return 1;
  }
  out["gpus_on_host"] = gpus->size();
  FileLockLeaseManager leases(*gpus, lock_dir);
  auto lease = leases.Acquire(job, {}, std::chrono::minutes(2));
  out["lease_acquired"] = Now();
  if (!lease.ok()) {
    out["error"] = std::string(lease.status().message());
    std::cout << out.dump() << std::endl;
    return 1;
  }
  GpuDevice device = (*lease)->device();
  out["leased_key"] = device.key;
  out["leased_index"] = device.hip_index;
  if (hide_index >= 0) device.hip_index = hide_index;  // negative check: point the variable elsewhere

  fs::create_directories(work_dir);
  JobEnvironment env = BuildJobEnvironment(
      {.device = &device, .visibility = VisibilityVariable::kCudaVisibleDevices, .work_dir = work_dir});
  ExecutionContext context{.environment = env.variables};
  const fs::path bwrap = FindProgram("bwrap");
  if (!bwrap.empty() && ProbeSandbox(launcher, bwrap).ok()) {
    context.bwrap = bwrap;
    context.sandbox = SandboxSpec{
        .work_dir = work_dir, .devices = NvidiaDeviceNodes((*lease)->device().hip_index), .expose_sysfs = true};
    out["sandbox"] = "bwrap";
  } else {
    out["sandbox"] = "none (bwrap not available here)";
  }
  out["visibility_env"] = {{"CUDA_VISIBLE_DEVICES", env.variables.count("CUDA_VISIBLE_DEVICES")
                                                        ? env.variables["CUDA_VISIBLE_DEVICES"]
                                                        : "(unset)"}};
  auto result = launcher.Run(PrepareCommand(context, child, work_dir, std::chrono::minutes(2)));
  out["child_end"] = Now();
  if (result.ok()) {
    out["child_exit"] = result->exit_code;
    out["child_stdout"] = result->standard_output;
    out["child_stderr"] = result->standard_error.substr(0, 2000);
  } else {
    out["child_error"] = std::string(result.status().message());
  }
  lease->reset();
  out["released"] = Now();
  std::cout << out.dump() << std::endl;
  return 0;
}
