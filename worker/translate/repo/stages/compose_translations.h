#pragma once
// Stage: the translated CUDA sources and headers: the parsed facts plus the analyzer's safe fixes (with
// options.apply_fixes; those findings become auto_fixed) and annotations, for files the translator takes.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status ComposeTranslations(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
