// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>

#include "absl/strings/str_cat.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::RunTests(State& state) {
  const ArchBuild& run_build = *state.run->build;
  Progress(state.progress, "test",
           absl::StrCat("running tests for ", run_build.result.arch, " on ", state.lease->device().key));
  TestRunner runner(launcher_);
  state.report.tests = runner.Run({.arch = run_build.result.arch,
                                   .source_dir = run_build.source_dir,
                                   .build_dir = run_build.build_dir,
                                   .use_ctest = run_build.has_ctest,
                                   .manifest = &state.manifest,
                                   .default_timeout = options_.test_timeout,
                                   .discovered = DiscoveredTests(run_build.source_dir, run_build.roots,
                                                                 run_build.result.arch, run_build.toolchain->hipcc),
                                   .outputs = &state.outputs},
                                  state.run->context);
  TakeWave64Notes(run_build.result.arch, state.outputs, state.report.gpu);
  std::ofstream(state.work_dir / "junit.xml") << ToJUnitXml(state.request.job_id, state.report.tests);
  return absl::OkStatus();
}

}  // namespace hipforge::validate
