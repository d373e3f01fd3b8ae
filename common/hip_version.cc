#include "common/hip_version.h"

#include <regex>

namespace hipforge {

absl::StatusOr<std::string> DetectHipVersion(ProcessLauncher& launcher, const std::filesystem::path& hipcc) {
  ProcessSpec spec;
  spec.argv = {hipcc.string(), "--version"};
  spec.timeout = std::chrono::seconds(60);
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  if (!result.ok()) return absl::NotFoundError(hipcc.string() + ": " + std::string(result.status().message()));
  std::smatch match;
  static const std::regex kVersion(R"(HIP version:\s*(\d+)\.(\d+))");
  if (result->exit_code != 0 || !std::regex_search(result->standard_output, match, kVersion)) {
    return absl::NotFoundError("no HIP version in `" + hipcc.string() + " --version`");
  }
  return match[1].str() + "." + match[2].str();
}

}  // namespace hipforge
