#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;

class LoadInputsTest : public ValidatorStageTest {};

TEST_F(LoadInputsTest, TheTreeAndAWorkDirAreRequired) {
  Validator& validator = MakeValidator();
  request_.translated_tree = work_.path() / "missing";
  EXPECT_EQ(validator.LoadInputs(MakeState()).code(), absl::StatusCode::kInvalidArgument);
  request_.translated_tree = work_.path() / "tree";
  request_.work_dir.clear();
  EXPECT_EQ(validator.LoadInputs(MakeState()).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(LoadInputsTest, WithoutAManifestTheDefaults) {
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().LoadInputs(state).ok());
  EXPECT_EQ(state.archs, std::vector<std::string>{"gfx90a"});
  EXPECT_EQ(state.references_dir, request_.translated_tree) << "the repository root";
  EXPECT_TRUE(fs::is_directory(state.work_dir / "tmp"));
  EXPECT_TRUE(state.work_dir.is_absolute());
}

TEST_F(LoadInputsTest, TheTreesManifestGivesTargetsAndReferencesAndTheRequestWins) {
  WriteFile(request_.translated_tree / "hipforge.yaml", "version: 1\ntargets: [gfx942, gfx90a]\nreferences: refs\n");
  request_.original_tree = work_.path() / "original";
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().LoadInputs(state).ok());
  EXPECT_EQ(state.archs, (std::vector<std::string>{"gfx942", "gfx90a"}));
  EXPECT_EQ(state.references_dir, request_.original_tree / "refs") << "the CUDA repository's references";

  request_.requested_archs = {"gfx90a"};
  request_.references_dir = work_.path() / "explicit";
  Validator::State& again = MakeState();
  ASSERT_TRUE(validator_->LoadInputs(again).ok());
  EXPECT_EQ(again.archs, std::vector<std::string>{"gfx90a"});
  EXPECT_EQ(again.references_dir, work_.path() / "explicit");
}

TEST_F(LoadInputsTest, ANamedManifestMustExistAndParse) {
  request_.manifest = work_.path() / "nope.yaml";
  EXPECT_EQ(MakeValidator().LoadInputs(MakeState()).code(), absl::StatusCode::kNotFound);
  WriteFile(work_.path() / "bad.yaml", "version: 2\n");
  request_.manifest = work_.path() / "bad.yaml";
  EXPECT_EQ(validator_->LoadInputs(MakeState()).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace hipforge::validate::testing
