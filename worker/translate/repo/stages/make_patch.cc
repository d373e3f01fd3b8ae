#include "worker/translate/repo/stages/make_patch.h"

#include "worker/translate/repo/unified_patch.h"

namespace hipforge::translate {

absl::Status MakePatch(MigrationState& state, const MigrationTools& tools) {
  state.Report("patch", 0, 1, "");
  absl::StatusOr<std::string> patch = MakeUnifiedPatch(tools.launcher, state.trees->input, state.trees->output);
  if (!patch.ok()) return patch.status();
  state.result.unified_patch = std::move(*patch);
  state.Report("patch", 1, 1, "");
  return absl::OkStatus();
}

}  // namespace hipforge::translate
