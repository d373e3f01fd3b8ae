#pragma once
// A migration gate definition: the conditions a team or a repository requires before the gate says `passed`
// (issue 26). The gate itself is computed in SQL (job_summary, migration 0012), which knows the same five names;
// this is the one place C++ checks them (hipforge.yaml's `gate:` at submit, `migrate-server gate set`).
#include <array>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::server {

// In the order job_summary lists them; a parsed definition keeps this order whatever order it was written in.
//   builds    every requested target built          tests     no test failed (and one passed, with parity)
//   parity    every case matched                    findings  no open error finding
//   warnings  no open warning finding (severity 'warning': "may compute wrong" in the rule catalog)
inline constexpr std::array<const char*, 5> kGateConditions = {"builds", "tests", "parity", "findings", "warnings"};

// The reserved job label carrying a repository's definition ("builds,findings"), set at submit from
// hipforge.yaml; job_summary reads it by this name.
inline constexpr char kGateLabel[] = "hipforge.gate";

// Checks condition names (surrounding blanks ignored, duplicates dropped): InvalidArgument naming an unknown one,
// or for an empty list (a gate requiring nothing would pass every job). `where` prefixes the message.
absl::StatusOr<std::vector<std::string>> ParseGateConditions(const std::vector<std::string>& names,
                                                             const std::string& where);
// The same for "builds, findings" (the label's and the admin command's form).
absl::StatusOr<std::vector<std::string>> ParseGateConditionList(const std::string& comma_separated,
                                                                const std::string& where);

}  // namespace hipforge::server
