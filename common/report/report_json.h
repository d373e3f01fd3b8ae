#pragma once
// The one serializer and parser of the report (report.h <-> JSON, docs/report-schema.json). Everything that
// writes or reads report JSON goes through these: workers, server store and summaries, CLI renderers.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "common/report/report.h"

namespace hipforge::report {

nlohmann::json ToJson(const Report& report);
// Unknown fields are ignored (additions are compatible); a known field of the wrong type, an unknown enum
// name or a section of the wrong shape is InvalidArgument naming the JSON path.
absl::StatusOr<Report> ReportFromJson(const nlohmann::json& json);
absl::StatusOr<Report> ParseReport(std::string_view text);

// Single sections, for consumers that hold only one.
nlohmann::json FindingToJson(const Finding& finding);
nlohmann::json FindingsToJson(const std::vector<Finding>& findings);
nlohmann::json EffortToJson(const EffortSection& effort);
nlohmann::json FileEntryToJson(const FileEntry& file);

nlohmann::json ToJson(const ValidateHints& hints);
ValidateHints ValidateHintsFromJson(const nlohmann::json& json);  // absent or malformed fields: defaults

}  // namespace hipforge::report
