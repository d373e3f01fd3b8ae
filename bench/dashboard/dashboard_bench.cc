// Dashboard read latency at scale: a real migrate-server (ServerApp with its HTTP front end) over a
// PostgreSQL schema seeded with --jobs jobs (default 10,000) of --repositories repositories carrying
// --findings-per-job findings each (default 10: 100,000), two builds with three kernels, two tests and a
// parity case per job. Reports p50/p95/max of the overview, the job list and the findings endpoints over
// real HTTP requests (one keep-alive-less connection per request, as a browser's first load).
//
//   dashboard_bench [--jobs 10000] [--findings-per-job 10] [--repositories 50] [--samples 200] [--database-url URL]
// Without a URL (or HIPFORGE_TEST_DATABASE_URL) it starts an embedded PostgreSQL in a temp dir.
// The token check is a fixed-team authenticator: this measures the read side, not token lookups.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "common/clock.h"
#include "common/process.h"
#include "common/sha256.h"
#include "server/server_app.h"
#include "server/store/embedded_postgres.h"
#include "tests/server/http/http_test_client.h"

namespace {

using Steady = std::chrono::steady_clock;

class BenchAuthenticator final : public hipforge::server::CallerAuthenticator {
 public:
  absl::StatusOr<hipforge::server::Caller> Authenticate(std::string_view authorization) const override {
    if (authorization != "Bearer bench") return absl::UnauthenticatedError("bad token");
    return hipforge::server::Caller{"bench", {hipforge::server::Scope::kRead}, "bench"};
  }
};

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())))];
}

// The seed: generate_series in a handful of statements, so 100,000 findings load in seconds.
void Seed(pqxx::connection& connection, const std::string& schema, int jobs, int findings_per_job, int repositories) {
  pqxx::work tx(connection);
  tx.exec("SET search_path TO " + tx.quote_name(schema));
  tx.exec_params(R"(
    INSERT INTO jobs (name, team, targets, validate, state, input_digest, repository, branch, commit_id, created_at, updated_at)
    SELECT 'app', 'bench', '{gfx90a,gfx942}', true, CASE WHEN g % 37 = 0 THEN 'failed' ELSE 'succeeded' END,
           repeat('a', 64), 'org/repo-' || lpad((g % $2)::text, 3, '0'), 'main', md5(g::text),
           now() - (($1 - g) * interval '1 minute'), now() - (($1 - g) * interval '1 minute')
    FROM generate_series(1, $1::integer) g)",
                 jobs, repositories);
  tx.exec(R"(
    INSERT INTO report_documents (job_id, document)
    SELECT id, jsonb_build_object(
      'translation', jsonb_build_object('totals', jsonb_build_object('files', 40, 'translated', 35, 'fallback', 1,
                                        'converted', 300, 'unsupported', 2, 'lines_changed', 900)),
      'effort', jsonb_build_object('engineer_hours', (seq % 40) / 4.0, 'automatic_share', 0.8),
      'profile', jsonb_build_array(jsonb_build_object('kernel', 'k0', 'calls', 10, 'total_ns', 1000 + seq % 300,
                                                      'cuda_baseline_ns', 1000)))
    FROM jobs)");
  tx.exec_params(R"(
    INSERT INTO report_findings (job_id, ordinal, rule_id, severity, path, line, col, message, auto_fixed, source_line)
    SELECT j.id, f, 'HB' || (101 + (f * 7 + j.seq) % 13), (ARRAY['error', 'warning', 'note'])[1 + (f + j.seq) % 3],
           'src/file' || (f % 17) || '.cu', 10 + f * 3 + (j.seq % 5), 5, 'message ' || f, (f % 4 = 0),
           'v = __shfl_down(v, ' || ((f + j.seq / 3) % 11) || ');'
    FROM jobs j, generate_series(0, $1::integer - 1) f)",
                 findings_per_job);
  tx.exec(R"(
    INSERT INTO report_builds (job_id, ordinal, requested_arch, arch, toolchain, ok, duration_ms)
    SELECT j.id, b, (ARRAY['gfx90a', 'gfx942'])[b + 1], (ARRAY['gfx90a', 'gfx942'])[b + 1], 'hipcc 6.4',
           (j.seq % 23 <> 0), 9000
    FROM jobs j, generate_series(0, 1) b)");
  tx.exec(R"(
    INSERT INTO report_kernels (job_id, build_ordinal, ordinal, name, vgprs, sgprs, agprs, scratch_bytes, occupancy, spills, lds_bytes)
    SELECT b.job_id, b.ordinal, k, 'kernel' || k, 32 + k * 8, 20, 0, 0, 8 - k, 0, 4096
    FROM report_builds b, generate_series(0, 2) k)");
  tx.exec(R"(
    INSERT INTO report_tests (job_id, ordinal, name, arch, status, duration_ms)
    SELECT j.id, t, 'test' || t, 'gfx90a', CASE WHEN j.seq % 29 = 0 AND t = 1 THEN 'failed' ELSE 'passed' END, 40
    FROM jobs j, generate_series(0, 1) t)");
  tx.exec(R"(
    INSERT INTO report_parity (job_id, ordinal, case_name, verdict, mismatches)
    SELECT id, 0, 'case0', CASE WHEN seq % 31 = 0 THEN 'mismatch' ELSE 'match' END, 0 FROM jobs)");
  tx.exec("ANALYZE");
  tx.commit();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hipforge dashboard read-latency benchmark"};
  int jobs = 10000, findings_per_job = 10, repositories = 50, samples = 200;
  std::string database_url;
  app.add_option("--jobs", jobs, "jobs to seed")->check(CLI::Range(2, 1000000));
  app.add_option("--findings-per-job", findings_per_job, "findings per job")->check(CLI::Range(1, 1000));
  app.add_option("--repositories", repositories, "repositories the jobs belong to")->check(CLI::Range(1, 10000));
  app.add_option("--samples", samples, "requests per endpoint")->check(CLI::Range(10, 100000));
  app.add_option("--database-url", database_url, "PostgreSQL URL (default: embedded cluster)");
  bool keep_schema = false;
  app.add_flag("--keep-schema", keep_schema, "leave the seeded schema in the database (to EXPLAIN its queries)");
  CLI11_PARSE(app, argc, argv);

  hipforge::BoostProcessLauncher launcher;
  hipforge::SystemClock clock;
  char pattern[] = "/tmp/hipforge-dashboard-bench-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  const std::filesystem::path temp_dir = pattern;
  std::unique_ptr<hipforge::server::EmbeddedPostgres> embedded;
  if (database_url.empty()) {
    if (const char* env = std::getenv("HIPFORGE_TEST_DATABASE_URL"); env != nullptr) database_url = env;
  }
  if (database_url.empty()) {
    hipforge::server::EmbeddedPostgresOptions options;
    options.data_dir = temp_dir / "pg";
    options.durable = false;
    auto server = hipforge::server::EmbeddedPostgres::Start(launcher, options);
    if (!server.ok()) {
      std::fprintf(stderr, "cannot start embedded PostgreSQL: %s\n", std::string(server.status().message()).c_str());
      return 1;
    }
    embedded = std::move(*server);
    database_url = embedded->ConnectionString();
  }

  hipforge::server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.http_listen = "127.0.0.1:0";
  config.data_dir = temp_dir / "data";
  config.database_url = database_url;
  config.database_schema = "bench_" + hipforge::Sha256Hex(std::to_string(std::random_device{}())).substr(0, 12);
  BenchAuthenticator authenticator;
  auto server = hipforge::server::ServerApp::Start(config, launcher, clock, &authenticator);
  if (!server.ok()) {
    std::fprintf(stderr, "cannot start the server: %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  pqxx::connection connection(database_url);
  const auto seed_start = Steady::now();
  Seed(connection, config.database_schema, jobs, findings_per_job, repositories);
  std::printf("seeded %d jobs, %d findings, %d repositories in %.1f s\n", jobs, jobs * findings_per_job, repositories,
              std::chrono::duration<double>(Steady::now() - seed_start).count());

  const int port = (*server)->http_port();
  const std::map<std::string, std::string> auth = {{"authorization", "Bearer bench"}};
  auto any_job = [&](const std::string& query) {
    pqxx::nontransaction tx(connection);
    tx.exec("SET search_path TO " + tx.quote_name(config.database_schema));
    return tx.exec1(query)[0].as<std::string>();
  };
  const std::string newest = any_job("SELECT id::text FROM jobs ORDER BY seq DESC LIMIT 1");
  const std::string middle =
      any_job("SELECT id::text FROM jobs ORDER BY seq DESC OFFSET " + std::to_string(jobs / 2) + " LIMIT 1");
  // A deep job-list page: the token of page 100 (keyset, so it should cost what page 1 does).
  std::string deep_token;
  for (int page = 0; page < 100; ++page) {
    auto body = nlohmann::json::parse(
        hipforge::server::testing::HttpGet(
            port, "/api/v1/jobs?page_size=50" + (deep_token.empty() ? "" : "&page_token=" + deep_token), auth)
            .body);
    deep_token = body.value("next_page_token", "");
  }
  struct Endpoint {
    std::string name, target;
  };
  const std::vector<Endpoint> endpoints = {
      {"overview (50 repositories with gates)", "/api/v1/teams/bench/repositories"},
      {"job list, first page (50)", "/api/v1/jobs?page_size=50"},
      {"job list, page 100 (keyset)", "/api/v1/jobs?page_size=50&page_token=" + deep_token},
      {"job list, one repository", "/api/v1/jobs?page_size=50&repository=org%2Frepo-007"},
      {"job detail", "/api/v1/jobs/" + middle},
      {"findings (100, with new/fixed flag)", "/api/v1/jobs/" + middle + "/findings?page_size=100"},
      {"findings new since previous job", "/api/v1/jobs/" + newest + "/findings?change=new"},
      {"findings grouped by rule", "/api/v1/jobs/" + middle + "/findings/rules"},
      {"trends (30 jobs)", "/api/v1/trends?repository=org%2Frepo-007"},
  };
  std::printf("%-42s %8s %8s %8s   (ms, %d requests each)\n", "endpoint", "p50", "p95", "max", samples);
  bool all_under = true;
  for (const Endpoint& endpoint : endpoints) {
    std::vector<double> ms;
    for (int i = 0; i < samples + 5; ++i) {
      const auto start = Steady::now();
      auto result = hipforge::server::testing::HttpGet(port, endpoint.target, auth);
      const double elapsed = std::chrono::duration<double, std::milli>(Steady::now() - start).count();
      if (result.status != 200) {
        std::fprintf(stderr, "%s: HTTP %d %s\n", endpoint.target.c_str(), result.status, result.body.c_str());
        return 1;
      }
      if (i >= 5) ms.push_back(elapsed);  // the first requests warm the pool's prepared statements
    }
    const double p95 = Percentile(ms, 0.95);
    all_under = all_under && p95 < 100;
    std::printf("%-42s %8.1f %8.1f %8.1f\n", endpoint.name.c_str(), Percentile(ms, 0.5), p95, Percentile(ms, 1.0));
  }
  std::printf("target p95 < 100 ms: %s\n", all_under ? "met" : "NOT met");
  if (keep_schema) {
    std::printf("schema %s kept\n", config.database_schema.c_str());
  } else {
    pqxx::work tx(connection);
    tx.exec("DROP SCHEMA " + tx.quote_name(config.database_schema) + " CASCADE");
    tx.commit();
  }
  (*server)->Shutdown();
  std::filesystem::remove_all(temp_dir);
  return 0;
}
