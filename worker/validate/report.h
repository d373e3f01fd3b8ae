#pragma once
// The builds/tests/parity/profile/gpu sections of the report, as the validator fills them. The types are the
// typed report's (common/report/report.h, docs/report.md); these names keep the validator's vocabulary.
#include <nlohmann/json_fwd.hpp>

#include "common/report/report.h"

namespace hipforge::validate {

using report::BuildError;
using report::BuildResult;
using report::GpuSection;
using report::KernelProfile;
using report::KernelResources;
using report::ParityResult;
using report::ParityVerdict;
using report::ReferenceRun;
using report::TestResult;
using report::TestStatus;

using report::ParityVerdictName;
using report::TestStatusName;

struct ValidationReport {
  std::vector<BuildResult> builds;
  std::vector<TestResult> tests;
  std::vector<ParityResult> parity;
  std::vector<KernelProfile> profile;
  GpuSection gpu;
};

// The validate role's sections of the typed report (all five present).
report::Report ToReport(const ValidationReport& validation);
// report::ToJson(ToReport(report)): {"builds": [...], "tests": [...], "parity": [...], "profile": [...], "gpu": {...}}.
nlohmann::json ToJson(const ValidationReport& report);

}  // namespace hipforge::validate
