#include "worker/translate/repo/stages/check_trees.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

absl::Status CheckTrees(MigrationState& state, const MigrationTools&) {
  if (!fs::is_directory(state.input_root)) {
    return absl::InvalidArgumentError("not a directory: " + state.input_root.string());
  }
  const fs::path input = fs::weakly_canonical(state.input_root);
  const fs::path output = fs::weakly_canonical(state.output_root);
  const std::string input_text = input.generic_string() + "/";
  if ((output.generic_string() + "/").rfind(input_text, 0) == 0) {
    return absl::InvalidArgumentError("output " + output.string() + " is inside the input tree " + input.string());
  }
  if (fs::exists(output) && !fs::is_empty(output)) {
    return absl::FailedPreconditionError("output directory is not empty: " + output.string());
  }
  state.trees.emplace(CheckedTrees{.input = input, .output = output});
  return absl::OkStatus();
}

}  // namespace hipforge::translate
