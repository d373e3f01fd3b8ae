#pragma once
// Switches any binary takes from the environment, as the PCH cache size is (operators, bench/ggml).
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace hipforge::translate {

// TranslateOptions::skip_covered_units ("1" on, "0" off).
inline constexpr const char* kSkipCoveredUnitsVariable = "HIPFORGE_SKIP_COVERED_UNITS";
// AnalyzeOptions::skip_repeated_device_parses ("0" off).
inline constexpr const char* kSkipRepeatedDeviceParsesVariable = "HIPFORGE_SKIP_REPEATED_DEVICE_PARSES";
// AnalyzeOptions::device_prelude_pch ("0" off).
inline constexpr const char* kDevicePreludePchVariable = "HIPFORGE_DEVICE_PRELUDE_PCH";

// `name` as a switch: "0" false, "1" true, unset or empty nullopt, anything else an error.
inline absl::StatusOr<std::optional<bool>> EnvironmentSwitch(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return std::optional<bool>();
  if (std::string_view(value) != "0" && std::string_view(value) != "1") {
    return absl::InvalidArgumentError(std::string(name) + ": expected 0 or 1, not " + value);
  }
  return std::optional<bool>(std::string_view(value) == "1");
}

}  // namespace hipforge::translate
