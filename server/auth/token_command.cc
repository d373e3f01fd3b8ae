#include "server/auth/token_command.h"

#include <iomanip>
#include <sstream>

#include <CLI/CLI.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "server/admin_database.h"
#include "server/auth/credential_store.h"

namespace hipforge::server {
namespace {

absl::StatusOr<std::chrono::seconds> ParseLifetime(const std::string& text) {
  if (text.empty()) return absl::InvalidArgumentError("empty --expires");
  size_t used = 0;
  long long number = 0;
  try {
    number = std::stoll(text, &used);
  } catch (const std::exception&) {
    return absl::InvalidArgumentError(absl::StrCat("bad --expires '", text, "' (e.g. 90d, 12h, 30m, never)"));
  }
  const std::string unit = text.substr(used);
  long long seconds_per = 0;
  if (unit == "d")
    seconds_per = 86400;
  else if (unit == "h")
    seconds_per = 3600;
  else if (unit == "m")
    seconds_per = 60;
  else if (unit == "s" || unit.empty())
    seconds_per = 1;
  else
    return absl::InvalidArgumentError(absl::StrCat("bad --expires unit '", unit, "' (d, h, m, s)"));
  if (number <= 0) return absl::InvalidArgumentError("--expires must be positive");
  return std::chrono::seconds(number * seconds_per);
}

std::string FormatTime(const std::optional<CredentialTime>& time, const char* none) {
  if (!time) return none;
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromChrono(*time), absl::UTCTimeZone());
}

std::string Status(const CredentialRecord& record, CredentialTime now) {
  if (record.revoked_at) return "revoked";
  if (record.expires_at && *record.expires_at <= now) return "expired";
  return "active";
}

void PrintRecords(const std::vector<CredentialRecord>& records, CredentialTime now, std::ostream& out) {
  out << std::left << std::setw(18) << "ID" << std::setw(8) << "KIND" << std::setw(16) << "TEAM/POOL" << std::setw(26)
      << "SCOPES/ROLES" << std::setw(9) << "STATUS" << std::setw(22) << "EXPIRES"
      << "LAST USED\n";
  for (const CredentialRecord& r : records) {
    std::vector<std::string> grants;
    if (r.kind == CredentialKind::kTeam) {
      for (Scope scope : r.scopes) grants.emplace_back(ScopeName(scope));
    } else {
      grants = r.roles;
      if (!r.toolchains.empty()) grants.push_back("toolchains=" + absl::StrJoin(r.toolchains, "|"));
    }
    out << std::setw(18) << r.id << std::setw(8) << (r.kind == CredentialKind::kTeam ? "team" : "worker")
        << std::setw(16) << (r.kind == CredentialKind::kTeam ? r.team : r.pool) << std::setw(26)
        << absl::StrJoin(grants, ",") << std::setw(9) << Status(r, now) << std::setw(22)
        << FormatTime(r.expires_at, "never") << FormatTime(r.last_used_at, "-") << "\n";
  }
}

}  // namespace

int RunCredentialCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                         ProcessLauncher& launcher) {
  CLI::App app{"migrate-server token|audit: manage API tokens and worker credentials, read the audit trail"};
  app.name("migrate-server");
  AdminDatabaseFlags db_flags = DefaultAdminDatabaseFlags();
  auto add_db_flags = [&](CLI::App* command) { AddAdminDatabaseFlags(*command, db_flags); };
  CLI::App* token = app.add_subcommand("token", "create, list or revoke credentials");
  token->require_subcommand(1);
  CLI::App* audit = app.add_subcommand("audit", "list the audit trail, newest first");
  app.require_subcommand(1);

  std::string team, scopes, pool, roles, toolchains, expires, description, id;
  int limit = 100;
  CLI::App* create = token->add_subcommand("create", "create a team API token or a worker credential (printed once)");
  create->add_option("--team", team, "team of an API token");
  create->add_option("--scopes", scopes, "API token scopes: submit,read,cancel,admin");
  create->add_option("--pool", pool, "worker pool of a worker credential");
  create->add_option("--roles", roles, "worker credential roles: translate,validate");
  create->add_option("--toolchains", toolchains,
                     "worker credential: toolchains it may advertise (default any; 'rocm-6.*')");
  create->add_option("--expires", expires, "lifetime: 90d, 12h, 30m or never (default 90d for tokens)");
  create->add_option("--description", description, "free text shown by list");
  add_db_flags(create);
  CLI::App* list = token->add_subcommand("list", "list credentials (never their secrets)");
  list->add_option("--team", team, "only this team's tokens");
  add_db_flags(list);
  CLI::App* revoke = token->add_subcommand("revoke", "revoke a credential at once");
  revoke->add_option("id", id, "credential id (hft_... or hfw_...)")->required();
  add_db_flags(revoke);
  audit->add_option("--team", team, "only this team's events");
  audit->add_option("--limit", limit, "most events to show");
  add_db_flags(audit);

  if (std::optional<int> ended = ParseAdminCommand(app, args, out, err)) return *ended;
  auto fail = [&](const absl::Status& status) { return AdminFailure(status, err); };

  absl::StatusOr<AdminDatabase> db = OpenAdminDatabase(db_flags, launcher);
  if (!db.ok()) return fail(db.status());
  absl::StatusOr<std::unique_ptr<CredentialStore>> store = OpenPostgresCredentialStore(db->url, db_flags.schema);
  if (!store.ok()) return fail(store.status());
  SystemClock clock;
  const std::string actor = AdminActor();

  if (create->parsed()) {
    std::optional<std::chrono::seconds> lifetime;
    if (expires.empty() && pool.empty()) expires = "90d";
    if (!expires.empty() && expires != "never") {
      absl::StatusOr<std::chrono::seconds> parsed = ParseLifetime(expires);
      if (!parsed.ok()) return fail(parsed.status());
      lifetime = *parsed;
    }
    absl::StatusOr<NewCredential> made = absl::InvalidArgumentError(
        "give --team and --scopes (an API token) or --pool and --roles (a worker credential)");
    if (!team.empty() && pool.empty()) {
      absl::StatusOr<std::vector<Scope>> parsed = ParseScopes(scopes);
      if (!parsed.ok()) return fail(parsed.status());
      made = MakeTeamToken(team, *parsed, lifetime, clock);
    } else if (!pool.empty() && team.empty()) {
      std::vector<std::string> role_list, toolchain_list;
      for (absl::string_view role : absl::StrSplit(roles, ',', absl::SkipWhitespace())) {
        role_list.emplace_back(absl::StripAsciiWhitespace(role));
      }
      for (absl::string_view toolchain : absl::StrSplit(toolchains, ',', absl::SkipWhitespace())) {
        toolchain_list.emplace_back(absl::StripAsciiWhitespace(toolchain));
      }
      made = MakeWorkerCredential(pool, role_list, toolchain_list, lifetime, clock);
    }
    if (!made.ok()) return fail(made.status());
    made->record.description = description;
    made->record.created_by = actor;
    if (absl::Status stored = (*store)->Insert(made->record); !stored.ok()) return fail(stored);
    (void)(*store)->AppendAudit(AuditEvent{0, clock.Now(), actor, made->record.team, "token_create", made->record.id,
                                           "ok", pool.empty() ? scopes : absl::StrCat("pool ", pool, " roles ", roles),
                                           ""});
    out << made->token.value << "\n";
    err << "created " << made->record.id << (pool.empty() ? " for team " + team : " for worker pool " + pool)
        << ", expires " << FormatTime(made->record.expires_at, "never")
        << ". The value above is shown once and cannot be recovered; store it as a secret.\n";
    return 0;
  }
  if (list->parsed()) {
    absl::StatusOr<std::vector<CredentialRecord>> records =
        (*store)->List(team.empty() ? std::nullopt : std::optional<std::string>(team));
    if (!records.ok()) return fail(records.status());
    PrintRecords(*records, clock.Now(), out);
    return 0;
  }
  if (revoke->parsed()) {
    absl::StatusOr<std::optional<CredentialRecord>> found = (*store)->Find(id);
    if (!found.ok()) return fail(found.status());
    if (!found->has_value()) return fail(absl::NotFoundError(absl::StrCat("no credential ", id)));
    if (absl::Status revoked = (*store)->Revoke(id, clock.Now()); !revoked.ok()) return fail(revoked);
    (void)(*store)->AppendAudit(AuditEvent{0, clock.Now(), actor, (*found)->team, "token_revoke", id, "ok", "", ""});
    err << "revoked " << id << "; calls with it are refused from now on\n";
    return 0;
  }
  absl::StatusOr<std::vector<AuditEvent>> events =
      (*store)->ListAudit(team.empty() ? std::nullopt : std::optional<std::string>(team), 0, limit);
  if (!events.ok()) return fail(events.status());
  for (const AuditEvent& e : *events) {
    out << FormatTime(e.at, "") << "  " << e.actor << "  team=" << e.team << "  " << e.action << "  " << e.target
        << "  " << e.outcome << (e.detail.empty() ? "" : "  " + e.detail) << (e.peer.empty() ? "" : "  " + e.peer)
        << "\n";
  }
  return 0;
}

}  // namespace hipforge::server
