#pragma once
// Stage: the analyzer's findings in the original sources (every file but kOther), its host-side AST results
// taken from the companion that rode on ParseSources; their safe fixes go to ComposeTranslations.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status AnalyzeSources(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
