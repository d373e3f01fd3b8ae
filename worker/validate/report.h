#pragma once
// Domain types of a validation report: the builds/tests/parity/profile/gpu sections of the report
// JSON described in TEAM.md. Kept free of heavy includes so the worker and server can include it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace hipforge::validate {

struct KernelResources {
  std::string name;
  int vgprs = 0;
  int sgprs = 0;
  int agprs = 0;
  int64_t scratch_bytes = 0;
  int occupancy = 0;  // waves per SIMD as the compiler reports it
  int spills = 0;     // SGPR + VGPR spill count
  int64_t lds_bytes = 0;
};

struct BuildError {
  std::string path;  // original CUDA path when it could be mapped, else the translated path
  int line = 0;
  std::string message;
};

struct BuildResult {
  std::string requested_arch;  // what the job asked for, e.g. gfx942
  std::string arch;            // what was actually built, e.g. gfx940 (nearest the toolchain has)
  std::string toolchain;       // e.g. "hipcc 5.2.3 (Debian)"
  bool ok = false;
  int64_t duration_ms = 0;
  std::vector<BuildError> errors;
  std::vector<KernelResources> kernels;
  std::string note;  // e.g. "gfx942 not supported by toolchain; built gfx940"
  std::string log_excerpt;  // failed builds: the failing step's error lines (JSON "log_excerpt")
};

enum class TestStatus { kPassed, kFailed, kTimedOut, kNotRun };
const char* TestStatusName(TestStatus status);

struct TestResult {
  std::string name;
  std::string arch;
  TestStatus status = TestStatus::kNotRun;
  int64_t duration_ms = 0;
  std::string output_excerpt;
};

enum class ParityVerdict { kMatch, kMismatch, kMissing };
const char* ParityVerdictName(ParityVerdict verdict);

struct ParityResult {
  std::string case_name;
  ParityVerdict verdict = ParityVerdict::kMissing;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  int64_t mismatches = 0;
  int64_t elements = 0;
  std::string detail;  // why missing / first mismatch position
};

struct KernelProfile {
  std::string kernel;
  int64_t calls = 0;
  int64_t total_ns = 0;
  std::optional<int64_t> cuda_baseline_ns;
};

struct GpuSection {
  bool ran_on_gpu = false;
  std::string note;          // "not run on a GPU: compile-only worker" when nothing ran
  std::string device_key;    // PCI BDF or unique id of the leased GPU
  std::string device_arch;   // gcnArchName of the leased GPU
  std::vector<std::string> warnings;  // e.g. HSA_OVERRIDE_GFX_VERSION refused
};

struct ValidationReport {
  std::vector<BuildResult> builds;
  std::vector<TestResult> tests;
  std::vector<ParityResult> parity;
  std::vector<KernelProfile> profile;
  GpuSection gpu;
};

// Produces {"builds": [...], "tests": [...], "parity": [...], "profile": [...], "gpu": {...}};
// field names exactly as in TEAM.md's report contract (extra fields are additive).
nlohmann::json ToJson(const ValidationReport& report);

}  // namespace hipforge::validate
