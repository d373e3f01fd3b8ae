#pragma once
// The JSON of a report as GetReport sent it (the one conversion, then the one serializer): what `migrate-cli report
// --format json` prints, for tests that look at the answer's fields by their JSON names.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/report/report_proto.h"

namespace hipforge::report::testing {

inline nlohmann::json WireJson(const v1::ReportDocument& sent) {
  absl::StatusOr<ReportDocument> document = FromProto(sent);
  if (!document.ok()) {
    ADD_FAILURE() << "the report sent does not convert: " << document.status();
    return nlohmann::json::object();
  }
  return document->json;
}

}  // namespace hipforge::report::testing
