// The translate role's runner (worker/translate_runner.h) over the real repository pass, as the worker runs it:
// one task after another, each in its own scratch directory that is removed after it. What one task leaves in
// the worker's caches must serve the next: the prelude PCH is built once, not once per task.
#include "worker/translate_runner.h"

#include <cstdlib>
#include <fstream>
#include <mutex>

#include <gtest/gtest.h>

#include "common/file_io.h"
#include "worker/translate/core/prelude_pch.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;

class QuietProgress : public ProgressReporter {
 public:
  void FileDone(std::string_view, int, int, std::string_view) override {}
  void Step(std::string_view, std::string_view, std::string_view, std::string_view) override {}
  void Log(std::string_view, std::string_view) override {}
};

// No leading #include: no library preamble PCH, so the prelude PCH is the only one a task could build.
constexpr char kUnit[] = R"(__global__ void scale(float* data, float factor) { data[threadIdx.x] *= factor; }
int main() {
  float* data = nullptr;
  cudaMalloc(&data, 32 * sizeof(float));
  scale<<<1, 32>>>(data, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(data);
  return 0;
}
)";

class TranslateRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists("/usr/local/cuda/include/cuda_runtime.h") && !std::getenv("CUDA_PATH")) {
      GTEST_SKIP() << "no CUDA toolkit: no prelude PCH to reuse";
    }
    root_ = fs::temp_directory_path() / ("translate-runner-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "input");
    ASSERT_TRUE(WriteFileBytes(root_ / "input" / "scale.cu", kUnit).ok());
    // The worker's caches live under its XDG cache directory; this test's own.
    const char* previous = std::getenv("XDG_CACHE_HOME");
    if (previous) previous_cache_home_ = previous;
    ::setenv("XDG_CACHE_HOME", (root_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    if (root_.empty()) return;
    if (previous_cache_home_) {
      ::setenv("XDG_CACHE_HOME", previous_cache_home_->c_str(), 1);
    } else {
      ::unsetenv("XDG_CACHE_HOME");
    }
    fs::remove_all(root_);
  }

  // One task as the worker runs it: a fresh scratch directory, removed afterwards. The translated unit.
  std::string RunTask(const std::string& task_id, std::optional<uint64_t> pch_cache_bytes = std::nullopt,
                      const std::string& define = "") {
    const fs::path work_dir = root_ / task_id;
    fs::create_directories(work_dir);
    v1::JobSpec spec;
    if (!define.empty()) spec.mutable_options()->add_extra_clang_args("-D" + define);
    std::atomic<bool> abandon{false};
    TaskContext context{.job_id = "job-translate-runner",
                        .task_id = task_id,
                        .spec = spec,
                        .input_root = root_ / "input",
                        .work_dir = work_dir,
                        .progress = progress_,
                        .abandon = abandon};
    TranslateTaskRunner runner(launcher_, {.pch_cache_bytes = pch_cache_bytes});
    absl::StatusOr<TaskOutput> output = runner.Run(context);
    EXPECT_TRUE(output.ok()) << output.status();
    EXPECT_EQ(output.ok() ? output->files_translated : -1, 1);
    std::string translated = ReadFileBytes(work_dir / "translated" / "scale.cu").value_or("");
    if (translated.empty()) translated = ReadFileBytes(work_dir / "translated" / "scale.hip").value_or("");
    fs::remove_all(work_dir);
    return translated;
  }

  size_t PreludePchs() const {
    size_t count = 0;
    const fs::path pch = root_ / "cache" / "hipforge" / "pch";
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(pch, error)) {
      const std::string name = entry.path().filename().string();
      count += entry.path().extension() == ".pch" && name.rfind("preamble-", 0) != 0;
    }
    return count;
  }

  fs::path root_;
  std::optional<std::string> previous_cache_home_;
  BoostProcessLauncher launcher_;
  QuietProgress progress_;
};

TEST_F(TranslateRunnerTest, TheNextTaskReusesThePreludePchTheFirstBuilt) {
  const uint64_t before = translate::PchBuildCount();
  const std::string first = RunTask("task-1");
  ASSERT_NE(first.find("hipMalloc"), std::string::npos) << first;
  EXPECT_EQ(translate::PchBuildCount() - before, 1u) << "the first task builds the prelude PCH";
  EXPECT_EQ(PreludePchs(), 1u);
  EXPECT_TRUE(fs::exists(root_ / "cache" / "hipforge" / "shims" / "texture_fetch_functions.h"))
      << "the shims live beside the PCH cache, not in the task's scratch";

  const uint64_t after_first = translate::PchBuildCount();
  EXPECT_EQ(RunTask("task-2"), first);
  EXPECT_EQ(translate::PchBuildCount(), after_first)
      << "the second task found the prelude PCH usable (with per-task shims it named a removed directory)";
  EXPECT_EQ(PreludePchs(), 1u);
}

// The worker's --pch-cache-size reaches the translator. The cap is enforced when a task builds a PCH: a task whose
// job arguments need a second prelude PCH, under a one-byte cap, evicts the first (not in use), keeps its own
// (in use), and translates as before; without the cap both stay.
TEST_F(TranslateRunnerTest, TheRunnersPchCacheCapBoundsTheCache) {
  const std::string first = RunTask("task-1");
  ASSERT_NE(first.find("hipMalloc"), std::string::npos) << first;
  EXPECT_EQ(PreludePchs(), 1u);
  EXPECT_EQ(RunTask("task-2", std::nullopt, "VARIANT=2"), first);
  EXPECT_EQ(PreludePchs(), 2u) << "the default cap keeps both prelude PCHs";
  EXPECT_EQ(RunTask("task-3", 1, "VARIANT=3"), first);
  EXPECT_EQ(PreludePchs(), 1u) << "a one-byte cap leaves only the PCH the task used";
}

// Counts the translate stage's files and turns the abandon flag on at the analyzer's first progress event, as a
// cancel arriving mid-task would.
class AbandoningProgress : public ProgressReporter {
 public:
  explicit AbandoningProgress(std::atomic<bool>* abandon_at_analyze) : abandon_(abandon_at_analyze) {}
  void FileDone(std::string_view, int done, int total, std::string_view) override {
    std::lock_guard lock(mutex_);
    translated_max = std::max(translated_max, done);
    translated_total = total;
  }
  void Step(std::string_view kind, std::string_view, std::string_view, std::string_view) override {
    if (abandon_ != nullptr && kind == "analyze") abandon_->store(true);
  }
  void Log(std::string_view, std::string_view) override {}
  std::mutex mutex_;
  int translated_max = 0;
  int translated_total = 0;

 private:
  std::atomic<bool>* abandon_;
};

// One task of `units` copies of kUnit (unit0.cu, ...) on `jobs` parse threads; `abandon` is the task's flag.
absl::StatusOr<TaskOutput> RunUnits(const fs::path& root, int units, unsigned jobs, ProgressReporter& progress,
                                    std::atomic<bool>& abandon) {
  for (int i = 0; i < units; ++i) {
    if (!WriteFileBytes(root / "input" / ("unit" + std::to_string(i) + ".cu"), kUnit).ok()) {
      return absl::InternalError("cannot write the input");
    }
  }
  v1::JobSpec spec;
  TaskContext context{.job_id = "job-parallel",
                      .task_id = "task-parallel",
                      .spec = spec,
                      .input_root = root / "input",
                      .work_dir = root / "work",
                      .progress = progress,
                      .abandon = abandon};
  fs::create_directories(context.work_dir);
  BoostProcessLauncher launcher;
  return TranslateTaskRunner(launcher, {.jobs = jobs}).Run(context);
}

// --translate-jobs: a task's units parse on several threads; every unit is translated, and the progress count
// reaches its total (8 units and the fixture's scale.cu).
TEST_F(TranslateRunnerTest, SeveralParseThreadsTranslateEveryUnit) {
  std::atomic<bool> abandon{false};
  AbandoningProgress progress(nullptr);
  absl::StatusOr<TaskOutput> output = RunUnits(root_, 8, 4, progress, abandon);
  ASSERT_TRUE(output.ok()) << output.status();
  EXPECT_EQ(output->files_translated, 9);
  EXPECT_EQ(progress.translated_total, 9);
  EXPECT_EQ(progress.translated_max, 9);
  for (int i = 0; i < 8; ++i) {
    const std::string name = "unit" + std::to_string(i) + ".cu";
    EXPECT_NE(ReadFileBytes(root_ / "work" / "translated" / name).value_or("").find("hipMalloc"), std::string::npos)
        << name;
  }
}

// A task abandoned while the analyzer's threads parse (a cancel, a lost lease) ends as aborted; the worker lives on.
// The runner's thread parses beside the pool there: its progress call throws, and the pool is joined first (before,
// the unjoined threads ended the process in std::terminate).
TEST_F(TranslateRunnerTest, AParallelTaskAbandonedMidAnalysisEndsAborted) {
  std::atomic<bool> abandon{false};
  AbandoningProgress progress(&abandon);
  absl::StatusOr<TaskOutput> output = RunUnits(root_, 12, 3, progress, abandon);
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.status().code(), absl::StatusCode::kAborted) << output.status();
}

}  // namespace
}  // namespace hipforge::worker
