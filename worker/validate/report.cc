#include "worker/validate/report.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace hipforge::validate {

const char* TestStatusName(TestStatus status) {
  switch (status) {
    case TestStatus::kPassed: return "passed";
    case TestStatus::kFailed: return "failed";
    case TestStatus::kTimedOut: return "timed_out";
    case TestStatus::kNotRun: return "not_run";
  }
  return "not_run";
}

const char* ParityVerdictName(ParityVerdict verdict) {
  switch (verdict) {
    case ParityVerdict::kMatch: return "match";
    case ParityVerdict::kMismatch: return "mismatch";
    case ParityVerdict::kMissing: return "missing";
  }
  return "missing";
}

namespace {

// JSON has no NaN/Inf; an error of infinity (NaN where the reference had a number) becomes null.
nlohmann::json FiniteOrNull(double value) {
  if (std::isfinite(value)) return value;
  return nullptr;
}

nlohmann::json BuildJson(const BuildResult& build) {
  nlohmann::json errors = nlohmann::json::array();
  for (const BuildError& error : build.errors) {
    errors.push_back({{"path", error.path}, {"line", error.line}, {"message", error.message}});
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelResources& k : build.kernels) {
    kernels.push_back({{"name", k.name},
                       {"vgprs", k.vgprs},
                       {"sgprs", k.sgprs},
                       {"agprs", k.agprs},
                       {"scratch_bytes", k.scratch_bytes},
                       {"occupancy", k.occupancy},
                       {"spills", k.spills},
                       {"lds_bytes", k.lds_bytes}});
  }
  nlohmann::json out = {{"requested_arch", build.requested_arch},
                        {"arch", build.arch},
                        {"toolchain", build.toolchain},
                        {"ok", build.ok},
                        {"duration_ms", build.duration_ms},
                        {"errors", std::move(errors)},
                        {"kernels", std::move(kernels)}};
  if (!build.note.empty()) out["note"] = build.note;
  if (!build.log_excerpt.empty()) out["log_excerpt"] = build.log_excerpt;
  return out;
}

}  // namespace

nlohmann::json ToJson(const ValidationReport& report) {
  nlohmann::json builds = nlohmann::json::array();
  for (const BuildResult& build : report.builds) builds.push_back(BuildJson(build));

  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& test : report.tests) {
    tests.push_back({{"name", test.name},
                     {"arch", test.arch},
                     {"status", TestStatusName(test.status)},
                     {"duration_ms", test.duration_ms},
                     {"output_excerpt", test.output_excerpt}});
  }

  nlohmann::json parity = nlohmann::json::array();
  for (const ParityResult& p : report.parity) {
    nlohmann::json entry = {{"case", p.case_name},
                            {"verdict", ParityVerdictName(p.verdict)},
                            {"max_abs_error", FiniteOrNull(p.max_abs_error)},
                            {"max_rel_error", FiniteOrNull(p.max_rel_error)},
                            {"mismatches", p.mismatches},
                            {"elements", p.elements}};
    if (!p.detail.empty()) entry["detail"] = p.detail;
    parity.push_back(std::move(entry));
  }

  nlohmann::json profile = nlohmann::json::array();
  for (const KernelProfile& k : report.profile) {
    nlohmann::json entry = {{"kernel", k.kernel}, {"calls", k.calls}, {"total_ns", k.total_ns}};
    entry["cuda_baseline_ns"] = k.cuda_baseline_ns ? nlohmann::json(*k.cuda_baseline_ns) : nlohmann::json(nullptr);
    profile.push_back(std::move(entry));
  }

  nlohmann::json gpu = {{"ran_on_gpu", report.gpu.ran_on_gpu}, {"note", report.gpu.note}};
  if (!report.gpu.device_key.empty()) gpu["device_key"] = report.gpu.device_key;
  if (!report.gpu.device_arch.empty()) gpu["device_arch"] = report.gpu.device_arch;
  if (!report.gpu.warnings.empty()) gpu["warnings"] = report.gpu.warnings;

  return {{"builds", std::move(builds)},
          {"tests", std::move(tests)},
          {"parity", std::move(parity)},
          {"profile", std::move(profile)},
          {"gpu", std::move(gpu)}};
}

}  // namespace hipforge::validate
