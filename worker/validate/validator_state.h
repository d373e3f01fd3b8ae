#pragma once
// What Validator::Validate's stages share (Validator::Stages() in validator.cc lists them; each stage is in
// worker/validate/stages/ with its test in tests/validate/stages/): the one ValidationState (Validator::State) each
// stage reads and extends, and a few helpers. Below validator.h, which declares these types ahead.
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/pipeline.h"
#include "spdlog/spdlog.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/manifest.h"
#include "worker/validate/report.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/toolchain.h"
#include "worker/validate/toolchain_choice.h"
#include "worker/validate/tree_builder.h"
#include "worker/validate/validation_request.h"

namespace hipforge::validate {

inline constexpr const char* kNoGpuNote = "not run on a GPU: compile-only worker";

inline void Progress(ProgressSink* sink, std::string_view stage, const std::string& message) {
  spdlog::info("[validate:{}] {}", stage, message);
  if (sink != nullptr) sink->Report(stage, message);
}

inline bool Cancelled(const ValidationRequest& request) {
  return request.cancelled != nullptr && request.cancelled->load();
}

// A private copy of a tree (`to` replaced), symlinks kept: what each build works in (build_archs.cc).
absl::Status CopyTree(const std::filesystem::path& from, const std::filesystem::path& to);

inline ParityResult Missing(const std::string& name, const std::string& why) {
  return {.case_name = name, .verdict = ParityVerdict::kMissing, .detail = why};
}

struct ArchBuild {
  const Toolchain* toolchain = nullptr;  // points into ValidationState::toolchains
  BuildResult result;
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  bool has_ctest = false;
  std::vector<BuildRoot> roots;  // what was built (TreeBuilder): where discovered tests run
  // Libraries the tree mentions that the chosen toolchain lacks (FindLibraryUses): named when the build fails on
  // them, a note when it builds anyway (the mention sat in code or build files the build does not reach).
  std::vector<LibraryUse> missing_libraries;
};

// The submitted CUDA tree built for the leased NVIDIA GPU and run with the same tests (RunCudaReference): the
// automatic reference that parity and the profile compare the HIP build with.
struct CudaReference {
  std::string arch;        // the sm_XX it was built for (the HIP build's)
  bool built = false;      // at least one build root built: its tests can run
  std::string build_note;  // "the submitted CUDA tree built for sm_90 with its own build files (12 s)"
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  TestRunInput tests;        // how its tests ran (RerunOutput; `outputs` is not kept)
  ExecutionContext context;  // RunCudaReference: the leased GPU's environment, PATH to the reference nvcc
  std::map<std::string, std::string> variables;  // ${ARCH}, ${BUILD_DIR}, ${SOURCE_DIR} of this build
  std::map<std::string, TestResult> results;     // by test name
  std::map<std::string, std::string> outputs;    // standard output by test name
};

// ChooseRunBuild's output when tests run on the leased GPU: the build they run from, and how.
struct RunPlan {
  const ArchBuild* build = nullptr;              // points into ValidationState::builds
  ExecutionContext context;                      // its toolchain, the leased GPU's environment and devices
  std::map<std::string, std::string> variables;  // ${ARCH}, ${BUILD_DIR}, ${SOURCE_DIR} of `build`
};

// Each test with a CUDA twin of the same name gets its run beside it (`test.cuda`); how many had one.
int PairWithCuda(const CudaReference& cuda, std::vector<TestResult>& tests);
// The wave64 layer's "hipforge-wave64: ..." lines (docs/wave64.md) out of each output, into `gpu`'s warnings.
void TakeWave64Notes(const std::string& arch, std::map<std::string, std::string>& outputs, GpuSection& gpu);

// Everything one validation knows; each stage reads what earlier stages left and adds its part (Validator::State).
struct ValidationState {
  const ValidationRequest& request;
  ProgressSink* progress = nullptr;
  std::filesystem::path work_dir;
  Manifest manifest;
  std::filesystem::path references_dir;  // CUDA reference outputs (parity goldens, baseline timings)
  std::vector<std::string> archs;        // requested, in order
  bool sandbox_ok = false;
  std::vector<Toolchain> toolchains;  // candidates, newest first
  std::vector<LibraryUse> needed_libraries;
  std::vector<ArchBuild> builds;  // one per requested arch
  std::set<std::string> built_archs;
  std::unique_ptr<GpuLease> lease;
  StageOutput<RunPlan> run{"ChooseRunBuild"};  // none when nothing runs on a GPU (`finished`)
  std::map<std::string, std::string> outputs;  // the HIP tests' standard output by name (RunTests)
  std::unique_ptr<CudaReference> cuda;         // BuildCudaReference, for an NVIDIA target; RunCudaReference runs it
  ValidationReport report;
  bool finished = false;  // a stage completed the report early (nothing runs on a GPU): Validate's run ends there
};

}  // namespace hipforge::validate
