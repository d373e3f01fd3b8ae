// Migration runner: applies the embedded server/sql/migrations in version order, then the repeatable files whose
// text changed.
#include <cctype>
#include <map>
#include <set>

#include <pqxx/pqxx>

#include "absl/status/status.h"
#include "server/store/postgres_job_store.h"
#include "server/store/sql_catalog.h"
#include "spdlog/spdlog.h"

namespace hipforge::server {

bool IsValidSchemaName(const std::string& schema) {
  if (schema.empty() || schema.size() > 48) return false;
  if (!(std::islower(static_cast<unsigned char>(schema[0])) || schema[0] == '_')) return false;
  for (char c : schema) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return true;
}

namespace {

// After the migrations, in their transaction: a repeatable file runs when the schema last applied other text (or
// none), so a function's one definition lives in one file instead of a migration re-creating it whole each time.
void ApplyRepeatables(pqxx::work& tx, const std::map<std::string, std::string>& queries, const std::string& schema) {
  tx.exec(queries.at("create_schema_repeatables"));
  std::map<std::string, std::string> applied;
  for (const auto& row : tx.exec(queries.at("applied_repeatables"))) {
    applied[row[0].as<std::string>()] = row[1].as<std::string>();
  }
  for (const sql::Repeatable& repeatable : sql::Repeatables()) {
    const auto it = applied.find(repeatable.name);
    if (it != applied.end() && it->second == repeatable.sha256) continue;
    spdlog::info("store: applying {} to schema {}", repeatable.name, schema);
    tx.exec(repeatable.sql);
    tx.exec_params(queries.at("record_repeatable"), repeatable.name, repeatable.sha256);
  }
}

}  // namespace

absl::StatusOr<std::vector<int>> ApplyMigrations(const std::string& database_url, const std::string& schema) {
  if (!IsValidSchemaName(schema)) return absl::InvalidArgumentError("invalid schema name: " + schema);
  auto migrations = sql::Migrations();
  if (!migrations.ok()) return migrations.status();
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  std::vector<int> applied_now;
  try {
    pqxx::connection connection(database_url);
    // One transaction: either every pending migration is applied and recorded, or none is. The
    // advisory lock (taken before CREATE SCHEMA) makes concurrent starters wait instead of racing.
    pqxx::work tx(connection);
    tx.exec("SET LOCAL client_min_messages TO warning");
    tx.exec_params(queries->at("lock_migrations"), schema);
    tx.exec("CREATE SCHEMA IF NOT EXISTS " + tx.quote_name(schema));
    tx.exec("SET LOCAL search_path TO " + tx.quote_name(schema));
    tx.exec(queries->at("create_schema_migrations"));
    std::set<int> applied;
    for (const auto& row : tx.exec(queries->at("applied_migrations"))) applied.insert(row[0].as<int>());
    for (const auto& migration : *migrations) {
      if (applied.count(migration.version) != 0) continue;
      spdlog::info("store: applying migration {} to schema {}", migration.name, schema);
      tx.exec(migration.sql);
      tx.exec_params(queries->at("record_migration"), migration.version, migration.name);
      applied_now.push_back(migration.version);
    }
    ApplyRepeatables(tx, *queries, schema);
    tx.commit();
  } catch (const pqxx::broken_connection& error) {
    return absl::UnavailableError(std::string("cannot connect to PostgreSQL: ") + error.what());
  } catch (const std::exception& error) {
    return absl::InternalError(std::string("migration failed: ") + error.what());
  }
  return applied_now;
}

}  // namespace hipforge::server
