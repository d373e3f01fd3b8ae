#pragma once
// Stage: the source translator (required when a file uses CUDA) and the analyzer (optional: without it the
// findings are incomplete, said in a note), the analyzer given the translator's front end and per-unit
// arguments so both parse a unit with one set of compile arguments.
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status CreateTranslatorAndAnalyzer(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
