#pragma once
// Stage: every regular file of the input tree read and classified (.git skipped, symlinks kept apart), then
// headers included from CUDA sources promoted to CUDA headers.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status CollectFiles(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
