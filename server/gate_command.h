#pragma once
// `migrate-server gate set|show|unset`: a team's migration gate definition (the conditions its gate requires when
// a repository's hipforge.yaml names none; server/store/team_gate_store.h), straight on the server's database
// found as the token command finds it (server/admin_database.h). Works while the server runs; the next read of a
// job of the team uses the new definition.
#include <ostream>
#include <string>
#include <vector>

#include "common/process.h"

namespace hipforge::server {

// args[0] is "gate". Definitions go to `out`, errors to `err`. Returns the process exit code (0 ok, 1 failure,
// 2 usage).
int RunGateCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   ProcessLauncher& launcher);

}  // namespace hipforge::server
