#pragma once
// Team gate definitions (migration 0012's team_gates): the conditions a team's migration gate requires when a
// repository's hipforge.yaml names none. job_summary reads the table itself, so a change applies to every job of
// the team as it is next read, old ones included; a repository's `gate:` is recorded on its job at submit instead.
// Set and shown by `migrate-server gate` (server/gate_command.h).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::server {

struct TeamGate {
  std::string team;
  std::vector<std::string> conditions;  // checked by ParseGateConditions (gate_definition.h), in its order
  std::string updated_by;
  std::chrono::system_clock::time_point updated_at;
};

class TeamGateStore {
 public:
  virtual ~TeamGateStore() = default;
  // Creates or replaces the team's definition.
  virtual absl::Status Set(const TeamGate& gate) = 0;
  // nullopt: the team uses the default (every condition).
  virtual absl::StatusOr<std::optional<TeamGate>> Get(const std::string& team) = 0;
  // Every team with a definition, by team name.
  virtual absl::StatusOr<std::vector<TeamGate>> List() = 0;
  // Back to the default; NotFound when the team had no definition.
  virtual absl::Status Unset(const std::string& team) = 0;
};

// On an already migrated schema (ApplyMigrations).
absl::StatusOr<std::unique_ptr<TeamGateStore>> OpenPostgresTeamGateStore(const std::string& database_url,
                                                                         const std::string& schema);

}  // namespace hipforge::server
