#pragma once
// JobStore over PostgreSQL (libpqxx). SQL lives in server/sql (embedded at build time).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "server/store/job_store.h"

namespace hipforge::server {

struct PostgresStoreOptions {
  std::string database_url;         // libpq URL or key=value string
  std::string schema = "hipforge";  // every table lives here; tests use one schema each
  int pool_size = 4;                // connections for queries (plus one dedicated LISTEN connection)
  int default_max_attempts = 3;
  std::chrono::milliseconds retry_backoff_base{std::chrono::seconds(2)};  // attempt n waits base * 2^(n-1)
  std::chrono::milliseconds retry_backoff_max{std::chrono::minutes(5)};
  bool apply_migrations = true;  // run pending migrations in Open()
};

// Opens the pool, applies pending migrations (under an advisory lock) and starts the LISTEN thread.
// `clock` must outlive the store.
// Lease expiry, backoff and timestamps come from `clock` (not the DB clock) so tests can move time
// without sleeping; one server process makes all lease decisions, so one clock is consistent.
absl::StatusOr<std::unique_ptr<JobStore>> OpenPostgresJobStore(const PostgresStoreOptions& options, const Clock& clock);

// Schema names are restricted to [a-z_][a-z0-9_]* (at most 48 characters): they become part of
// NOTIFY channel names and quoted identifiers.
bool IsValidSchemaName(const std::string& schema);

// Applies pending migrations, then the repeatable files whose text changed (server/sql/repeatable), in one
// transaction holding an advisory lock; returns the migration versions applied.
absl::StatusOr<std::vector<int>> ApplyMigrations(const std::string& database_url, const std::string& schema);

}  // namespace hipforge::server
