// CredentialStore over PostgreSQL: server/sql/queries/credentials.sql on the store's schema.
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "server/auth/credential_store.h"
#include "server/store/connection_pool.h"
#include "server/store/pooled_statement.h"
#include "server/store/sql_catalog.h"

namespace hipforge::server {
namespace {

using nlohmann::json;

int64_t ToMicros(CredentialTime time) {
  return std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
}
CredentialTime FromMicros(int64_t micros) {
  return CredentialTime(std::chrono::duration_cast<CredentialTime::duration>(std::chrono::microseconds(micros)));
}
std::optional<CredentialTime> OptionalTime(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return FromMicros(field.as<int64_t>());
}

std::vector<std::string> JsonStrings(const std::string& text) {
  std::vector<std::string> values;
  const json parsed = json::parse(text, nullptr, false);
  if (parsed.is_array()) {
    for (const auto& value : parsed) {
      if (value.is_string()) values.push_back(value.get<std::string>());
    }
  }
  return values;
}

// libpqxx 6 sends a null `const char*` as SQL NULL (it has no std::optional parameters).
const char* NullOr(const std::optional<std::string>& value) { return value ? value->c_str() : nullptr; }

CredentialRecord RecordFromRow(const pqxx::row& row) {
  CredentialRecord record;
  record.id = row[0].as<std::string>();
  record.kind = row[1].as<std::string>() == "worker" ? CredentialKind::kWorker : CredentialKind::kTeam;
  record.team = row[2].as<std::string>();
  record.pool = row[3].as<std::string>();
  for (const std::string& name : JsonStrings(row[4].as<std::string>())) {
    if (std::optional<Scope> scope = ParseScope(name)) record.scopes.push_back(*scope);
  }
  record.roles = JsonStrings(row[5].as<std::string>());
  record.toolchains = JsonStrings(row[6].as<std::string>());
  record.secret_sha256 = row[7].as<std::string>();
  record.description = row[8].as<std::string>();
  record.created_by = row[9].as<std::string>();
  record.created_at = FromMicros(row[10].as<int64_t>());
  record.expires_at = OptionalTime(row[11]);
  record.revoked_at = OptionalTime(row[12]);
  record.last_used_at = OptionalTime(row[13]);
  return record;
}

class PostgresCredentialStore final : public CredentialStore {
 public:
  PostgresCredentialStore(const std::string& database_url, const std::string& schema,
                          std::map<std::string, std::string> queries)
      : pool_(database_url, schema, /*size=*/2, std::move(queries)) {}

  absl::Status Insert(const CredentialRecord& r) override {
    json scopes = json::array();
    for (Scope scope : r.scopes) scopes.push_back(std::string(ScopeName(scope)));
    std::optional<std::string> expires;
    if (r.expires_at) expires = std::to_string(ToMicros(*r.expires_at));
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             tx.exec_prepared("insert_credential", r.id, r.kind == CredentialKind::kWorker ? "worker" : "team", r.team,
                              r.pool, scopes.dump(), json(r.roles).dump(), json(r.toolchains).dump(), r.secret_sha256,
                              r.description, r.created_by, ToMicros(r.created_at), NullOr(expires));
             return true;
           })
        .status();
  }

  absl::StatusOr<std::optional<CredentialRecord>> Find(const std::string& id) override {
    using Result = std::optional<CredentialRecord>;
    return Run<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      const auto rows = tx.exec_prepared("find_credential", id);
      if (rows.empty()) return Result();
      return Result(RecordFromRow(rows[0]));
    });
  }

  absl::StatusOr<std::vector<CredentialRecord>> List(const std::optional<std::string>& team) override {
    using Result = std::vector<CredentialRecord>;
    return Run<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      Result records;
      for (const auto& row : tx.exec_prepared("list_credentials", NullOr(team))) records.push_back(RecordFromRow(row));
      return records;
    });
  }

  absl::Status Revoke(const std::string& id, CredentialTime at) override {
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             if (tx.exec_prepared("revoke_credential", id, ToMicros(at)).empty()) {
               return absl::NotFoundError(absl::StrCat("no credential ", id));
             }
             return true;
           })
        .status();
  }

  absl::Status TouchLastUsed(const std::string& id, CredentialTime at) override {
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             tx.exec_prepared("touch_credential", id, ToMicros(at));
             return true;
           })
        .status();
  }

  absl::Status AppendAudit(const AuditEvent& e) override {
    return Run<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             tx.exec_prepared("append_audit", ToMicros(e.at), e.actor, e.team, e.action, e.target, e.outcome, e.detail,
                              e.peer);
             return true;
           })
        .status();
  }

  absl::StatusOr<std::vector<AuditEvent>> ListAudit(const std::optional<std::string>& team, int64_t before_seq,
                                                    int limit) override {
    using Result = std::vector<AuditEvent>;
    std::optional<std::string> before;
    if (before_seq > 0) before = std::to_string(before_seq);
    return Run<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      Result events;
      for (const auto& row : tx.exec_prepared("list_audit", NullOr(team), NullOr(before), std::clamp(limit, 1, 1000))) {
        AuditEvent event;
        event.seq = row[0].as<int64_t>();
        event.at = FromMicros(row[1].as<int64_t>());
        event.actor = row[2].as<std::string>();
        event.team = row[3].as<std::string>();
        event.action = row[4].as<std::string>();
        event.target = row[5].as<std::string>();
        event.outcome = row[6].as<std::string>();
        event.detail = row[7].as<std::string>();
        event.peer = row[8].as<std::string>();
        events.push_back(std::move(event));
      }
      return events;
    });
  }

 private:
  // One autocommit statement per call (pooled_statement.h maps errors and retries a lost connection).
  template <typename T, typename Body>
  absl::StatusOr<T> Run(Body&& body) {
    return RunPooled<T>(pool_, StatementPolicy{.store = "credential store"}, std::forward<Body>(body));
  }

  ConnectionPool pool_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<CredentialStore>> OpenPostgresCredentialStore(const std::string& database_url,
                                                                             const std::string& schema) {
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  return std::unique_ptr<CredentialStore>(new PostgresCredentialStore(database_url, schema, *std::move(queries)));
}

std::optional<Scope> ParseScope(std::string_view name) {
  for (Scope scope : {Scope::kSubmit, Scope::kRead, Scope::kCancel, Scope::kAdmin}) {
    if (ScopeName(scope) == name) return scope;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<Scope>> ParseScopes(std::string_view comma_separated) {
  std::vector<Scope> scopes;
  for (const std::string& piece :
       std::vector<std::string>(absl::StrSplit(std::string(comma_separated), ',', absl::SkipWhitespace()))) {
    const std::string name(absl::StripAsciiWhitespace(piece));
    std::optional<Scope> scope = ParseScope(name);
    if (!scope) {
      return absl::InvalidArgumentError(absl::StrCat("unknown scope '", name, "' (submit, read, cancel, admin)"));
    }
    if (std::find(scopes.begin(), scopes.end(), *scope) == scopes.end()) scopes.push_back(*scope);
  }
  if (scopes.empty()) return absl::InvalidArgumentError("no scopes given (submit, read, cancel, admin)");
  return scopes;
}

namespace {

absl::StatusOr<NewCredential> MakeCredential(CredentialKind kind, std::optional<std::chrono::seconds> lifetime,
                                             const Clock& clock) {
  if (lifetime && lifetime->count() <= 0) return absl::InvalidArgumentError("expiry must be in the future");
  absl::StatusOr<GeneratedToken> token = GenerateToken(kind);
  if (!token.ok()) return token.status();
  NewCredential made;
  made.token = *std::move(token);
  made.record.id = made.token.id;
  made.record.kind = kind;
  made.record.secret_sha256 = made.token.secret_sha256;
  made.record.created_at = clock.Now();
  if (lifetime) made.record.expires_at = made.record.created_at + *lifetime;
  return made;
}

}  // namespace

absl::StatusOr<NewCredential> MakeTeamToken(const std::string& team, std::vector<Scope> scopes,
                                            std::optional<std::chrono::seconds> lifetime, const Clock& clock) {
  if (team.empty()) return absl::InvalidArgumentError("a team token needs a team (--team)");
  if (scopes.empty()) return absl::InvalidArgumentError("a team token needs scopes (--scopes)");
  absl::StatusOr<NewCredential> made = MakeCredential(CredentialKind::kTeam, lifetime, clock);
  if (!made.ok()) return made;
  made->record.team = team;
  made->record.scopes = std::move(scopes);
  return made;
}

absl::StatusOr<NewCredential> MakeWorkerCredential(const std::string& pool, std::vector<std::string> roles,
                                                   std::vector<std::string> toolchains,
                                                   std::optional<std::chrono::seconds> lifetime, const Clock& clock) {
  if (pool.empty()) return absl::InvalidArgumentError("a worker credential needs a pool (--pool)");
  if (roles.empty()) return absl::InvalidArgumentError("a worker credential needs roles (--roles translate,validate)");
  for (const std::string& role : roles) {
    if (role != "translate" && role != "validate") {
      return absl::InvalidArgumentError(absl::StrCat("unknown role '", role, "' (translate, validate)"));
    }
  }
  absl::StatusOr<NewCredential> made = MakeCredential(CredentialKind::kWorker, lifetime, clock);
  if (!made.ok()) return made;
  made->record.pool = pool;
  made->record.roles = std::move(roles);
  made->record.toolchains = std::move(toolchains);
  return made;
}

}  // namespace hipforge::server
