#include "server/store/gate_definition.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace hipforge::server {

absl::StatusOr<std::vector<std::string>> ParseGateConditions(const std::vector<std::string>& names,
                                                             const std::string& where) {
  std::array<bool, kGateConditions.size()> wanted{};
  for (const std::string& written : names) {
    const std::string name(absl::StripAsciiWhitespace(written));
    const auto known = std::find_if(kGateConditions.begin(), kGateConditions.end(),
                                    [&](const char* condition) { return name == condition; });
    if (known == kGateConditions.end()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": unknown gate condition '", name,
                                                     "' (conditions: ", absl::StrJoin(kGateConditions, ", "), ")"));
    }
    wanted[known - kGateConditions.begin()] = true;
  }
  std::vector<std::string> conditions;
  for (size_t i = 0; i < kGateConditions.size(); ++i) {
    if (wanted[i]) conditions.emplace_back(kGateConditions[i]);
  }
  if (conditions.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": a gate must require at least one condition (",
                                                   absl::StrJoin(kGateConditions, ", "), ")"));
  }
  return conditions;
}

absl::StatusOr<std::vector<std::string>> ParseGateConditionList(const std::string& comma_separated,
                                                                const std::string& where) {
  const std::vector<std::string> names = absl::StrSplit(comma_separated, ',', absl::SkipWhitespace());
  return ParseGateConditions(names, where);
}

}  // namespace hipforge::server
