#pragma once
// Stage: the unified patch from the input tree to the output tree.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status MakePatch(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
