// RunWithPrivateTmp (tests/support/compiler_tmp.h) with this machine's hipcc: a HIP compile that inherits TMPDIR
// leaves clang's <stem>-XXXXXX directories there; through RunWithPrivateTmp it leaves nothing, there or in the
// test's scratch dir.
#include "tests/support/compiler_tmp.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace hipforge::testing {
namespace {

namespace fs = std::filesystem;

// Entries of `dir` whose name starts with `stem` and a dash.
int EntriesNamed(const fs::path& dir, const std::string& stem) {
  int count = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    count += entry.path().filename().string().rfind(stem + "-", 0) == 0;
  }
  return count;
}

class RunWithPrivateTmpTest : public ::testing::Test {
 protected:
  RunWithPrivateTmpTest() {
    const std::string id = std::to_string(std::random_device{}());
    scratch_ = fs::temp_directory_path() / ("hipforge-compiler-tmp-test-" + id);
    stem_ = "tmpprobe" + id;
    // The machine's /tmp as this test's children see it: inherited by every process the test starts.
    machine_tmp_ = scratch_ / "machine-tmp";
    fs::create_directories(machine_tmp_);
    const char* old = std::getenv("TMPDIR");
    if (old != nullptr) old_tmpdir_ = old;
    setenv("TMPDIR", machine_tmp_.c_str(), 1);
    std::ofstream(scratch_ / (stem_ + ".hip"))
        << "#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[0] = 1; }\n";
  }
  ~RunWithPrivateTmpTest() override {
    if (old_tmpdir_) {
      setenv("TMPDIR", old_tmpdir_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
    std::error_code ignored;
    fs::remove_all(scratch_, ignored);
  }
  ProcessSpec Compile() const {
    ProcessSpec spec;
    spec.argv = {"hipcc", "--offload-arch=gfx90a",
                 "-c",    "-x",
                 "hip",   (scratch_ / (stem_ + ".hip")).string(),
                 "-o",    (scratch_ / (stem_ + ".o")).string()};
    spec.timeout = std::chrono::minutes(5);
    return spec;
  }

  fs::path scratch_, machine_tmp_;
  std::string stem_;
  std::optional<std::string> old_tmpdir_;
  BoostProcessLauncher launcher_;
};

TEST_F(RunWithPrivateTmpTest, AHipCompileLeavesNothingInTheInheritedTmpdir) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  // The premise: run as the tests ran it, the compile leaves directories named after its source.
  absl::StatusOr<ProcessResult> plain = launcher_.Run(Compile());
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_EQ(plain->exit_code, 0) << plain->standard_error;
  const int leaked = EntriesNamed(machine_tmp_, stem_);
  if (leaked == 0) GTEST_SKIP() << "this hipcc's clang leaves no temp directories";
  fs::remove_all(machine_tmp_);
  fs::create_directories(machine_tmp_);

  absl::StatusOr<ProcessResult> compiled = RunWithPrivateTmp(launcher_, Compile(), scratch_);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ASSERT_EQ(compiled->exit_code, 0) << compiled->standard_error;
  EXPECT_TRUE(fs::exists(scratch_ / (stem_ + ".o")));
  EXPECT_EQ(EntriesNamed(machine_tmp_, stem_), 0) << "the plain compile left " << leaked;
  EXPECT_TRUE(fs::is_empty(machine_tmp_));
  EXPECT_FALSE(fs::exists(scratch_ / "compiler-tmp")) << "the private TMPDIR was not removed";
}

}  // namespace
}  // namespace hipforge::testing
