#pragma once
// What the validator stage tests share: a Validator over fakes of the process launcher, the GPU inventory and
// the lease manager, and a State for one request, so each test runs one stage on a state it set up.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/recording_launcher.h"
#include "tests/validate/test_support.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate::testing {

using ::hipforge::testing::RecordingLauncher;

class FakeInventory final : public GpuInventory {
 public:
  absl::StatusOr<std::vector<GpuDevice>> ListGpus() override { return gpus; }
  absl::StatusOr<std::vector<std::string>> CompileTargets() override { return targets; }
  std::string ToolchainName() override { return "fake hipcc"; }
  std::string RuntimeNote() override { return runtime_note; }
  std::vector<GpuDevice> gpus;
  absl::StatusOr<std::vector<std::string>> targets = std::vector<std::string>{"gfx90a", "gfx942"};
  std::string runtime_note;
};

// Leases `device` when its arch is acceptable; else `refusal`.
class FakeLeases final : public GpuLeaseManager {
 public:
  absl::StatusOr<std::unique_ptr<GpuLease>> Acquire(const std::string&, const std::vector<std::string>& archs,
                                                    std::chrono::milliseconds) override {
    asked_archs = archs;
    if (!refusal.ok()) return refusal;
    return std::make_unique<GpuLease>(*this, device);
  }
  void Release(const GpuDevice&, int) override { ++released; }
  GpuDevice device{.hip_index = 0, .key = "0000:c1:00.0", .arch = "gfx90a", .name = "AMD Instinct MI250X"};
  absl::Status refusal;
  std::vector<std::string> asked_archs;
  int released = 0;
};

class ValidatorStageTest : public ::testing::Test {
 protected:
  ValidatorStageTest() : work_("validator-stage") {
    request_.job_id = "job-1";
    request_.translated_tree = work_.path() / "tree";
    request_.work_dir = work_.path() / "work";
    std::filesystem::create_directories(request_.translated_tree);
    options_.use_sandbox = false;
  }
  Validator& MakeValidator() {
    validator_ = std::make_unique<Validator>(launcher_, inventory_, leases_, options_);
    return *validator_;
  }
  // A State as LoadInputs leaves it for `request_` (work dir made absolute, archs from the request).
  Validator::State& MakeState() {
    state_ = std::make_unique<Validator::State>(Validator::State{.request = request_});
    if (!request_.work_dir.empty()) state_->work_dir = std::filesystem::absolute(request_.work_dir);
    state_->archs = request_.requested_archs;
    return *state_;
  }

  ScratchDir work_;
  ValidationRequest request_;
  ValidatorOptions options_;
  RecordingLauncher launcher_;
  FakeInventory inventory_;
  FakeLeases leases_;
  std::unique_ptr<Validator> validator_;
  std::unique_ptr<Validator::State> state_;
};

}  // namespace hipforge::validate::testing
