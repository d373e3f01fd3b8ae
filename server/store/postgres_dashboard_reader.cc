// PostgreSQL DashboardReader over server/sql/queries/dashboard.sql.
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "common/report/report_json.h"
#include "server/store/connection_pool.h"
#include "server/store/dashboard_reader.h"
#include "server/store/pooled_statement.h"
#include "server/store/sql_catalog.h"

namespace hipforge::server {
namespace {

bool IsUuid(const std::string& text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (text[i] == '-')) return false;
    if (!dash && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

const char* NullOr(const std::optional<std::string>& value) { return value ? value->c_str() : nullptr; }

absl::Status NoJob(const std::string& job_id) { return absl::NotFoundError("no job " + job_id); }

class PostgresDashboardReader final : public DashboardReader {
 public:
  PostgresDashboardReader(const std::string& database_url, const std::string& schema, int pool_size,
                          std::map<std::string, std::string> queries)
      : pool_(database_url, schema, pool_size, std::move(queries)) {}

  absl::StatusOr<DashboardJobHead> GetJobHead(const std::string& team, const std::string& job_id) override {
    return Read<DashboardJobHead>(
        [&](pqxx::nontransaction& tx) -> absl::StatusOr<DashboardJobHead> { return Head(tx, team, job_id); });
  }

  absl::StatusOr<std::string> GetTeam(const std::string& team) override {
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      return tx.exec_prepared1("dashboard_teams", team)[0].as<std::string>();
    });
  }

  absl::StatusOr<DashboardRepositoryPage> ListRepositories(const std::string& team,
                                                           const std::optional<std::string>& after, int page_size,
                                                           const std::optional<std::string>& only) override {
    return Read<DashboardRepositoryPage>([&](pqxx::nontransaction& tx) -> absl::StatusOr<DashboardRepositoryPage> {
      const auto rows = tx.exec_prepared("dashboard_overview", team, NullOr(after), page_size + 1, NullOr(only));
      DashboardRepositoryPage page;
      for (const auto& row : rows) {
        if (static_cast<int>(page.repositories_json.size()) == page_size) {
          page.next_after = rows[page_size - 1][0].as<std::string>();
          break;
        }
        page.repositories_json.push_back(row[1].as<std::string>());
      }
      return page;
    });
  }

  absl::StatusOr<DashboardJobPage> ListJobs(const std::string& team, const DashboardJobFilter& filter) override {
    std::optional<std::string> label;
    if (filter.label) {
      label = nlohmann::json{{filter.label->first, filter.label->second}}.dump();
    }
    auto micros = [](const std::optional<int64_t>& v) {
      return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
    };
    const auto after = micros(filter.created_after_micros);
    const auto before = micros(filter.created_before_micros);
    const auto before_seq = micros(filter.before_seq);
    return Read<DashboardJobPage>([&](pqxx::nontransaction& tx) -> absl::StatusOr<DashboardJobPage> {
      const auto rows = tx.exec_prepared("dashboard_list_jobs", team, NullOr(filter.repository), NullOr(filter.state),
                                         NullOr(label), NullOr(after), NullOr(before), NullOr(before_seq),
                                         filter.page_size + 1, NullOr(filter.branch));
      DashboardJobPage page;
      for (const auto& row : rows) {
        if (static_cast<int>(page.jobs_json.size()) == filter.page_size) {
          page.next_before_seq = rows[filter.page_size - 1][0].as<int64_t>();
          break;
        }
        page.jobs_json.push_back(row[1].as<std::string>());
      }
      return page;
    });
  }

  absl::StatusOr<std::string> GetJob(const std::string& team, const std::string& job_id) override {
    if (!IsUuid(job_id)) return NoJob(job_id);
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      const auto rows = tx.exec_prepared("dashboard_job", team, job_id);
      if (rows.empty()) return NoJob(job_id);
      absl::StatusOr<nlohmann::json> report = ReportJson(rows[0][1], job_id);
      if (!report.ok()) return report.status();
      nlohmann::json job = nlohmann::json::parse(rows[0][0].as<std::string>());
      // The translation without its per-file rows and the effort without its per-file hours (their own views).
      for (const char* section : {"translation", "effort"}) {
        job[section] = report->value(section, nlohmann::json::object());
        job[section].erase("files");
      }
      job["gpu"] = report->value("gpu", nlohmann::json());
      return job.dump();
    });
  }

  absl::StatusOr<std::string> GetReport(const std::string& team, const std::string& job_id) override {
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      if (auto head = Head(tx, team, job_id); !head.ok()) return head.status();
      const auto rows = tx.exec_prepared("get_report", job_id);
      if (rows.empty()) return absl::NotFoundError("job " + job_id + " has no report yet");
      return rows[0][0].as<std::string>();
    });
  }

  absl::StatusOr<DashboardFindingPage> ListFindings(const std::string& team,
                                                    const DashboardFindingQuery& query) override {
    if (!IsUuid(query.job_id)) return NoJob(query.job_id);
    if (query.other_job_id && !IsUuid(*query.other_job_id)) return NoJob(*query.other_job_id);
    const char* presence = query.presence == DashboardFindingQuery::Presence::kOnlyHere ? "only"
                           : query.presence == DashboardFindingQuery::Presence::kInBoth ? "both"
                                                                                        : "any";
    std::optional<std::string> rule, path, line, ordinal, auto_fixed, inactive;
    if (query.after) {
      rule = query.after->rule_id;
      path = query.after->path;
      line = std::to_string(query.after->line);
      ordinal = std::to_string(query.after->ordinal);
    }
    if (query.auto_fixed) auto_fixed = *query.auto_fixed ? "true" : "false";
    if (query.inactive) inactive = *query.inactive ? "true" : "false";
    return Read<DashboardFindingPage>([&](pqxx::nontransaction& tx) -> absl::StatusOr<DashboardFindingPage> {
      const auto rows =
          tx.exec_prepared("dashboard_findings", team, query.job_id, NullOr(query.other_job_id), NullOr(query.rule_id),
                           NullOr(query.path), NullOr(query.severity), NullOr(rule), NullOr(path), NullOr(line),
                           NullOr(ordinal), presence, NullOr(auto_fixed), query.page_size + 1, NullOr(inactive));
      DashboardFindingPage page;
      for (const auto& row : rows) {
        if (static_cast<int>(page.findings_json.size()) == query.page_size) {
          const auto& last = rows[query.page_size - 1];
          page.next =
              FindingCursor{last[0].as<std::string>(), last[1].as<std::string>(), last[2].as<int>(), last[3].as<int>()};
          break;
        }
        page.findings_json.push_back(row[4].as<std::string>());
      }
      return page;
    });
  }

  absl::StatusOr<std::string> FindingRules(const std::string& team, const std::string& job_id,
                                           const std::optional<std::string>& other_job_id) override {
    if (!IsUuid(job_id)) return NoJob(job_id);
    if (other_job_id && !IsUuid(*other_job_id)) return NoJob(*other_job_id);
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      return tx.exec_prepared1("dashboard_finding_rules", team, job_id, NullOr(other_job_id))[0].as<std::string>();
    });
  }

  absl::StatusOr<std::string> Compare(const std::string& team, const std::string& base_job_id,
                                      const std::string& head_job_id) override {
    if (!IsUuid(base_job_id)) return NoJob(base_job_id);
    if (!IsUuid(head_job_id)) return NoJob(head_job_id);
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      return tx.exec_prepared1("dashboard_compare", team, base_job_id, head_job_id)[0].as<std::string>();
    });
  }

  absl::StatusOr<std::string> Builds(const std::string& team, const std::string& job_id) override {
    return Aggregate(team, job_id, "dashboard_builds");
  }
  absl::StatusOr<std::string> Tests(const std::string& team, const std::string& job_id) override {
    return Aggregate(team, job_id, "dashboard_tests");
  }

  absl::StatusOr<std::string> DocumentSection(const std::string& team, const std::string& job_id,
                                              const std::string& section) override {
    if (!IsUuid(job_id)) return NoJob(job_id);
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      const auto rows = tx.exec_prepared("dashboard_report_document", team, job_id);
      if (rows.empty()) return std::string("null");
      absl::StatusOr<nlohmann::json> report = ReportJson(rows[0][0], job_id);
      if (!report.ok()) return report.status();
      return report->value(section, nlohmann::json()).dump();
    });
  }

  absl::StatusOr<std::string> Trends(const std::string& team, const std::string& repository, int limit) override {
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      return tx.exec_prepared1("dashboard_trends", team, repository, limit)[0].as<std::string>();
    });
  }

 private:
  // A stored document read through the typed report and written again by the one serializer (report_json.h), so the
  // dashboard's sections are what GetReport and every renderer read. NULL (no report yet): an empty object.
  static absl::StatusOr<nlohmann::json> ReportJson(const pqxx::field& document, const std::string& job_id) {
    if (document.is_null()) return nlohmann::json::object();
    absl::StatusOr<report::Report> typed = report::ParseReport(document.as<std::string>());
    if (!typed.ok()) {
      return absl::DataLossError("the stored report of job " + job_id +
                                 " cannot be read: " + std::string(typed.status().message()));
    }
    return report::ToJson(*typed);
  }

  absl::StatusOr<DashboardJobHead> Head(pqxx::nontransaction& tx, const std::string& team, const std::string& job_id) {
    if (!IsUuid(job_id)) return NoJob(job_id);
    const auto rows = tx.exec_prepared("dashboard_job_head", team, job_id);
    if (rows.empty()) return NoJob(job_id);
    DashboardJobHead head;
    head.state = ParseJobState(rows[0][0].as<std::string>()).value_or(JobState::kFailed);
    head.updated_micros = rows[0][1].as<int64_t>();
    head.report_micros = rows[0][2].as<int64_t>();
    if (!rows[0][3].is_null()) head.previous_job_id = rows[0][3].as<std::string>();
    head.repository = rows[0][4].as<std::string>();
    head.team_gate_micros = rows[0][5].as<int64_t>();
    return head;
  }

  // An aggregate over a job's rows (always one row; the job's existence is checked by the caller's head).
  absl::StatusOr<std::string> Aggregate(const std::string& team, const std::string& job_id, const char* query) {
    if (!IsUuid(job_id)) return NoJob(job_id);
    return Read<std::string>([&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
      return tx.exec_prepared1(query, team, job_id)[0].as<std::string>();
    });
  }

  // Reads are single statements in autocommit (pooled_statement.h maps errors and retries a lost connection).
  template <typename T, typename Body>
  absl::StatusOr<T> Read(Body&& body) {
    return RunPooled<T>(pool_, StatementPolicy{.store = "dashboard"}, std::forward<Body>(body));
  }

  ConnectionPool pool_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<DashboardReader>> OpenPostgresDashboardReader(const std::string& database_url,
                                                                             const std::string& schema, int pool_size) {
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  return std::unique_ptr<DashboardReader>(
      new PostgresDashboardReader(database_url, schema, pool_size, std::move(*queries)));
}

}  // namespace hipforge::server
