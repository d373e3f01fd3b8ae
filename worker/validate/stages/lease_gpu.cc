// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::LeaseGpu(State& state) {
  auto gpus = inventory_.ListGpus();
  const bool have_gpus = gpus.ok() && !gpus->empty();
  GpuSection& gpu = state.report.gpu;
  if (!have_gpus) {
    const std::string why = inventory_.RuntimeNote();
    gpu.note = why.empty() ? kNoGpuNote : absl::StrCat(kNoGpuNote, " (", why, ")");
  } else if (state.built_archs.empty()) {
    gpu.note = "not run on a GPU: no build succeeded";
  } else {
    // A GPU of the target's processor runs it: sm_90:wave64 is a build mode of sm_90, gfx90a:xnack+ a gfx90a.
    // Matched whole, a wave64-only job found "no GPU on this worker has arch sm_90:wave64" (ggml, 2026-12-07).
    std::vector<std::string> processors;
    for (const std::string& arch : state.built_archs) {
      if (!absl::c_linear_search(processors, TargetProcessor(arch))) processors.push_back(TargetProcessor(arch));
    }
    auto acquired = leases_.Acquire(state.request.job_id, processors, options_.lease_wait);
    if (!acquired.ok()) {
      gpu.note = absl::StrCat("not run on a GPU: ", acquired.status().message());
    } else {
      state.lease = std::move(*acquired);
      gpu.ran_on_gpu = true;
      gpu.device_key = state.lease->device().key;
      gpu.device_arch = state.lease->device().arch;
      gpu.note = absl::StrCat("ran on ", state.lease->device().name, " ", state.lease->device().key);
      if (options_.gpu_slots > 1) {
        absl::StrAppend(&gpu.note, " (shared: up to ", options_.gpu_slots, " jobs' tests at once on this GPU, slot ",
                        state.lease->slot() + 1, "; no kernel profiles)");
      }
      if (absl::StartsWith(state.lease->device().arch, "sm_")) {
        // What an NVIDIA run proves, and what it does not (docs/validation.md, "NVIDIA validate pool"), per build
        // mode run on it: a wave64-only job's note said "warpSize 32" (ggml, 2026-12-07).
        std::vector<std::string> modes;
        for (const std::string& arch : state.built_archs) {
          if (TargetProcessor(arch) != state.lease->device().arch) continue;
          modes.push_back(absl::StrContains(arch, ":wave64")
                              ? absl::StrCat(arch, ", warpSize 64: CDNA's wavefront emulated")
                              : absl::StrCat(arch, ", warpSize 32"));
        }
        if (modes.empty()) modes.push_back(absl::StrCat(state.lease->device().arch, ", warpSize 32"));
        absl::StrAppend(&gpu.note, ": behaviour checked on HIP's NVIDIA platform (", absl::StrJoin(modes, "; "),
                        "); not on AMD hardware");
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace hipforge::validate
