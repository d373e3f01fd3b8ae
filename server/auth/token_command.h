#pragma once
// `migrate-server token create|list|revoke` and `migrate-server audit`: credential administration
// straight on the server's database, found the way the server finds it (--database-url, else the
// embedded cluster of --data-dir, running or not). Works while the server runs.
#include <ostream>
#include <string>
#include <vector>

#include "common/process.h"

namespace hipforge::server {

// args[0] is "token" or "audit". Token values go to `out` only (once, at creation); everything else
// to `err`. Returns the process exit code (0 ok, 1 failure, 2 usage).
int RunCredentialCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                         ProcessLauncher& launcher);

}  // namespace hipforge::server
