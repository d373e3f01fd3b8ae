// TeamGateStore over PostgreSQL: server/sql/queries/team_gates.sql on the store's schema.
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "server/store/connection_pool.h"
#include "server/store/pooled_statement.h"
#include "server/store/sql_catalog.h"
#include "server/store/team_gate_store.h"

namespace hipforge::server {
namespace {

using nlohmann::json;
using Clock = std::chrono::system_clock;

TeamGate GateFromRow(const pqxx::row& row) {
  TeamGate gate;
  gate.team = row[0].as<std::string>();
  for (const json& name : json::parse(row[1].as<std::string>())) gate.conditions.push_back(name.get<std::string>());
  gate.updated_by = row[2].as<std::string>();
  gate.updated_at =
      Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::microseconds(row[3].as<int64_t>())));
  return gate;
}

class PostgresTeamGateStore final : public TeamGateStore {
 public:
  PostgresTeamGateStore(const std::string& database_url, const std::string& schema,
                        std::map<std::string, std::string> queries)
      : pool_(database_url, schema, /*size=*/1, std::move(queries)) {}

  absl::Status Set(const TeamGate& gate) override {
    const int64_t micros =
        std::chrono::duration_cast<std::chrono::microseconds>(gate.updated_at.time_since_epoch()).count();
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             tx.exec_prepared("set_team_gate", gate.team, json(gate.conditions).dump(), gate.updated_by, micros);
             return true;
           })
        .status();
  }

  absl::StatusOr<std::optional<TeamGate>> Get(const std::string& team) override {
    using Result = std::optional<TeamGate>;
    return Run<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      const pqxx::result rows = tx.exec_prepared("get_team_gate", team);
      if (rows.empty()) return Result();
      return Result(GateFromRow(rows[0]));
    });
  }

  absl::StatusOr<std::vector<TeamGate>> List() override {
    using Result = std::vector<TeamGate>;
    return Run<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      Result gates;
      for (const auto& row : tx.exec_prepared("list_team_gates")) gates.push_back(GateFromRow(row));
      return gates;
    });
  }

  absl::Status Unset(const std::string& team) override {
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             if (tx.exec_prepared("delete_team_gate", team).empty()) {
               return absl::NotFoundError(
                   absl::StrCat("team '", team, "' has no gate definition (it uses the default)"));
             }
             return true;
           })
        .status();
  }

 private:
  template <typename T, typename Body>
  absl::StatusOr<T> Run(Body&& body) {
    return RunPooled<T>(pool_, StatementPolicy{.store = "team gate store"}, std::forward<Body>(body));
  }

  ConnectionPool pool_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<TeamGateStore>> OpenPostgresTeamGateStore(const std::string& database_url,
                                                                         const std::string& schema) {
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  return std::unique_ptr<TeamGateStore>(new PostgresTeamGateStore(database_url, schema, *std::move(queries)));
}

}  // namespace hipforge::server
