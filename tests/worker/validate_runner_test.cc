// The validate role's runner (worker/validate_runner.h) over the real Validator: what the worker
// hands it (the original CUDA tree, the analyzer's managed-memory finding, the cancel flag) must
// reach the validator, and a failed build must fail the job. No AMD GPU here: a stand-in inventory
// describes one gfx90a device; lease files, environment, test commands and parity files are real.
#include "worker/validate_runner.h"

#include <fstream>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/report/report_json.h"
#include "worker/role_set.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/validator.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class StandInInventory : public validate::GpuInventory {
 public:
  absl::StatusOr<std::vector<validate::GpuDevice>> ListGpus() override {
    return std::vector<validate::GpuDevice>{
        {.hip_index = 0, .key = "0000:c1:00.0", .arch = "gfx90a", .name = "stand-in MI250", .instinct = true}};
  }
  absl::StatusOr<std::vector<std::string>> CompileTargets() override { return std::vector<std::string>{"gfx90a"}; }
  std::string ToolchainName() override { return "stand-in toolchain"; }
  std::string RuntimeNote() override { return ""; }
};

class RecordingProgress : public ProgressReporter {
 public:
  void FileDone(std::string_view, int, int, std::string_view) override {}
  void Step(std::string_view kind, std::string_view name, std::string_view, std::string_view) override {
    steps.push_back(std::string(kind) + ": " + std::string(name));
  }
  void Log(std::string_view, std::string_view) override {}
  std::vector<std::string> steps;
};

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class ValidateRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("validate-runner-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // The same manifest in both trees (the translator copies it); the CUDA references exist only in
  // the submitted repository, under the manifest's `references` directory.
  void WriteRepository(const std::string& build_command) {
    const std::string manifest = R"yaml(
references: cuda-outputs
build:
  commands:
    - |-
      )yaml" + build_command + R"yaml(
tests:
  commands:
    - name: environment
      run: echo "XNACK=${HSA_XNACK:-unset}"
parity:
  - case: out
    output: out.txt
    reference: out.txt
    dtype: float32
)yaml";
    WriteFile(original() / "hipforge.yaml", manifest);
    WriteFile(original() / "cuda-outputs/out.txt", "1.0 2.0 3.0\n");
    WriteFile(translated() / "hipforge.yaml", manifest);
  }

  absl::StatusOr<TaskOutput> Run(bool managed_memory, const std::atomic<bool>& abandon) {
    StandInInventory inventory;
    validate::FileLockLeaseManager leases(*inventory.ListGpus(), root_ / "locks");
    validate::ValidatorOptions options;
    options.lease_wait = std::chrono::seconds(5);
    validate::Validator validator(launcher_, inventory, leases, options);
    ValidateTaskRunner runner(validator);
    v1::JobSpec spec;
    spec.add_targets("gfx90a");
    TaskContext context{.job_id = "job-validate-runner",
                        .task_id = "task-1",
                        .spec = spec,
                        .input_root = translated(),
                        .original_root = original(),
                        .managed_memory_found = managed_memory,
                        .work_dir = root_ / "work",
                        .progress = progress_,
                        .abandon = abandon};
    return runner.Run(context);
  }

  fs::path original() const { return root_ / "original"; }
  fs::path translated() const { return root_ / "translated"; }

  fs::path root_;
  BoostProcessLauncher launcher_;
  RecordingProgress progress_;
};

TEST_F(ValidateRunnerTest, ReferencesFromTheRepositoryAndManagedMemoryReachTheValidator) {
  WriteRepository("printf '1.0 2.0 3.0\\n' > ${BUILD_DIR}/out.txt");
  std::atomic<bool> abandon{false};
  absl::StatusOr<TaskOutput> output = Run(/*managed_memory=*/true, abandon);
  ASSERT_TRUE(output.ok()) << output.status();
  EXPECT_FALSE(output->job_failed) << output->summary;
  const nlohmann::json report = hipforge::report::ToJson(*output->report);
  ASSERT_EQ(report["parity"].size(), 1u);
  // Matched against <original>/cuda-outputs/out.txt: the manifest's references dir in the repository.
  EXPECT_EQ(report["parity"][0]["verdict"], "match") << report["parity"][0].dump();
  ASSERT_EQ(report["tests"].size(), 1u);
  EXPECT_EQ(report["tests"][0]["output_excerpt"], "XNACK=1\n");
}

TEST_F(ValidateRunnerTest, WithoutManagedMemoryXnackIsNotSet) {
  WriteRepository("printf '1.0 2.0 3.0\\n' > ${BUILD_DIR}/out.txt");
  std::atomic<bool> abandon{false};
  absl::StatusOr<TaskOutput> output = Run(/*managed_memory=*/false, abandon);
  ASSERT_TRUE(output.ok()) << output.status();
  const nlohmann::json report = hipforge::report::ToJson(*output->report);
  EXPECT_EQ(report["tests"][0]["output_excerpt"], "XNACK=unset\n");
}

TEST_F(ValidateRunnerTest, AFailedBuildFailsTheJobAndKeepsItsLogExcerpt) {
  WriteRepository("echo 'src/a.hip: fatal error: hip/missing.h: No such file or directory' >&2; exit 1");
  std::atomic<bool> abandon{false};
  absl::StatusOr<TaskOutput> output = Run(/*managed_memory=*/false, abandon);
  ASSERT_TRUE(output.ok()) << output.status();
  EXPECT_TRUE(output->job_failed);
  EXPECT_THAT(output->summary, HasSubstr("build failed for gfx90a"));
  const nlohmann::json report = hipforge::report::ToJson(*output->report);
  ASSERT_EQ(report["builds"].size(), 1u);
  EXPECT_FALSE(report["builds"][0]["ok"].get<bool>());
  EXPECT_THAT(report["builds"][0].value("log_excerpt", ""), HasSubstr("hip/missing.h: No such file"));
}

// The whole build log travels as the job's BUILD_LOG artifact (the report keeps only an excerpt).
TEST_F(ValidateRunnerTest, TheBuildLogIsAnArtifactOfTheTask) {
  WriteRepository("echo 'compiling kernel.hip for gfx90a'; echo 'src/a.hip: fatal error: hip/missing.h' >&2; exit 1");
  std::atomic<bool> abandon{false};
  absl::StatusOr<TaskOutput> output = Run(/*managed_memory=*/false, abandon);
  ASSERT_TRUE(output.ok()) << output.status();
  std::vector<std::string> logs;
  for (const TaskArtifact& artifact : output->artifacts) {
    if (artifact.kind == v1::ARTIFACT_KIND_BUILD_LOG) logs.push_back(*ReadFileBytes(artifact.file));
  }
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_THAT(logs[0], ::testing::StartsWith("==== build gfx90a ====\n"));
  EXPECT_THAT(logs[0], HasSubstr("compiling kernel.hip for gfx90a"));
  EXPECT_THAT(logs[0], HasSubstr("hip/missing.h"));
}

TEST_F(ValidateRunnerTest, ACancelledJobStopsTheValidator) {
  WriteRepository("printf '1.0 2.0 3.0\\n' > ${BUILD_DIR}/out.txt");
  std::atomic<bool> abandon{true};  // the heartbeat said so before the first step
  absl::StatusOr<TaskOutput> output = Run(/*managed_memory=*/false, abandon);
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.status().code(), absl::StatusCode::kCancelled);
}

// Builds use the host's CPUs unless told otherwise: MIGRATE_BUILD_JOBS (and --build-jobs) set the -j of every build.
TEST(RoleSetOptionsTest, BuildJobsComeFromTheEnvironmentElseZeroMeaningEveryUsableCpu) {
  ::unsetenv("MIGRATE_BUILD_JOBS");
  EXPECT_EQ(RoleSetOptionsFromEnvironment().build_jobs, 0);
  ::setenv("MIGRATE_BUILD_JOBS", "12", 1);
  EXPECT_EQ(RoleSetOptionsFromEnvironment().build_jobs, 12);
  ::setenv("MIGRATE_BUILD_JOBS", "many", 1);
  EXPECT_EQ(RoleSetOptionsFromEnvironment().build_jobs, 0);
  ::unsetenv("MIGRATE_BUILD_JOBS");
}

TEST(RoleSetOptionsTest, TranslateJobsComeFromTheEnvironmentElseZeroMeaningEveryUsableCpu) {
  ::unsetenv("MIGRATE_TRANSLATE_JOBS");
  EXPECT_EQ(RoleSetOptionsFromEnvironment().translate_jobs, 0);
  ::setenv("MIGRATE_TRANSLATE_JOBS", "16", 1);
  EXPECT_EQ(RoleSetOptionsFromEnvironment().translate_jobs, 16);
  ::setenv("MIGRATE_TRANSLATE_JOBS", "-3", 1);
  EXPECT_EQ(RoleSetOptionsFromEnvironment().translate_jobs, 0);
  ::unsetenv("MIGRATE_TRANSLATE_JOBS");
}

}  // namespace
}  // namespace hipforge::worker
