#pragma once
// The SQL of server/sql, embedded at build time: versioned migrations, repeatable files (functions and views,
// re-applied when their text changes) and named queries (`-- name: lease_task` starts a query; it runs to the next
// marker).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::server::sql {

struct EmbeddedSqlFile {
  std::string_view name;  // file name, e.g. "0001_init.sql"
  std::string_view text;
};

// Defined in the generated embedded_sql.cc.
const std::vector<EmbeddedSqlFile>& EmbeddedMigrationFiles();
const std::vector<EmbeddedSqlFile>& EmbeddedRepeatableFiles();
const std::vector<EmbeddedSqlFile>& EmbeddedQueryFiles();

struct Migration {
  int version = 0;  // from the NNNN_ file name prefix
  std::string name;
  std::string sql;
};

// Sorted by version; an error for a misnamed file or a duplicate version.
absl::StatusOr<std::vector<Migration>> Migrations();

// server/sql/repeatable/NAME.sql: a function or view defined whole by one file, applied after the migrations
// whenever its text (its sha256) differs from what the schema last applied.
struct Repeatable {
  std::string name;  // file name, e.g. "job_summary.sql"
  std::string sql;
  std::string sha256;
};

// Sorted by name (the order they are applied in).
std::vector<Repeatable> Repeatables();

// Parses `-- name:` markers; an error for a duplicate name or an empty query.
absl::StatusOr<std::map<std::string, std::string>> ParseNamedQueries(std::string_view file_name, std::string_view text);
// All named queries of all embedded query files.
absl::StatusOr<std::map<std::string, std::string>> NamedQueries();

}  // namespace hipforge::server::sql
