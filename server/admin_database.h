#pragma once
// How the `migrate-server` admin commands (token, audit, gate) reach the server's database: --database-url, else
// MIGRATE_DATABASE_URL(_FILE), else the embedded cluster of --data-dir, running or not (a running server's
// published connection). Works while the server runs.
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "server/store/embedded_postgres.h"

namespace CLI {
class App;
}

namespace hipforge::server {

struct AdminDatabaseFlags {
  std::string data_dir;  // default: MIGRATE_DATA_DIR, else ./hipforge-data
  std::string database_url;
  std::string database_url_file;
  std::string schema;  // default: MIGRATE_DATABASE_SCHEMA, else hipforge
};

// Defaults from the environment, as the server takes them.
AdminDatabaseFlags DefaultAdminDatabaseFlags();
// --data-dir, --database-url, --database-url-file, --database-schema on `command`.
void AddAdminDatabaseFlags(CLI::App& command, AdminDatabaseFlags& flags);

// The database connection, migrated to the current schema version; `embedded` is the cluster this command had
// to start (stopped when it is destroyed).
struct AdminDatabase {
  std::unique_ptr<EmbeddedPostgres> embedded;
  std::string url;
  std::string schema;
};
absl::StatusOr<AdminDatabase> OpenAdminDatabase(const AdminDatabaseFlags& flags, ProcessLauncher& launcher);

// Parses the words after `migrate-server` into `app`: nullopt to go on, else the command's exit code (0 after --help,
// printed to `out`; 2 after a usage error, printed to `err`).
std::optional<int> ParseAdminCommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err);
// Prints a failed admin command's error with secrets redacted; returns the exit code, 1.
int AdminFailure(const absl::Status& status, std::ostream& err);

// Who ran the command, for audit events and updated_by columns: "admin-cli:<user>".
std::string AdminActor();

}  // namespace hipforge::server
