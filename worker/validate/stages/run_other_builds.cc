// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {

namespace {

constexpr absl::string_view kWave64Note = "hipforge-wave64: ";

}  // namespace

void TakeWave64Notes(const std::string& arch, std::map<std::string, std::string>& outputs, GpuSection& gpu) {
  for (auto& [test, output] : outputs) {
    if (!absl::StrContains(output, kWave64Note)) continue;
    std::string kept;
    std::vector<absl::string_view> lines = absl::StrSplit(output, '\n');
    if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the newline that ends the output
    for (absl::string_view line : lines) {
      const size_t at = line.find(kWave64Note);
      if (at == absl::string_view::npos) {
        absl::StrAppend(&kept, line, "\n");
        continue;
      }
      const std::string warning = absl::StrCat(arch, ": ", test, ": ", line.substr(at + kWave64Note.size()));
      if (std::find(gpu.warnings.begin(), gpu.warnings.end(), warning) == gpu.warnings.end()) {
        gpu.warnings.push_back(warning);
      }
      if (at > 0) absl::StrAppend(&kept, line.substr(0, at), "\n");  // device printf may share a line
    }
    if (!kept.empty() && !absl::EndsWith(output, "\n")) kept.pop_back();
    output = std::move(kept);
  }
}

absl::Status Validator::RunOtherBuilds(State& state) {
  // More builds for the leased GPU than the one the tests ran from (sm_90:wave64 beside sm_90): the same tests run
  // from each, every result under its own arch, paired with the CUDA original's run and compared with its output.
  if (!state.lease || !state.run.has_value()) return absl::OkStatus();
  const std::string& device_arch = state.lease->device().arch;
  for (const ArchBuild& build : state.builds) {
    if (Cancelled(state.request)) return absl::OkStatus();
    if (&build == state.run->build || !build.result.ok || TargetProcessor(build.result.arch) != device_arch ||
        build.result.arch == state.run->build->result.arch) {
      continue;
    }
    const std::string& arch = build.result.arch;
    Progress(state.progress, "test", absl::StrCat("running tests for ", arch, " on ", state.lease->device().key));
    const ExecutionContext context = RunContext(state, build, nullptr);
    std::map<std::string, std::string> outputs;
    std::vector<TestResult> results = TestRunner(launcher_).Run(
        {.arch = arch,
         .source_dir = build.source_dir,
         .build_dir = build.build_dir,
         .use_ctest = build.has_ctest,
         .manifest = &state.manifest,
         .default_timeout = options_.test_timeout,
         .discovered = DiscoveredTests(build.source_dir, build.roots, arch, build.toolchain->hipcc),
         .outputs = &outputs},
        context);
    TakeWave64Notes(arch, outputs, state.report.gpu);
    if (state.cuda != nullptr && state.cuda->built) PairWithCuda(*state.cuda, results);
    CompareTestOutputs(state, results, outputs, absl::StrCat(" (", arch, ")"));
    for (TestResult& test : results) state.report.tests.push_back(std::move(test));
  }
  return absl::OkStatus();
}

}  // namespace hipforge::validate
