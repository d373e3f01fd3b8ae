#pragma once
// Test helper: checks a produced report against docs/report-schema.json with scripts/check-report-schema.py
// (python3-jsonschema). Every test that produces a report through a real producer calls it.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hipforge::testing {

// Success, or a failure listing each schema violation with its JSON path.
::testing::AssertionResult MatchesReportSchema(const nlohmann::json& report);

}  // namespace hipforge::testing
