#include "tests/server/store/postgres_test_env.h"

#include <cstdlib>
#include <mutex>
#include <random>

#include <pqxx/pqxx>

#include "common/process.h"
#include "common/sha256.h"
#include "server/store/embedded_postgres.h"

namespace hipforge::server::testing {
namespace {

// The cluster starts on first use, so suites that need no database (artifacts, parsing) pay nothing.
class PostgresEnvironment final : public ::testing::Environment {
 public:
  const std::string& Url() {
    std::call_once(started_, [this] { Start(); });
    return url_;
  }

  void TearDown() override {
    server_.reset();  // pg_ctl stop
    if (!data_dir_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(data_dir_, ignored);
    }
  }

 private:
  void Start() {
    if (const char* url = std::getenv("HIPFORGE_TEST_DATABASE_URL"); url != nullptr && *url != '\0') {
      url_ = url;
      return;
    }
    char pattern[] = "/tmp/hipforge-store-test-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) return;
    data_dir_ = pattern;
    EmbeddedPostgresOptions options;
    options.data_dir = data_dir_;
    options.database = "hipforge_test";
    options.durable = false;
    auto server = EmbeddedPostgres::Start(launcher_, options);
    if (!server.ok()) {
      ADD_FAILURE() << "cannot start an embedded PostgreSQL (set HIPFORGE_TEST_DATABASE_URL to use a server): "
                    << server.status();
      return;
    }
    server_ = std::move(*server);
    url_ = server_->ConnectionString();
  }

  std::once_flag started_;
  std::string url_;
  BoostProcessLauncher launcher_;
  std::filesystem::path data_dir_;
  std::unique_ptr<EmbeddedPostgres> server_;
};

// Registered before main() runs; gtest owns the pointer and calls TearDown at exit.
PostgresEnvironment* const kEnvironment =
    static_cast<PostgresEnvironment*>(::testing::AddGlobalTestEnvironment(new PostgresEnvironment));

}  // namespace

const std::string& TestDatabaseUrl() { return kEnvironment->Url(); }

std::string FreshSchemaName() {
  static std::mt19937_64 rng{std::random_device{}()};
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  return "t_" + Sha256Hex(std::to_string(rng())).substr(0, 16);
}

ArtifactRef FakeInput(const std::string& seed) {
  return ArtifactRef{"input", Sha256Hex(seed), static_cast<int64_t>(seed.size()), "application/x-tar"};
}

void StoreTest::SetUp() {
  ASSERT_FALSE(TestDatabaseUrl().empty()) << "no test database";
  schema_ = FreshSchemaName();
  auto store = OpenPostgresJobStore(Options(), clock_);
  ASSERT_TRUE(store.ok()) << store.status();
  store_ = std::move(*store);
}

void StoreTest::TearDown() {
  store_.reset();
  if (schema_.empty() || TestDatabaseUrl().empty()) return;
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::work tx(connection);
  tx.exec("SET LOCAL client_min_messages TO warning");
  tx.exec("DROP SCHEMA IF EXISTS " + tx.quote_name(schema_) + " CASCADE");
  tx.commit();
}

PostgresStoreOptions StoreTest::Options() const {
  PostgresStoreOptions options;
  options.database_url = TestDatabaseUrl();
  options.schema = schema_;
  options.retry_backoff_base = std::chrono::seconds(10);
  options.retry_backoff_max = std::chrono::seconds(60);
  return options;
}

std::unique_ptr<JobStore> StoreTest::OpenStore() {
  auto store = OpenPostgresJobStore(Options(), clock_);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? std::move(*store) : nullptr;
}

std::string StoreTest::QueryScalar(const std::string& sql) {
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::work tx(connection);
  tx.exec("SET LOCAL search_path TO " + tx.quote_name(schema_));
  const auto rows = tx.exec(sql);
  tx.commit();
  if (rows.empty() || rows[0][0].is_null()) return "";
  return rows[0][0].as<std::string>();
}

void StoreTest::Execute(const std::string& sql) {
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::work tx(connection);
  tx.exec("SET LOCAL search_path TO " + tx.quote_name(schema_));
  tx.exec(sql);
  tx.commit();
}

Job StoreTest::CreateTestJob(const std::string& name, std::vector<std::string> targets, bool validate) {
  JobSpec spec;
  spec.name = name;
  spec.team = "gpu";
  spec.targets = std::move(targets);
  spec.validate = validate;
  auto job = store_->CreateJob(spec, FakeInput(name));
  EXPECT_TRUE(job.ok()) << job.status();
  return job.ok() ? *job : Job{};
}

}  // namespace hipforge::server::testing
