#pragma once
// Stage: the input is a directory, the output is not inside it and is empty or absent; both made canonical.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status CheckTrees(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
