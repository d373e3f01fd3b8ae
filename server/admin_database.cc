#include "server/admin_database.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "common/redact.h"
#include "common/secret_source.h"
#include "server/store/postgres_job_store.h"

namespace hipforge::server {
namespace {

namespace fs = std::filesystem;

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

// The connection string, starting the embedded cluster when nobody runs it.
absl::StatusOr<AdminDatabase> LocateDatabase(const AdminDatabaseFlags& flags, ProcessLauncher& launcher) {
  AdminDatabase db;
  db.schema = flags.schema;
  if (!flags.database_url.empty()) {
    db.url = flags.database_url;
    return db;
  }
  if (!flags.database_url_file.empty()) {
    absl::StatusOr<std::string> url = ReadSecretFile(flags.database_url_file);
    if (!url.ok()) return url.status();
    db.url = *url;
    return db;
  }
  absl::StatusOr<std::optional<std::string>> from_env = SecretFromEnvironment("MIGRATE_DATABASE_URL");
  if (!from_env.ok()) return from_env.status();
  if (from_env->has_value()) {
    db.url = **from_env;
    return db;
  }
  const fs::path data_dir = fs::absolute(flags.data_dir);
  std::error_code ec;
  if (!fs::exists(data_dir / "pg", ec)) {
    // A mistyped --data-dir must not create a second, empty cluster.
    return absl::NotFoundError(
        absl::StrCat("no embedded PostgreSQL in ", data_dir.string(),
                     " (start migrate-server with this --data-dir once, or give --database-url)"));
  }
  EmbeddedPostgresOptions options;
  options.data_dir = data_dir / "pg";
  absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> started = EmbeddedPostgres::Start(launcher, options);
  if (started.ok()) {
    db.embedded = *std::move(started);
    db.url = db.embedded->ConnectionString();
    return db;
  }
  if (started.status().code() != absl::StatusCode::kFailedPrecondition) return started.status();
  // A running migrate-server owns the cluster: use the connection it published.
  std::ifstream conninfo(data_dir / "embedded-postgres.conninfo");
  std::getline(conninfo, db.url);
  if (db.url.empty()) {
    return absl::FailedPreconditionError(absl::StrCat("another process owns the cluster of ", data_dir.string(),
                                                      " but published no connection (is it a migrate-server?)"));
  }
  return db;
}

}  // namespace

AdminDatabaseFlags DefaultAdminDatabaseFlags() {
  AdminDatabaseFlags flags;
  flags.data_dir = EnvOr("MIGRATE_DATA_DIR", "./hipforge-data");
  flags.schema = EnvOr("MIGRATE_DATABASE_SCHEMA", "hipforge");
  return flags;
}

void AddAdminDatabaseFlags(CLI::App& command, AdminDatabaseFlags& flags) {
  command.add_option("--data-dir", flags.data_dir, "the server's data directory (embedded PostgreSQL)");
  command.add_option("--database-url", flags.database_url,
                     "PostgreSQL URL (prefer MIGRATE_DATABASE_URL or MIGRATE_DATABASE_URL_FILE)");
  command.add_option("--database-url-file", flags.database_url_file, "file holding the PostgreSQL URL");
  command.add_option("--database-schema", flags.schema, "PostgreSQL schema");
}

absl::StatusOr<AdminDatabase> OpenAdminDatabase(const AdminDatabaseFlags& flags, ProcessLauncher& launcher) {
  absl::StatusOr<AdminDatabase> db = LocateDatabase(flags, launcher);
  if (!db.ok()) return db.status();
  if (absl::StatusOr<std::vector<int>> migrated = ApplyMigrations(db->url, db->schema); !migrated.ok()) {
    return migrated.status();
  }
  return db;
}

std::string AdminActor() {
  const passwd* user = ::getpwuid(::geteuid());
  return absl::StrCat("admin-cli:", user != nullptr ? user->pw_name : std::to_string(::geteuid()));
}

std::optional<int> ParseAdminCommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                     std::ostream& err) {
  std::vector<std::string> argv_storage = {"migrate-server"};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    err << "migrate-server: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

int AdminFailure(const absl::Status& status, std::ostream& err) {
  err << "migrate-server: " << RedactSecrets(std::string(status.message())) << "\n";
  return 1;
}

}  // namespace hipforge::server
