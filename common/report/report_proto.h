#pragma once
// The report on the wire (proto/hipforge/v1/report.proto) <-> the typed report (report.h) and the gate the server
// adds (report_render.h): the one conversion. Workers send ToProto(report) in CompleteHeader; the server reads it
// with FromProto, answers GetReport with ToProto(report, gate), and migrate-cli reads that with FromProto. The
// proto is field for field docs/report-schema.json (scripts/check-report-schema.py).
#include <optional>

#include "absl/status/statusor.h"
#include "common/report/report.h"
#include "common/report/report_render.h"
#include "hipforge/v1/report.pb.h"

namespace hipforge::report {

v1::ReportDocument ToProto(const Report& report, const std::optional<Gate>& gate = std::nullopt);
// An enum value this build does not know is InvalidArgument naming the field ("report $.findings[2].severity has
// the unknown value 7"), as the JSON parser says it; an unspecified one is the field's default, as absent in JSON.
// The document's `json` is what DocumentJson makes of it (what `--format json` prints).
absl::StatusOr<ReportDocument> FromProto(const v1::ReportDocument& proto);

}  // namespace hipforge::report
