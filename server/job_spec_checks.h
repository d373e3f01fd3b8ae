#pragma once
// Checks on a job spec's text fields before anything of a Submit is stored (see SpecLimits).
#include "absl/status/status.h"
#include "server/service_limits.h"
#include "server/store/job_store.h"

namespace hipforge::server {

// InvalidArgument when a field is over its SpecLimits bound, not UTF-8, or holds a control
// character (NUL included: the driver would cut the text there).
absl::Status CheckJobSpec(const JobSpec& spec, const SpecLimits& limits);
// An AMD target (gfx90a, gfx942) or an NVIDIA compute capability for HIP's NVIDIA platform (sm_90).
bool IsTargetName(const std::string& target);

}  // namespace hipforge::server
