#pragma once
// Report persistence steps, run inside a transaction of PostgresJobStore (internal header).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "absl/status/statusor.h"
#include "common/report/report.h"
#include "server/store/job_store.h"

namespace hipforge::server::reports {

// Merges the report's top-level sections into the job's document and rewrites the rows of the
// tabular sections it contains.
absl::Status Store(pqxx::transaction_base& tx, const std::string& job_id, const report::Report& report,
                   int64_t now_micros);
absl::StatusOr<std::string> Get(pqxx::transaction_base& tx, const std::string& job_id);
std::vector<FindingRow> Findings(pqxx::transaction_base& tx, const std::string& job_id, const FindingFilter& filter);
std::map<std::string, int64_t> CountByRule(pqxx::transaction_base& tx, const std::string& job_id);
std::vector<FileResultRow> FileResults(pqxx::transaction_base& tx, const std::string& job_id);

}  // namespace hipforge::server::reports
