#pragma once
// Test support for the store: a real PostgreSQL (HIPFORGE_TEST_DATABASE_URL, or one EmbeddedPostgres
// per test binary in a temp dir), a fresh schema per test, and a clock tests can move.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "server/store/job_store.h"
#include "server/store/postgres_job_store.h"

namespace hipforge::server::testing {

class ManualClock final : public Clock {
 public:
  ManualClock()
      : micros_(
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count()) {}
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::time_point(std::chrono::microseconds(micros_.load()));
  }
  void Advance(std::chrono::microseconds by) { micros_ += by.count(); }

 private:
  std::atomic<int64_t> micros_;
};

// Connection string of the test database (set up by the gtest Environment in postgres_test_env.cc).
const std::string& TestDatabaseUrl();

// A unique schema name ("t_<random>") for one test.
std::string FreshSchemaName();

// Fixture: a store on a fresh schema, dropped after the test.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  PostgresStoreOptions Options() const;
  std::unique_ptr<JobStore> OpenStore();  // another store on the same schema (e.g. a restarted server)
  // Runs SQL directly on the test schema (for assertions the API does not expose).
  std::string QueryScalar(const std::string& sql);
  void Execute(const std::string& sql);

  Job CreateTestJob(const std::string& name, std::vector<std::string> targets = {}, bool validate = true);

  std::string schema_;
  ManualClock clock_;
  std::unique_ptr<JobStore> store_;
};

ArtifactRef FakeInput(const std::string& seed);

}  // namespace hipforge::server::testing
