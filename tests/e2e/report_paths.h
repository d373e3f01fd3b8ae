#pragma once
// The paths a job's report lists (translation.files), each as often as listed: a completion applied twice, or two
// attempts both recorded, would list a file twice.
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "hipforge/v1/migration_service.pb.h"
#include "tests/common/report_wire.h"

namespace hipforge::testing {

inline std::multiset<std::string> ReportedPaths(const v1::Report& report) {
  std::multiset<std::string> paths;
  const nlohmann::json json = hipforge::report::testing::WireJson(report.document());
  for (const auto& file : json["translation"]["files"]) paths.insert(file["path"].get<std::string>());
  return paths;
}

inline bool NoPathTwice(const std::multiset<std::string>& paths) {
  return std::set<std::string>(paths.begin(), paths.end()).size() == paths.size();
}

}  // namespace hipforge::testing
