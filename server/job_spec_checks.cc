#include "server/job_spec_checks.h"

#include <regex>

#include <algorithm>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "server/store/gate_definition.h"

namespace hipforge::server {
namespace {

// Text that goes into indexed columns, logs and reports: bounded, UTF-8, no control characters.
absl::Status CheckSpecText(absl::string_view field, absl::string_view value, size_t max_bytes) {
  if (value.size() > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("job ", field, " is ", value.size(), " bytes long; at most ", max_bytes, " are allowed"));
  }
  if (!IsValidUtf8(std::string_view(value.data(), value.size())))
    return absl::InvalidArgumentError(absl::StrCat("job ", field, " is not valid UTF-8"));
  for (char c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(absl::StrCat(
          "job ", field, " contains a control character (",
          c == '\0' ? "NUL" : absl::StrCat("0x", absl::Hex(static_cast<int>(static_cast<unsigned char>(c)))),
          "): ", EscapeForMessage(std::string_view(value.data(), std::min<size_t>(value.size(), 80)))));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool IsTargetName(const std::string& target) {
  // sm_90:wave64: HIP's NVIDIA platform with AMD's 64-wide wavefront emulated (docs/wave64.md).
  static const std::regex kArch("gfx[0-9a-f]{3,5}|sm_[0-9]{2,3}[af]?(:wave64)?");
  return std::regex_match(target, kArch);
}

absl::Status CheckJobSpec(const JobSpec& spec, const SpecLimits& limits) {
  if (absl::Status status = CheckSpecText("name", spec.name, limits.max_name_bytes); !status.ok()) return status;
  if (absl::Status status = CheckSpecText("team", spec.team, limits.max_team_bytes); !status.ok()) return status;
  if (spec.labels.size() > limits.max_labels) {
    return absl::InvalidArgumentError(
        absl::StrCat("job has ", spec.labels.size(), " labels; at most ", limits.max_labels, " are allowed"));
  }
  if (spec.labels.count(kGateLabel) > 0) {
    return absl::InvalidArgumentError(absl::StrCat("label ", kGateLabel,
                                                   " is reserved: the server sets it from the "
                                                   "repository's hipforge.yaml (gate: [builds, findings])"));
  }
  for (const auto& [key, value] : spec.labels) {
    if (absl::Status status = CheckSpecText(absl::StrCat("label ", EscapeForMessage(key.substr(0, 64))), value,
                                            limits.max_label_value_bytes);
        !status.ok()) {
      return status;
    }
  }
  if (spec.targets.size() > limits.max_targets) {
    return absl::InvalidArgumentError(
        absl::StrCat("job names ", spec.targets.size(), " targets; at most ", limits.max_targets, " are allowed"));
  }
  // Printed in logs and kept in an index: short, and nothing that needs quoting.
  static const std::regex kRequestId("[A-Za-z0-9._:-]{1,128}");
  if (!spec.request_id.empty() && !std::regex_match(spec.request_id, kRequestId)) {
    return absl::InvalidArgumentError(absl::StrCat("submit request id must be 1-128 of [A-Za-z0-9._:-], got '",
                                                   EscapeForMessage(spec.request_id.substr(0, 80)), "'"));
  }
  if (spec.options_json.size() > limits.max_options_json_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("job options are ", spec.options_json.size(), " bytes; at most ",
                                                   limits.max_options_json_bytes, " are allowed"));
  }
  return absl::OkStatus();
}

}  // namespace hipforge::server
