#pragma once
// TeamGateStore in memory, for tests of its consumers without PostgreSQL; TeamGateStoreContractTest
// (tests/server/http/gate_definition_test.cc) runs the same checks against it and the PostgreSQL store.
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "server/store/team_gate_store.h"

namespace hipforge::server::testing {

class InMemoryTeamGateStore final : public TeamGateStore {
 public:
  absl::Status Set(const TeamGate& gate) override {
    if (gate.team.empty() || gate.conditions.empty()) return absl::InvalidArgumentError("team gate store: empty");
    std::lock_guard<std::mutex> lock(mu_);
    gates_[gate.team] = gate;
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<TeamGate>> Get(const std::string& team) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto found = gates_.find(team);
    if (found == gates_.end()) return std::optional<TeamGate>();
    return std::optional<TeamGate>(found->second);
  }
  absl::StatusOr<std::vector<TeamGate>> List() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<TeamGate> all;
    for (const auto& [team, gate] : gates_) all.push_back(gate);
    return all;
  }
  absl::Status Unset(const std::string& team) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (gates_.erase(team) == 0) {
      return absl::NotFoundError(absl::StrCat("team '", team, "' has no gate definition (it uses the default)"));
    }
    return absl::OkStatus();
  }

 private:
  std::mutex mu_;
  std::map<std::string, TeamGate> gates_;
};

}  // namespace hipforge::server::testing
