#pragma once
// Stage: the output tree written (translated, rewritten or copied, renamed includes followed, permissions
// kept), one FileSummary per file; then the files rewriters generate (the CMake HIP module) and the symlinks.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status WriteOutputTree(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
