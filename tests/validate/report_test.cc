#include "worker/validate/report.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hipforge::validate {
namespace {

TEST(ReportJsonTest, UsesTheContractFieldNames) {
  ValidationReport report;
  report.builds.push_back({.requested_arch = "gfx942",
                           .arch = "gfx940",
                           .toolchain = "hipcc 5.2",
                           .ok = false,
                           .duration_ms = 1234,
                           .errors = {{.path = "src/a.cu", .line = 10, .message = "boom"}},
                           .kernels = {{.name = "k", .vgprs = 32, .sgprs = 20, .occupancy = 8}},
                           .note = "gfx942 not supported"});
  report.tests.push_back({.name = "t", .arch = "gfx940", .status = TestStatus::kTimedOut, .duration_ms = 10});
  report.parity.push_back({.case_name = "c",
                           .verdict = ParityVerdict::kMismatch,
                           .max_abs_error = INFINITY,
                           .max_rel_error = 0.5,
                           .mismatches = 3});
  report.profile.push_back({.kernel = "k", .calls = 1, .total_ns = 1000, .cuda_baseline_ns = 900});
  report.gpu = {.ran_on_gpu = false, .note = "not run on a GPU: compile-only worker"};

  const nlohmann::json json = ToJson(report);
  const auto& build = json["builds"][0];
  EXPECT_EQ(build["requested_arch"], "gfx942");
  EXPECT_EQ(build["arch"], "gfx940");
  EXPECT_EQ(build["toolchain"], "hipcc 5.2");
  EXPECT_EQ(build["ok"], false);
  EXPECT_EQ(build["duration_ms"], 1234);
  EXPECT_EQ(build["errors"][0]["path"], "src/a.cu");
  EXPECT_EQ(build["errors"][0]["line"], 10);
  for (const char* field : {"name", "vgprs", "sgprs", "agprs", "scratch_bytes", "occupancy", "spills", "lds_bytes"}) {
    EXPECT_TRUE(build["kernels"][0].contains(field)) << field;
  }
  EXPECT_EQ(json["tests"][0]["status"], "timed_out");
  EXPECT_EQ(json["parity"][0]["case"], "c");
  EXPECT_EQ(json["parity"][0]["verdict"], "mismatch");
  EXPECT_TRUE(json["parity"][0]["max_abs_error"].is_null());  // infinity has no JSON spelling
  EXPECT_EQ(json["parity"][0]["mismatches"], 3);
  EXPECT_EQ(json["profile"][0]["cuda_baseline_ns"], 900);
  EXPECT_EQ(json["gpu"]["ran_on_gpu"], false);
  EXPECT_EQ(json["gpu"]["note"], "not run on a GPU: compile-only worker");
  // Round-trips as text.
  EXPECT_EQ(nlohmann::json::parse(json.dump()), json);
}

}  // namespace
}  // namespace hipforge::validate
