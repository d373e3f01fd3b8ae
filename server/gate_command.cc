#include "server/gate_command.h"

#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "server/admin_database.h"
#include "server/auth/credential_store.h"
#include "server/store/gate_definition.h"
#include "server/store/team_gate_store.h"

namespace hipforge::server {
namespace {

std::string DefaultConditions() { return absl::StrJoin(kGateConditions, ", "); }

void PrintGate(const TeamGate& gate, std::ostream& out) {
  out << "team " << gate.team << ": " << absl::StrJoin(gate.conditions, ", ") << " (set by " << gate.updated_by
      << " at " << absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromChrono(gate.updated_at), absl::UTCTimeZone())
      << ")\n";
}

absl::Status Show(TeamGateStore& gates, const std::string& team, std::ostream& out) {
  if (!team.empty()) {
    absl::StatusOr<std::optional<TeamGate>> gate = gates.Get(team);
    if (!gate.ok()) return gate.status();
    if (gate->has_value()) {
      PrintGate(**gate, out);
    } else {
      out << "team " << team << ": " << DefaultConditions() << " (the default: no team definition)\n";
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<TeamGate>> all = gates.List();
  if (!all.ok()) return all.status();
  for (const TeamGate& gate : *all) PrintGate(gate, out);
  out << "other teams: " << DefaultConditions() << " (the default)\n";
  return absl::OkStatus();
}

// The change, then its audit event (the change stands if only the audit write fails, as for tokens).
absl::Status Change(TeamGateStore& gates, CredentialStore& audit, const std::string& team, const std::string& require,
                    bool unset, std::ostream& out) {
  SystemClock clock;
  const std::string actor = AdminActor();
  std::string detail = "default";
  if (unset) {
    if (absl::Status removed = gates.Unset(team); !removed.ok()) return removed;
    out << "team " << team << ": " << DefaultConditions() << " (the default)\n";
  } else {
    absl::StatusOr<std::vector<std::string>> conditions = ParseGateConditionList(require, "--require");
    if (!conditions.ok()) return conditions.status();
    TeamGate gate{team, *conditions, actor, clock.Now()};
    if (absl::Status stored = gates.Set(gate); !stored.ok()) return stored;
    PrintGate(gate, out);
    detail = absl::StrJoin(gate.conditions, ",");
  }
  (void)audit.AppendAudit(
      AuditEvent{0, clock.Now(), actor, team, unset ? "gate_unset" : "gate_set", team, "ok", detail, ""});
  return absl::OkStatus();
}

}  // namespace

int RunGateCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   ProcessLauncher& launcher) {
  CLI::App app{
      "migrate-server gate: what a team's migration gate requires (hipforge.yaml's gate: overrides it "
      "for a repository's jobs)"};
  app.name("migrate-server");
  AdminDatabaseFlags db_flags = DefaultAdminDatabaseFlags();
  CLI::App* gate = app.add_subcommand("gate", "set, show or unset a team's gate definition");
  gate->require_subcommand(1);
  app.require_subcommand(1);
  std::string team, require;
  CLI::App* set = gate->add_subcommand("set", "the conditions the team's gate requires");
  set->add_option("--team", team, "the team")->required();
  set->add_option("--require", require, "comma-separated: " + DefaultConditions())->required();
  AddAdminDatabaseFlags(*set, db_flags);
  CLI::App* show = gate->add_subcommand("show", "one team's definition (--team), else every team's");
  show->add_option("--team", team, "the team");
  AddAdminDatabaseFlags(*show, db_flags);
  CLI::App* unset = gate->add_subcommand("unset", "back to the default (every condition)");
  unset->add_option("--team", team, "the team")->required();
  AddAdminDatabaseFlags(*unset, db_flags);

  if (std::optional<int> ended = ParseAdminCommand(app, args, out, err)) return *ended;
  auto fail = [&](const absl::Status& status) { return AdminFailure(status, err); };
  if (set->parsed()) {  // a bad name is refused before a database is started
    if (absl::StatusOr<std::vector<std::string>> checked = ParseGateConditionList(require, "--require");
        !checked.ok()) {
      return fail(checked.status());
    }
  }
  absl::StatusOr<AdminDatabase> db = OpenAdminDatabase(db_flags, launcher);
  if (!db.ok()) return fail(db.status());
  absl::StatusOr<std::unique_ptr<TeamGateStore>> gates = OpenPostgresTeamGateStore(db->url, db->schema);
  if (!gates.ok()) return fail(gates.status());
  if (show->parsed()) {
    absl::Status shown = Show(**gates, team, out);
    return shown.ok() ? 0 : fail(shown);
  }
  absl::StatusOr<std::unique_ptr<CredentialStore>> audit = OpenPostgresCredentialStore(db->url, db->schema);
  if (!audit.ok()) return fail(audit.status());
  absl::Status changed = Change(**gates, **audit, team, require, unset->parsed(), out);
  return changed.ok() ? 0 : fail(changed);
}

}  // namespace hipforge::server
