#pragma once
// Creates credentials the way an operator does: by running `migrate-server token create` against
// the server's database (its --data-dir or --database-url/--database-schema), while it runs.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/process.h"

namespace hipforge::testing {

struct TokenCliResult {
  int exit_code = -1;
  std::string token;  // first stdout line
  std::string err;
};

// `database_args`: {"--data-dir", dir} or {"--database-url", url, "--database-schema", schema}.
inline TokenCliResult RunTokenCli(const std::string& server_bin, const std::vector<std::string>& database_args,
                                  const std::vector<std::string>& command) {
  ProcessSpec spec;
  spec.argv = {server_bin, "token"};
  spec.argv.insert(spec.argv.end(), command.begin(), command.end());
  spec.argv.insert(spec.argv.end(), database_args.begin(), database_args.end());
  spec.timeout = std::chrono::minutes(2);
  BoostProcessLauncher launcher;
  TokenCliResult result;
  absl::StatusOr<ProcessResult> ran = launcher.Run(spec);
  if (!ran.ok()) {
    result.err = std::string(ran.status().message());
    return result;
  }
  result.exit_code = ran->exit_code;
  result.token = ran->standard_output.substr(0, ran->standard_output.find('\n'));
  result.err = ran->standard_error;
  return result;
}

inline TokenCliResult CreateTeamToken(const std::string& server_bin, const std::vector<std::string>& database_args,
                                      const std::string& team, const std::string& scopes = "submit,read,cancel") {
  return RunTokenCli(server_bin, database_args, {"create", "--team", team, "--scopes", scopes});
}

inline TokenCliResult CreateWorkerCredential(const std::string& server_bin,
                                             const std::vector<std::string>& database_args,
                                             const std::string& pool = "test",
                                             const std::string& roles = "translate,validate") {
  return RunTokenCli(server_bin, database_args, {"create", "--pool", pool, "--roles", roles});
}

// Writes a secret to a 0600 file (how workers take their credential).
inline void WriteSecretFile(const std::filesystem::path& path, const std::string& secret) {
  std::ofstream(path, std::ios::trunc) << secret << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

}  // namespace hipforge::testing
