// server/sql/repeatable: job_summary's one definition, applied after the migrations when its text changes, on a
// real PostgreSQL (postgres_test_env.h).
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "common/sha256.h"
#include "server/store/postgres_job_store.h"
#include "server/store/sql_catalog.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server {
namespace {

using testing::StoreTest;
using testing::TestDatabaseUrl;

class RepeatableSqlTest : public StoreTest {
 protected:
  // The body of this schema's job_summary function as PostgreSQL holds it.
  std::string JobSummaryBody() {
    return QueryScalar(
        "SELECT prosrc FROM pg_proc WHERE proname = 'job_summary' "
        "AND pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())");
  }
  std::string RecordedSha() {
    return QueryScalar("SELECT sha256 FROM schema_repeatables WHERE name = 'job_summary.sql'");
  }
  void StubJobSummary() {
    Execute(
        "CREATE OR REPLACE FUNCTION job_summary(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS "
        "$$ SELECT '{\"stub\": true}'::jsonb $$");
  }
};

const sql::Repeatable& JobSummaryFile() {
  static const sql::Repeatable file = [] {
    for (const sql::Repeatable& repeatable : sql::Repeatables()) {
      if (repeatable.name == "job_summary.sql") return repeatable;
    }
    return sql::Repeatable{};
  }();
  return file;
}

TEST_F(RepeatableSqlTest, AFreshSchemaGetsJobSummaryFromItsRepeatableFile) {
  ASSERT_FALSE(JobSummaryFile().sql.empty()) << "server/sql/repeatable/job_summary.sql is not embedded";
  EXPECT_EQ(JobSummaryFile().sha256, Sha256Hex(JobSummaryFile().sql));
  EXPECT_EQ(RecordedSha(), JobSummaryFile().sha256);
  EXPECT_NE(JobSummaryBody().find("open_warnings"), std::string::npos);
  CreateTestJob("summary");
  EXPECT_EQ(QueryScalar("SELECT job_summary(j)->'gate'->>'status' FROM jobs j"), "not_validated");
}

TEST_F(RepeatableSqlTest, AppliedAgainWhenItsTextChangedAndOnlyThen) {
  StubJobSummary();
  // Same text as recorded: skipped, so the stub stays (nothing is re-run on every start).
  absl::StatusOr<std::vector<int>> applied = ApplyMigrations(TestDatabaseUrl(), schema_);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_TRUE(applied->empty());
  EXPECT_NE(JobSummaryBody().find("stub"), std::string::npos);
  // The schema last applied other text (the file changed since): applied again and recorded.
  Execute("UPDATE schema_repeatables SET sha256 = 'older text' WHERE name = 'job_summary.sql'");
  applied = ApplyMigrations(TestDatabaseUrl(), schema_);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_TRUE(applied->empty());
  EXPECT_EQ(JobSummaryBody().find("stub"), std::string::npos);
  EXPECT_NE(JobSummaryBody().find("open_warnings"), std::string::npos);
  EXPECT_EQ(RecordedSha(), JobSummaryFile().sha256);
}

// Migrations up to 0013 re-created job_summary whole (history, never edited); a later one that did so would be
// overwritten by the repeatable file on the same start, silently. Change the file instead.
TEST(RepeatableSqlCatalogTest, NoMigrationAfter0013DefinesARepeatable) {
  absl::StatusOr<std::vector<sql::Migration>> migrations = sql::Migrations();
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  static const std::regex kDefines(R"(CREATE\s+OR\s+REPLACE\s+(FUNCTION|VIEW)\s+(\w+))", std::regex::icase);
  for (const sql::Repeatable& repeatable : sql::Repeatables()) {
    std::smatch match;
    ASSERT_TRUE(std::regex_search(repeatable.sql, match, kDefines)) << repeatable.name;
    const std::regex defined(R"(CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|VIEW)\s+)" + match[2].str() + R"(\b)",
                             std::regex::icase);
    for (const sql::Migration& migration : *migrations) {
      if (migration.version <= 13) continue;
      EXPECT_FALSE(std::regex_search(migration.sql, defined))
          << migration.name << " defines " << match[2].str() << ": change server/sql/repeatable/" << repeatable.name;
    }
  }
}

}  // namespace
}  // namespace hipforge::server
