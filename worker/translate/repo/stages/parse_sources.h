#pragma once
// Stage: one Clang parse per translation unit and configuration (frontend/unit_parser.h): the translator's
// parse of each unit also runs the analyzer's AST rules (its companion), with the translator's arguments.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status ParseSources(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
