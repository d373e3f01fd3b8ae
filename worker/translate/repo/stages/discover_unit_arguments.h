#pragma once
// Stage: per-unit compile arguments from the project's own build (sandboxed CMake configure or make -n,
// build_commands.h; cached under <cache>/build-commands) when the tree has no compile database and a file
// needs the translator.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status DiscoverUnitArguments(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
