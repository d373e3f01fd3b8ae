#pragma once
// The dashboard's read side: aggregated, paginated views over jobs and their report tables. Every call
// takes the caller's team first and sees only that team's jobs (another team's job is NotFound, the same
// as a missing one). Results are JSON text built in SQL (server/sql/queries/dashboard.sql); the HTTP
// front end wraps them into responses.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "server/store/job_store.h"

namespace hipforge::server {

struct DashboardJobHead {
  JobState state = JobState::kQueued;
  int64_t updated_micros = 0;
  int64_t report_micros = 0;                   // 0 without a report
  std::optional<std::string> previous_job_id;  // latest finished job of the repository before this one
  std::string repository;                      // repository key (repository, else job name)
  int64_t team_gate_micros = 0;                // when the team's gate definition last changed (0: none)
};

struct DashboardJobFilter {
  std::optional<std::string> repository, branch, state;  // state as stored ("succeeded")
  std::optional<std::pair<std::string, std::string>> label;
  std::optional<int64_t> created_after_micros, created_before_micros;  // [after, before)
  std::optional<int64_t> before_seq;                                   // keyset: jobs older than this
  int page_size = 50;
};

struct DashboardJobPage {
  std::vector<std::string> jobs_json;
  std::optional<int64_t> next_before_seq;  // set when another page exists
};

struct DashboardRepositoryPage {
  std::vector<std::string> repositories_json;
  std::optional<std::string> next_after;  // repository key to continue after
};

struct FindingCursor {
  std::string rule_id, path;
  int line = 0, ordinal = 0;
};

// Findings of `job_id`, optionally against `other_job_id` by fingerprint.
struct DashboardFindingQuery {
  enum class Presence { kAny, kOnlyHere, kInBoth };
  std::string job_id;
  std::optional<std::string> other_job_id;
  Presence presence = Presence::kAny;
  std::optional<std::string> rule_id, path, severity;
  std::optional<bool> auto_fixed;
  std::optional<bool> inactive;  // in code the build does not compile
  std::optional<FindingCursor> after;
  int page_size = 100;
};

struct DashboardFindingPage {
  std::vector<std::string> findings_json;
  std::optional<FindingCursor> next;
};

class DashboardReader {
 public:
  virtual ~DashboardReader() = default;
  virtual absl::StatusOr<DashboardJobHead> GetJobHead(const std::string& team, const std::string& job_id) = 0;
  virtual absl::StatusOr<std::string> GetTeam(const std::string& team) = 0;
  // Repositories ordered by key; `only` restricts to one repository.
  virtual absl::StatusOr<DashboardRepositoryPage> ListRepositories(const std::string& team,
                                                                   const std::optional<std::string>& after,
                                                                   int page_size,
                                                                   const std::optional<std::string>& only) = 0;
  virtual absl::StatusOr<DashboardJobPage> ListJobs(const std::string& team, const DashboardJobFilter& filter) = 0;
  virtual absl::StatusOr<std::string> GetJob(const std::string& team, const std::string& job_id) = 0;
  // The full report document (NotFound when the job has none yet).
  virtual absl::StatusOr<std::string> GetReport(const std::string& team, const std::string& job_id) = 0;
  virtual absl::StatusOr<DashboardFindingPage> ListFindings(const std::string& team,
                                                            const DashboardFindingQuery& query) = 0;
  virtual absl::StatusOr<std::string> FindingRules(const std::string& team, const std::string& job_id,
                                                   const std::optional<std::string>& other_job_id) = 0;
  virtual absl::StatusOr<std::string> Compare(const std::string& team, const std::string& base_job_id,
                                              const std::string& head_job_id) = 0;
  virtual absl::StatusOr<std::string> Builds(const std::string& team, const std::string& job_id) = 0;
  virtual absl::StatusOr<std::string> Tests(const std::string& team, const std::string& job_id) = 0;
  // A top-level section of the stored report document ("parity", "profile", "effort"); "null" if absent.
  virtual absl::StatusOr<std::string> DocumentSection(const std::string& team, const std::string& job_id,
                                                      const std::string& section) = 0;
  // The last `limit` finished jobs of a repository, oldest first.
  virtual absl::StatusOr<std::string> Trends(const std::string& team, const std::string& repository, int limit) = 0;
};

// Opens its own small pool of connections to the store's (already migrated) schema.
absl::StatusOr<std::unique_ptr<DashboardReader>> OpenPostgresDashboardReader(const std::string& database_url,
                                                                             const std::string& schema,
                                                                             int pool_size = 4);

}  // namespace hipforge::server
