#pragma once
// Runs a compiler for a test (hipcc, or CMake and make driving one) with TMPDIR inside the test's own scratch dir.
// Clang's driver makes a <stem>-XXXXXX directory in TMPDIR for each offload compile and never removes it (Debian's
// hipcc -c x.cu leaves two empty x-XXXXXX, a CMake configure that enables HIP a dozen), so tests that ran compilers
// with the inherited TMPDIR left thousands of them in the machine's /tmp. The product's compiles run with a private
// /tmp (the validate sandbox) and TMPDIR under the job's work dir (worker/validate/job_environment.cc).
#include <filesystem>
#include <system_error>

#include "absl/status/statusor.h"
#include "common/process.h"

namespace hipforge::testing {

// `spec` run by `launcher` with TMPDIR = `scratch`/compiler-tmp, made first and removed, with whatever the run left
// in it, once the process has ended.
inline absl::StatusOr<ProcessResult> RunWithPrivateTmp(ProcessLauncher& launcher, ProcessSpec spec,
                                                       const std::filesystem::path& scratch) {
  const std::filesystem::path tmp = scratch / "compiler-tmp";
  std::error_code error;
  std::filesystem::create_directories(tmp, error);
  if (error) return absl::InternalError("cannot make " + tmp.string() + ": " + error.message());
  spec.environment["TMPDIR"] = tmp.string();
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  std::filesystem::remove_all(tmp, error);
  return result;
}

}  // namespace hipforge::testing
