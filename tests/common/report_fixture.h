#pragma once
// A report with every section filled (report_test.cc, report_proto_test.cc), most fields away from their
// defaults, so a serializer or conversion that drops one shows.
#include <cmath>
#include <string_view>

#include <gtest/gtest.h>

#include "common/report/report.h"
#include "common/report/report_json.h"

namespace hipforge::report::testing {

// A report written as JSON in a test, typed as a worker sends it (a test's JSON that does not parse fails it).
inline Report ReportOf(std::string_view json) {
  absl::StatusOr<Report> report = ParseReport(json);
  if (!report.ok()) {
    ADD_FAILURE() << "test report does not parse: " << report.status();
    return {};
  }
  return *std::move(report);
}

inline Report FullReport() {
  Report report;
  report.job_id = "job-1";
  TranslationSection& translation = report.translation.emplace();
  translation.files = {
      {.path = "src/a.hip",
       .source_path = "src/a.cu",
       .kind = "cuda-source",
       .translated_as_cuda = true,
       .status = FileStatus::kTranslated,
       .converted = {{"function", 3}, {"type", 1}},
       .lines_changed = 5,
       .changed_by = {"runtime", "HB102"}},
      {.path = "src/b.cuh",
       .kind = "header",
       .translated_as_cuda = true,
       .status = FileStatus::kFallback,
       .fallback_reason = "parse error",
       .unconverted = 2,
       .lines_changed = 1},
      {.path = "include/plain.h", .kind = "header", .translated_as_cuda = true, .status = FileStatus::kUnchanged},
      {.path = "CMakeLists.txt",
       .kind = "cmake",
       .status = FileStatus::kTranslated,
       .lines_changed = 2,
       .changed_by = {"cmake"},
       .left_for_person = {"check the HIP architectures"}},
  };
  translation.totals = ComputeTotals(translation.files);
  translation.notes = {"a pass-level note"};
  report.findings = std::vector<Finding>{
      {.rule_id = "HB503",
       .severity = Severity::kError,
       .path = "run.sh",
       .line = 2,
       .column = 1,
       .message = "nvidia-smi",
       .fix = "amd-smi",
       .auto_fixed = true},
      {.rule_id = "HB402", .severity = Severity::kWarning, .path = "src/a.cu", .line = 9, .message = "pageable"},
      {.rule_id = "HB101",
       .severity = Severity::kWarning,
       .path = "src/a.cu",
       .line = 12,
       .message = "warp 32",
       .fix = "use warpSize",
       .fixable = true},
  };
  report.effort =
      EffortSection{.engineer_hours = 1.35,
                    .automatic_share = 0.9,
                    .by_severity = {{"warning", 2}},
                    .files = {{.path = "src/a.cu", .engineer_hours = 1.35, .by_severity = {{"warning", 2}}}},
                    .items = {{"warning HB402 without an automatic fix", 1, 1.0, 1.0},
                              {"apply and review an automatic fix", 1, 0.1, 0.1},
                              {"rebuild and retest a file a person changes", 1, 0.25, 0.25}},
                    .model = "docs/rules/effort-model.md"};
  report.builds = std::vector<BuildResult>{{.requested_arch = "gfx942",
                                            .arch = "gfx940",
                                            .toolchain = "hipcc 5.2.3 (Debian)",
                                            .ok = false,
                                            .duration_ms = 1234,
                                            .errors = {{.path = "src/a.cu", .line = 10, .message = "boom"}},
                                            .kernels = {{.name = "k", .vgprs = 32, .sgprs = 20, .occupancy = 8}},
                                            .note = "gfx942 not supported",
                                            .log_excerpt = "error: boom"}};
  report.tests = std::vector<TestResult>{
      {.name = "t", .arch = "gfx940", .status = TestStatus::kTimedOut, .duration_ms = 10, .output_excerpt = "..."},
      {.name = "u",
       .arch = "sm_90",
       .status = TestStatus::kFailed,
       .cuda = ReferenceRun{.status = TestStatus::kFailed, .duration_ms = 7, .output_excerpt = "FAIL"}}};
  report.parity = std::vector<ParityResult>{{.case_name = "c",
                                             .verdict = ParityVerdict::kMismatch,
                                             .max_abs_error = INFINITY,
                                             .max_rel_error = 0.5,
                                             .mismatches = 3,
                                             .elements = 100,
                                             .detail = "first at 7"}};
  report.profile = std::vector<KernelProfile>{
      {.kernel = "k", .calls = 1, .total_ns = 1000, .cuda_baseline_ns = 900, .cuda_calls = 1},
      {.kernel = "j", .calls = 2, .total_ns = 10}};
  report.gpu = GpuSection{.ran_on_gpu = true,
                          .note = "ran on MI250 0000:03:00.0",
                          .device_key = "0000:03:00.0",
                          .device_arch = "gfx90a",
                          .warnings = {"HSA_OVERRIDE_GFX_VERSION refused"},
                          .cuda_reference = "the submitted CUDA tree built for sm_90"};
  return report;
}

}  // namespace hipforge::report::testing
