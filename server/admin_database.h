#pragma once
// How the `migrate-server` admin commands (token, audit, gate) reach the server's database: --database-url, else
// MIGRATE_DATABASE_URL(_FILE), else the embedded cluster of --data-dir, running or not (a running server's
// published connection). Works while the server runs.
#include <memory>
#include <string>

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

// Who ran the command, for audit events and updated_by columns: "admin-cli:<user>".
std::string AdminActor();

}  // namespace hipforge::server
