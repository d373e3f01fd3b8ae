#pragma once
// Stage: the result's findings (the analyzer's, a build-file finding fixed when its rewriter changed the line
// under the same rule; the translator's diagnostics; rewriter notes carrying a rule id) and the effort left.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status CollectFindings(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
