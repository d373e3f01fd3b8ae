// Database names of the job store's enums (they match the CHECK constraints in 0001_init.sql).
#include <array>
#include <utility>

#include "server/store/job_store.h"

namespace hipforge::server {
namespace {

constexpr std::array<std::pair<JobState, std::string_view>, 7> kJobStates{{
    {JobState::kQueued, "queued"},
    {JobState::kTranslating, "translating"},
    {JobState::kTranslated, "translated"},
    {JobState::kValidating, "validating"},
    {JobState::kSucceeded, "succeeded"},
    {JobState::kFailed, "failed"},
    {JobState::kCancelled, "cancelled"},
}};
constexpr std::array<std::pair<TaskKind, std::string_view>, 2> kTaskKinds{{
    {TaskKind::kTranslate, "translate"},
    {TaskKind::kValidate, "validate"},
}};
constexpr std::array<std::pair<TaskState, std::string_view>, 6> kTaskStates{{
    {TaskState::kAvailable, "available"},
    {TaskState::kRunning, "running"},
    {TaskState::kCompleted, "completed"},
    {TaskState::kFailed, "failed"},
    {TaskState::kDead, "dead"},
    {TaskState::kCancelled, "cancelled"},
}};

template <typename Enum, size_t N>
std::string_view NameOf(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value) {
  for (const auto& [candidate, name] : table) {
    if (candidate == value) return name;
  }
  return "unknown";
}

template <typename Enum, size_t N>
std::optional<Enum> Parse(const std::array<std::pair<Enum, std::string_view>, N>& table, std::string_view name) {
  for (const auto& [candidate, candidate_name] : table) {
    if (candidate_name == name) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::string_view JobStateName(JobState state) { return NameOf(kJobStates, state); }
std::string_view TaskKindName(TaskKind kind) { return NameOf(kTaskKinds, kind); }
std::optional<JobState> ParseJobState(std::string_view name) { return Parse(kJobStates, name); }
std::optional<TaskKind> ParseTaskKind(std::string_view name) { return Parse(kTaskKinds, name); }
std::optional<TaskState> ParseTaskState(std::string_view name) { return Parse(kTaskStates, name); }

bool IsTerminal(JobState state) {
  return state == JobState::kSucceeded || state == JobState::kFailed || state == JobState::kCancelled;
}

}  // namespace hipforge::server
