#include "worker/validate/job_environment.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace hipforge::validate {

std::string_view VisibilityVariableName(VisibilityVariable variable) {
  switch (variable) {
    case VisibilityVariable::kRocrVisibleDevices: return "ROCR_VISIBLE_DEVICES";
    case VisibilityVariable::kHipVisibleDevices: return "HIP_VISIBLE_DEVICES";
    case VisibilityVariable::kCudaVisibleDevices: return "CUDA_VISIBLE_DEVICES";
  }
  return "ROCR_VISIBLE_DEVICES";
}

const std::vector<std::string>& DeviceVisibilityVariables() {
  static const std::vector<std::string> kNames = {"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                                                  "GPU_DEVICE_ORDINAL"};
  return kNames;
}

JobEnvironment BuildJobEnvironment(const JobEnvironmentInput& input) {
  JobEnvironment env;
  auto& vars = env.variables;

  std::vector<std::string> path;
  for (const auto& dir : input.path_prefix) path.push_back(dir.string());
  for (const char* dir : {"/usr/local/bin", "/usr/bin", "/bin"}) path.push_back(dir);
  vars["PATH"] = absl::StrJoin(path, ":");
  vars["LANG"] = "C.UTF-8";
  if (!input.work_dir.empty()) {
    vars["HOME"] = input.work_dir.string();
    vars["TMPDIR"] = (input.work_dir / "tmp").string();
  }

  // The job's own wishes first; the worker's decisions below override them.
  for (const auto& [name, value] : input.requested) {
    const bool visibility = std::find(DeviceVisibilityVariables().begin(), DeviceVisibilityVariables().end(), name) !=
                            DeviceVisibilityVariables().end();
    if (visibility) {
      env.warnings.push_back(absl::StrCat("ignored ", name, "=", value, ": device visibility is set by the worker"));
      continue;
    }
    if (name == "PATH" || name == "HOME" || name == "TMPDIR") {
      env.warnings.push_back(absl::StrCat("ignored ", name, ": set by the worker"));
      continue;
    }
    if (name == "HSA_OVERRIDE_GFX_VERSION" && input.device != nullptr && input.device->instinct) {
      env.warnings.push_back(absl::StrCat("removed HSA_OVERRIDE_GFX_VERSION=", value, ": not allowed on Instinct GPU ",
                                          input.device->arch, " (the code must be built for the real target)"));
      continue;
    }
    vars[name] = value;
  }

  if (input.device != nullptr) {
    // Ordinal as the runtime below the chosen variable numbers the devices (all visible to the worker).
    vars[std::string(VisibilityVariableName(input.visibility))] = std::to_string(input.device->hip_index);
  } else {
    // Compile-only: hide every GPU so nothing runs on one by accident.
    vars[std::string(VisibilityVariableName(input.visibility))] = "-1";
  }
  if (input.managed_memory) vars["HSA_XNACK"] = "1";
  if (input.serialize_kernels) vars["AMD_SERIALIZE_KERNEL"] = "3";
  return env;
}

}  // namespace hipforge::validate
