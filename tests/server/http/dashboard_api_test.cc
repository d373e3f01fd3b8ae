// The dashboard HTTP API against a real migrate-server (ServerApp on PostgreSQL): jobs are submitted over
// gRPC and completed by a scripted worker with known reports, then read over real HTTP.
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "absl/strings/escaping.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/report/report_render.h"
#include "server/auth/caller.h"
#include "tests/server/http/http_test_client.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"
#include "worker/translate/analyze/findings_json.h"

namespace hipforge::server::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Tokens of two teams, and one without the read scope (the real authenticator is tested by its owner).
class FakeAuthenticator final : public CallerAuthenticator {
 public:
  absl::StatusOr<Caller> Authenticate(std::string_view authorization) const override {
    if (authorization == "Bearer qa-token") return Caller{"qa", {Scope::kRead, Scope::kSubmit}, "qa"};
    if (authorization == "Bearer other-token") return Caller{"other", {Scope::kRead}, "other"};
    if (authorization == "Bearer submit-only") return Caller{"qa", {Scope::kSubmit}, "submit"};
    if (authorization == "Bearer database-down") return absl::UnavailableError("cannot check the token now");
    if (authorization.empty()) return absl::UnauthenticatedError("missing bearer token");
    return absl::UnauthenticatedError("unknown or revoked token");
  }
};

json Finding(const std::string& rule, const std::string& severity, const std::string& path, int line,
             const std::string& source_line, bool auto_fixed = false) {
  return {{"rule_id", rule},
          {"severity", severity},
          {"path", path},
          {"line", line},
          {"column", 3},
          {"message", rule + " message"},
          {"fix", ""},
          {"auto_fixed", auto_fixed},
          {"source_line", source_line}};
}

class DashboardApiTest : public ServerTest {
 protected:
  void Configure(ServerConfig& config) override {
    config.http_listen = "127.0.0.1:0";
    config.port_file = temp_dir_ / "server.port";
    config.web_root = temp_dir_ / "web";
    fs::create_directories(config.web_root / "assets");
    std::ofstream(config.web_root / "index.html") << "<!doctype html><title>hipforge</title>";
    std::ofstream(config.web_root / "assets" / "app.js") << "console.log(1)";
  }
  const CallerAuthenticator* Authenticator() const override { return &authenticator_; }

  HttpResult Get(const std::string& target, std::map<std::string, std::string> headers = {},
                 const std::string& token = "qa-token") {
    if (!token.empty()) headers["authorization"] = "Bearer " + token;
    return HttpGet(app_->http_port(), target, headers);
  }
  json GetJson(const std::string& target, int expected_status = 200, const std::string& token = "qa-token") {
    HttpResult result = Get(target, {}, token);
    EXPECT_EQ(result.status, expected_status) << target << ": " << result.body;
    json body = result.Json();
    EXPECT_FALSE(body.is_discarded()) << target << ": " << result.body;
    return body;
  }
  void ExpectError(const std::string& target, int status, const std::string& message_part,
                   const std::string& token = "qa-token") {
    json body = GetJson(target, status, token);
    ASSERT_TRUE(body.contains("error")) << body;
    EXPECT_EQ(body["error"]["code"], status);
    EXPECT_TRUE(absl::StrContains(body["error"]["message"].get<std::string>(), message_part))
        << target << ": " << body["error"]["message"];
  }

  // Submits a job of `repository` and plays its translate and validate workers with these reports.
  std::string RunJob(const std::string& repository, const std::string& commit, const json& findings,
                     const json& validation, const std::string& patch, const std::string& team = "qa") {
    v1::JobSpec spec = TestSpec("app", team, /*translate_only=*/false);
    spec.add_targets("gfx90a");
    spec.set_repository(repository);
    spec.set_branch("main");
    spec.set_commit(commit);
    SubmitOutcome submitted = SubmitArchive(ApiFor(team), spec, SmallCudaRepoArchive());
    EXPECT_TRUE(submitted.status.ok()) << submitted.status.error_message();
    const std::string job_id = submitted.job.id();

    EXPECT_TRUE(Register(*workers_, "translator", v1::TASK_ROLE_TRANSLATE).ok());
    std::optional<v1::Task> translate = Lease(*workers_, "translator", 5000);
    EXPECT_TRUE(translate.has_value());
    json report = json::parse(TranslationReport(job_id, 2));
    report["findings"] = findings;
    report["effort"] = {{"engineer_hours", 0.5 * findings.size()}, {"automatic_share", 0.75}};
    v1::CompleteResponse response;
    EXPECT_TRUE(Complete(*workers_, *translate, report.dump(), {{v1::ARTIFACT_KIND_PATCH, patch}}, &response).ok());

    EXPECT_TRUE(Register(*workers_, "validator", v1::TASK_ROLE_VALIDATE).ok());
    std::optional<v1::Task> validate = Lease(*workers_, "validator", 5000);
    EXPECT_TRUE(validate.has_value());
    if (validate) {
      EXPECT_EQ(validate->lease().job_id(), job_id);
      EXPECT_TRUE(Complete(*workers_, *validate, validation.dump(), {{v1::ARTIFACT_KIND_BUILD_LOG, BuildLog(job_id)}},
                           &response)
                      .ok());
    }
    WaitForJob(job_id, [](const v1::Job& job) { return IsFinal(job.state()); });
    return job_id;
  }

  static std::string BuildLog(const std::string& job_id) {
    return "[gfx90a] hipcc -c kernel.hip (" + job_id + ")\nok\n";
  }

  static json Validation(bool parity_matches) {
    return {
        {"builds",
         {{{"requested_arch", "gfx90a"},
           {"arch", "gfx90a"},
           {"toolchain", "hipcc 5.2.3"},
           {"ok", true},
           {"duration_ms", 1200},
           {"errors", json::array()},
           {"kernels",
            {{{"name", "scale"},
              {"vgprs", 24},
              {"sgprs", 16},
              {"agprs", 0},
              {"scratch_bytes", 0},
              {"occupancy", 8},
              {"spills", 0},
              {"lds_bytes", 1024}}}}}}},
        {"tests",
         {{{"name", "unit"}, {"arch", "gfx90a"}, {"status", "passed"}, {"duration_ms", 30}, {"output_excerpt", ""}}}},
        {"parity",
         {{{"case", "scale_1m"},
           {"verdict", parity_matches ? "match" : "mismatch"},
           {"max_abs_error", parity_matches ? 0.0 : 0.5},
           {"max_rel_error", 0.0},
           {"mismatches", parity_matches ? 0 : 7},
           {"elements", 1000000},
           {"detail", parity_matches ? "" : "first mismatch at [12]: 1.5 vs 1.0"}}}},
        {"profile", {{{"kernel", "scale"}, {"calls", 10}, {"total_ns", 2000}, {"cuda_baseline_ns", 1000}}}},
        {"gpu", {{"ran_on_gpu", false}, {"note", "no GPU"}}}};
  }

  void SeedTwoJobs() {
    const std::string patch =
        "--- a/src/kernel.cu\n+++ b/src/kernel.cu\n@@ -10,2 +10,2 @@\n-#include <cuda_runtime.h>\n"
        "+#include <hip/hip_runtime.h>\n int x;\n";
    first_ = RunJob("org/app", std::string(40, 'a'),
                    json::array({Finding("HB101", "error", "src/kernel.cu", 10, "v = __shfl(v, 1);"),
                                 Finding("HB201", "warning", "src/kernel.cu", 20, "float a[64];"),
                                 Finding("HB404", "note", "src/main.cu", 5, "cudaMallocManaged(&p, n);")}),
                    Validation(true), patch);
    // The second run: HB101 moved down two lines (same code: unchanged), HB201 fixed, HB102 new.
    second_ = RunJob("org/app", std::string(40, 'b'),
                     json::array({Finding("HB101", "error", "src/kernel.cu", 12, "v  =  __shfl(v, 1);"),
                                  Finding("HB404", "note", "src/main.cu", 5, "cudaMallocManaged(&p, n);"),
                                  Finding("HB102", "error", "src/kernel.cu", 30, "__ballot(p);", true)}),
                     Validation(false), patch);
  }

  FakeAuthenticator authenticator_;
  std::string first_, second_;
};

TEST_F(DashboardApiTest, RequiresABearerTokenWithTheReadScope) {
  HttpResult none = Get("/api/v1/teams", {}, "");
  EXPECT_EQ(none.status, 401);
  EXPECT_TRUE(absl::StartsWith(none.headers["www-authenticate"], "Bearer"));
  EXPECT_EQ(none.Json()["error"]["status"], "UNAUTHENTICATED");
  ExpectError("/api/v1/teams", 401, "unknown or revoked", "forged");
  ExpectError("/api/v1/teams", 403, "read scope", "submit-only");
  // A token that cannot be checked now (the database is restarting) is not a bad token: 503, retry soon.
  ExpectError("/api/v1/teams", 503, "cannot check the token now", "database-down");
  EXPECT_EQ(Get("/api/v1/teams", {}, "database-down").headers["retry-after"], "1");
  // Health and the UI's files need no token.
  EXPECT_EQ(Get("/healthz", {}, "").status, 200);
}

TEST_F(DashboardApiTest, WritesTheHttpPortNextToTheGrpcPortFile) {
  ASSERT_GT(app_->http_port(), 0);
  std::ifstream in(config_.port_file.string() + ".http");
  int port = 0;
  in >> port;
  EXPECT_EQ(port, app_->http_port());
  EXPECT_NE(port, app_->port());
}

TEST_F(DashboardApiTest, ServesTheWebUiWithoutEscapingItsRoot) {
  HttpResult index = Get("/", {}, "");
  EXPECT_EQ(index.status, 200);
  EXPECT_TRUE(absl::StrContains(index.body, "<title>hipforge</title>"));
  EXPECT_TRUE(absl::StartsWith(index.headers["content-type"], "text/html"));
  HttpResult script = Get("/assets/app.js", {}, "");
  EXPECT_EQ(script.status, 200);
  EXPECT_TRUE(absl::StartsWith(script.headers["content-type"], "text/javascript"));
  EXPECT_EQ(Get("/../../etc/passwd", {}, "").status, 404);
  EXPECT_EQ(Get("/%2e%2e/%2e%2e/etc/passwd", {}, "").status, 404);
  EXPECT_EQ(Get("/missing.js", {}, "").status, 404);
  EXPECT_EQ(HttpGet(app_->http_port(), "/api/v1/teams", {{"authorization", "Bearer qa-token"}}, "POST").status, 405);
}

TEST_F(DashboardApiTest, OverviewShowsEachRepositorysGateAndWhatBlocksIt) {
  SeedTwoJobs();
  json teams = GetJson("/api/v1/teams");
  ASSERT_EQ(teams["teams"].size(), 1u);
  EXPECT_EQ(teams["teams"][0]["team"], "qa");
  EXPECT_EQ(teams["teams"][0]["jobs"], 2);
  EXPECT_EQ(teams["teams"][0]["repositories"], 1);

  json overview = GetJson("/api/v1/teams/qa/repositories");
  ASSERT_EQ(overview["repositories"].size(), 1u) << overview;
  const json& repo = overview["repositories"][0];
  EXPECT_EQ(repo["repository"], "org/app");
  EXPECT_EQ(repo["jobs"], 2);
  EXPECT_EQ(repo["latest_job"]["id"], second_);
  // The portfolio's trend compares with the finished job before the gate's (null for a repository's first).
  EXPECT_EQ(repo["previous_gate_job"]["id"], first_);
  EXPECT_EQ(repo["previous_gate_job"]["summary"]["open_errors"], 1) << repo["previous_gate_job"];
  const json& gate = repo["gate_job"]["summary"]["gate"];
  EXPECT_EQ(gate["status"], "failed") << gate;
  // Parity mismatched; the open HB101 error blocks too (HB102 was auto-fixed and does not).
  EXPECT_EQ(gate["blocking"], json::array({"parity", "findings"})) << gate;
  EXPECT_EQ(gate["conditions"][0]["name"], "builds");
  EXPECT_EQ(gate["conditions"][0]["status"], "passed");
  EXPECT_EQ(repo["gate_job"]["summary"]["open_errors"], 1);

  // Another team's name answers like an unknown one; another team sees none of qa's jobs.
  ExpectError("/api/v1/teams/other/repositories", 404, "no team other");
  json others = GetJson("/api/v1/teams/other/repositories", 200, "other-token");
  EXPECT_TRUE(others["repositories"].empty());
  ExpectError("/api/v1/teams/qa/repositories?page_token=bogus", 400, "invalid page token");
}

TEST_F(DashboardApiTest, JobListPagesAndFilters) {
  SeedTwoJobs();
  json first_page = GetJson("/api/v1/jobs?page_size=1");
  ASSERT_EQ(first_page["jobs"].size(), 1u);
  EXPECT_EQ(first_page["jobs"][0]["id"], second_);  // newest first
  EXPECT_EQ(first_page["jobs"][0]["spec"]["repository"], "org/app");
  EXPECT_EQ(first_page["jobs"][0]["spec"]["commit"], std::string(40, 'b'));
  EXPECT_EQ(first_page["jobs"][0]["state"], "JOB_STATE_SUCCEEDED");
  const std::string token = first_page["next_page_token"];
  ASSERT_FALSE(token.empty());
  json second_page = GetJson("/api/v1/jobs?page_size=1&page_token=" + UrlEncode(token));
  ASSERT_EQ(second_page["jobs"].size(), 1u);
  EXPECT_EQ(second_page["jobs"][0]["id"], first_);
  EXPECT_EQ(second_page["next_page_token"], "");

  EXPECT_EQ(GetJson("/api/v1/jobs?repository=org%2Fapp&state=succeeded&branch=main")["jobs"].size(), 2u);
  EXPECT_EQ(GetJson("/api/v1/jobs?state=JOB_STATE_FAILED")["jobs"].size(), 0u);
  EXPECT_EQ(GetJson("/api/v1/jobs?repository=org%2Fother")["jobs"].size(), 0u);
  EXPECT_EQ(GetJson("/api/v1/jobs?created_after=2000-01-01T00:00:00Z")["jobs"].size(), 2u);
  EXPECT_EQ(GetJson("/api/v1/jobs?created_before=2000-01-01T00:00:00Z")["jobs"].size(), 0u);
  EXPECT_EQ(GetJson("/api/v1/jobs", 200, "other-token")["jobs"].size(), 0u);

  ExpectError("/api/v1/jobs?state=finished", 400, "state must be");
  ExpectError("/api/v1/jobs?label=novalue", 400, "key=value");
  ExpectError("/api/v1/jobs?created_after=yesterday", 400, "RFC 3339");
  ExpectError("/api/v1/jobs?page_size=0", 400, "page_size");
  ExpectError("/api/v1/jobs?page_size=501", 400, "page_size");
  ExpectError("/api/v1/jobs?page_token=AAAA", 400, "invalid page token");
  ExpectError("/api/v1/jobs?statee=succeeded", 400, "unknown query parameter 'statee'");
  ExpectError("/api/v1/nothing", 404, "no such API endpoint");
}

TEST_F(DashboardApiTest, MalformedTokensAndNonUtf8FiltersAreBadRequestsNotInternalErrors) {
  // Each answered 500 (nlohmann type_error.316 / .302) before (issue 24, item 7).
  SeedTwoJobs();
  auto token = [](const std::string& json_text) { return UrlEncode(absl::WebSafeBase64Escape(json_text)); };
  ExpectError("/api/v1/jobs?label=k%3D%ff", 400, "not valid UTF-8");
  ExpectError("/api/v1/jobs?repository=%c3%28", 400, "not valid UTF-8");
  for (const std::string& bad : {std::string(R"({"k":7})"), std::string(R"({"k":null})"), std::string("[1]"),
                                 std::string(R"({"k":"jobs","before":"x"})")}) {
    ExpectError("/api/v1/jobs?page_token=" + token(bad), 400, "invalid page token");
    ExpectError("/api/v1/teams/qa/repositories?page_token=" + token(bad), 400, "invalid page token");
  }
  for (const std::string& bad :
       {std::string(R"({"k":"repositories","after":3})"), std::string(R"({"k":"repositories","after":null})"),
        std::string(R"({"k":"repositories"})")}) {
    ExpectError("/api/v1/teams/qa/repositories?page_token=" + token(bad), 400, "invalid page token");
  }
}

TEST_F(DashboardApiTest, JobDetailIsTeamScopedAndFinishedJobsRevalidateWithETags) {
  SeedTwoJobs();
  json job = GetJson("/api/v1/jobs/" + second_);
  EXPECT_EQ(job["id"], second_);
  EXPECT_EQ(job["previous_job_id"], first_);
  EXPECT_EQ(job["summary"]["findings"], 3);
  EXPECT_EQ(job["summary"]["kernel_time_ratio"], 2.0);
  EXPECT_EQ(job["translation"]["totals"]["files"], 2);
  EXPECT_EQ(job["effort"]["engineer_hours"], 1.5);

  ExpectError("/api/v1/jobs/00000000-0000-0000-0000-000000000000", 404, "no job");
  ExpectError("/api/v1/jobs/not-a-uuid", 404, "no job");
  // Another team's job: the same 404 as a missing one.
  ExpectError("/api/v1/jobs/" + second_, 404, "no job", "other-token");
  ExpectError("/api/v1/jobs/" + second_ + "/findings", 404, "no job", "other-token");
  ExpectError("/api/v1/jobs/" + second_ + "/nothing", 404, "no such job resource");
  // The 8 characters the UI shows name the job too, in the team that owns it only (JobService::ResolveJobId).
  EXPECT_EQ(GetJson("/api/v1/jobs/" + second_.substr(0, 8))["id"], second_);
  EXPECT_EQ(GetJson("/api/v1/jobs/" + second_.substr(0, 8) + "/findings?since=" + first_.substr(0, 8))["compared_with"],
            first_);
  EXPECT_EQ(GetJson("/api/v1/compare?base=" + first_.substr(0, 8) + "&head=" + second_.substr(0, 13))["new"], 1);
  ExpectError("/api/v1/jobs/" + second_.substr(0, 8), 404, "no job", "other-token");
  ExpectError("/api/v1/jobs/" + second_.substr(0, 6), 400, "too short");

  HttpResult full = Get("/api/v1/jobs/" + second_);
  const std::string etag = full.headers["etag"];
  ASSERT_FALSE(etag.empty());
  HttpResult again = Get("/api/v1/jobs/" + second_, {{"if-none-match", etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(again.headers["etag"], etag);
  HttpResult stale = Get("/api/v1/jobs/" + second_, {{"if-none-match", "\"0000\""}});
  EXPECT_EQ(stale.status, 200);
  HttpResult findings = Get("/api/v1/jobs/" + second_ + "/findings");
  EXPECT_NE(findings.headers["etag"], etag);  // each view has its own
  EXPECT_EQ(Get("/api/v1/jobs/" + second_ + "/findings", {{"if-none-match", findings.headers["etag"]}}).status, 304);

  json report = GetJson("/api/v1/jobs/" + first_ + "/report");
  EXPECT_EQ(report["findings"].size(), 3u);
  EXPECT_EQ(report["findings"][0]["source_line"], "v = __shfl(v, 1);");
}

TEST_F(DashboardApiTest, FindingsAreNewFixedOrUnchangedByFingerprint) {
  SeedTwoJobs();
  const std::string base = "/api/v1/jobs/" + second_ + "/findings";
  json all = GetJson(base);
  ASSERT_EQ(all["findings"].size(), 3u);
  EXPECT_EQ(all["compared_with"], first_);
  // rule -> path -> line order
  EXPECT_EQ(all["findings"][0]["rule_id"], "HB101");
  EXPECT_EQ(all["findings"][1]["rule_id"], "HB102");
  EXPECT_EQ(all["findings"][2]["rule_id"], "HB404");
  EXPECT_EQ(all["findings"][0]["in_other"], true);  // moved two lines, same code
  EXPECT_EQ(all["findings"][1]["in_other"], false);

  json added = GetJson(base + "?change=new");
  ASSERT_EQ(added["findings"].size(), 1u);
  EXPECT_EQ(added["findings"][0]["rule_id"], "HB102");
  json fixed = GetJson(base + "?change=fixed");
  ASSERT_EQ(fixed["findings"].size(), 1u);
  EXPECT_EQ(fixed["findings"][0]["rule_id"], "HB201");
  EXPECT_EQ(GetJson(base + "?change=unchanged")["findings"].size(), 2u);
  EXPECT_EQ(GetJson(base + "?severity=error")["findings"].size(), 2u);
  EXPECT_EQ(GetJson(base + "?severity=error&auto_fixed=false")["findings"].size(), 1u);
  EXPECT_EQ(GetJson(base + "?rule=HB404&path=src%2Fmain.cu")["findings"].size(), 1u);
  // The first job of a repository has nothing to compare with: all new, none fixed.
  EXPECT_EQ(GetJson("/api/v1/jobs/" + first_ + "/findings?change=new")["findings"].size(), 3u);
  EXPECT_EQ(GetJson("/api/v1/jobs/" + first_ + "/findings?change=fixed")["findings"].size(), 0u);

  // Page by page through all three.
  std::vector<std::string> rules;
  std::string token;
  for (int page = 0; page < 5; ++page) {
    json body = GetJson(base + "?page_size=1" + (token.empty() ? "" : "&page_token=" + UrlEncode(token)));
    for (const auto& finding : body["findings"]) rules.push_back(finding["rule_id"]);
    token = body["next_page_token"];
    if (token.empty()) break;
  }
  EXPECT_EQ(rules, (std::vector<std::string>{"HB101", "HB102", "HB404"}));

  json groups = GetJson(base + "/rules");
  ASSERT_EQ(groups["rules"].size(), 3u);
  EXPECT_EQ(groups["rules"][1]["rule_id"], "HB102");
  EXPECT_EQ(groups["rules"][1]["new"], 1);
  EXPECT_EQ(groups["rules"][1]["auto_fixed"], 1);

  ExpectError(base + "?severity=fatal", 400, "severity must be one of");
  ExpectError(base + "?change=gone", 400, "change must be one of");
  ExpectError(base + "?page_token=" + UrlEncode("eyJrIjoiam9icyJ9"), 400, "invalid page token");  // a jobs token
  ExpectError(base + "?since=00000000-0000-0000-0000-000000000000", 404, "no job");
}

TEST_F(DashboardApiTest, BuildsTestsParityProfileEffortAndPatch) {
  SeedTwoJobs();
  const std::string job = "/api/v1/jobs/" + second_;
  json builds = GetJson(job + "/builds")["builds"];
  ASSERT_EQ(builds.size(), 1u);
  EXPECT_EQ(builds[0]["arch"], "gfx90a");
  EXPECT_EQ(builds[0]["kernels"][0]["vgprs"], 24);
  EXPECT_EQ(builds[0]["kernels"][0]["lds_bytes"], 1024);
  EXPECT_EQ(GetJson(job + "/tests")["tests"][0]["status"], "passed");
  json parity = GetJson(job + "/parity")["parity"];
  EXPECT_EQ(parity[0]["verdict"], "mismatch");
  EXPECT_EQ(parity[0]["detail"], "first mismatch at [12]: 1.5 vs 1.0");
  EXPECT_EQ(GetJson(job + "/profile")["profile"][0]["ratio"], 2.0);
  EXPECT_EQ(GetJson(job + "/effort")["effort"]["automatic_share"], 0.75);
  json patch = GetJson(job + "/patch?path=src%2Fkernel.cu");
  ASSERT_EQ(patch["hunks"].size(), 1u);
  EXPECT_EQ(patch["hunks"][0]["old_start"], 10);
  EXPECT_EQ(patch["hunks"][0]["lines"][1], "+#include <hip/hip_runtime.h>");
  EXPECT_TRUE(GetJson(job + "/patch?path=src%2Fnone.cu")["hunks"].empty());
  ExpectError(job + "/patch", 400, "needs a path");
  ExpectError(job + "/builds?x=1", 400, "unknown query parameter");
}

// The job page's downloads: stored artifacts as migrate-cli fetch writes them, SARIF and JUnit through migrate-cli
// report's renderers (common/report/report_render.h) over the report GET .../report answers; team-scoped as the rest.
TEST_F(DashboardApiTest, DownloadsArePatchTreeSarifJUnitAndBuildLogWithTheirTypesAndNames) {
  SeedTwoJobs();
  const std::string job = "/api/v1/jobs/" + second_ + "/download/";
  const std::string name = "hipforge-" + second_.substr(0, 8);
  auto expect_file = [&](const std::string& what, const std::string& type, const std::string& file) {
    HttpResult got = Get(job + what);
    EXPECT_EQ(got.status, 200) << what << ": " << got.body;
    EXPECT_EQ(got.headers["content-type"], type) << what;
    EXPECT_EQ(got.headers["content-disposition"], "attachment; filename=\"" + file + "\"") << what;
    return got.body;
  };
  EXPECT_EQ(expect_file("patch", "text/x-diff; charset=utf-8", name + ".patch"),
            "--- a/src/kernel.cu\n+++ b/src/kernel.cu\n@@ -10,2 +10,2 @@\n-#include <cuda_runtime.h>\n"
            "+#include <hip/hip_runtime.h>\n int x;\n");
  EXPECT_EQ(expect_file("build-log", "text/plain; charset=utf-8", name + "-build.log"), BuildLog(second_));

  const json report = GetJson("/api/v1/jobs/" + second_ + "/report");
  json sarif = json::parse(expect_file("sarif", "application/sarif+json", name + ".sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_EQ(sarif["runs"][0]["tool"]["driver"]["version"], HIPFORGE_VERSION);
  // helpUri: this dashboard's own rule pages, absolute (code scanning drops relative ones).
  const std::string rules = "http://127.0.0.1:" + std::to_string(app_->http_port()) + "/rules/";
  const json& rule = sarif["runs"][0]["tool"]["driver"]["rules"][0];
  EXPECT_EQ(rule["helpUri"], rules + rule["id"].get<std::string>() + ".md");
  EXPECT_EQ(sarif["runs"][0]["results"].size(), report["findings"].size());
  // Exactly what migrate-cli report --format sarif --help-uri-base <rules> renders from the same report.
  const report::RenderOptions render{
      .rule_catalog = translate::RuleCatalogToJson(), .help_uri_base = rules, .tool_version = HIPFORGE_VERSION};
  const report::ReportDocument document = report::ReadReportDocument(report).value();
  EXPECT_EQ(sarif, report::RenderSarif(document, render));
  const std::string junit = expect_file("junit", "application/xml; charset=utf-8", name + "-junit.xml");
  EXPECT_EQ(junit, report::RenderJUnit(document));
  EXPECT_TRUE(absl::StrContains(junit, "HB101")) << junit;  // the open error fails its rule's case

  // The translate worker of these jobs stored no tree: said so, not an empty file.
  ExpectError(job + "tree", 404, "has no translated tree");
  ExpectError(job + "zip", 404, "no such download");
  ExpectError(job + "patch?x=1", 400, "unknown query parameter");
  ExpectError(job + "sarif", 404, "", "other-token");  // another team's job, as a missing one
  EXPECT_EQ(Get(job + "patch", {}, "").status, 401);
}

TEST_F(DashboardApiTest, CompareAndTrendsOfOneRepository) {
  SeedTwoJobs();
  json compare = GetJson("/api/v1/compare?base=" + first_ + "&head=" + second_);
  EXPECT_EQ(compare["new"], 1);
  EXPECT_EQ(compare["fixed"], 1);
  EXPECT_EQ(compare["unchanged"], 2);
  EXPECT_EQ(compare["base"]["id"], first_);
  EXPECT_EQ(compare["head"]["summary"]["parity_mismatch"], 1);
  ExpectError("/api/v1/compare?base=" + first_, 400, "base and head");
  ExpectError("/api/v1/compare?base=" + first_ + "&head=" + second_, 404, "no job", "other-token");

  json trends = GetJson("/api/v1/trends?repository=org%2Fapp&limit=10");
  ASSERT_EQ(trends["points"].size(), 2u);
  EXPECT_EQ(trends["points"][0]["job_id"], first_);  // oldest first
  EXPECT_EQ(trends["points"][0]["summary"]["findings"], 3);
  EXPECT_EQ(trends["points"][1]["summary"]["engineer_hours"], 1.5);
  EXPECT_EQ(GetJson("/api/v1/trends?repository=org%2Fapp", 200, "other-token")["points"].size(), 0u);
  ExpectError("/api/v1/trends", 400, "need a repository");
  ExpectError("/api/v1/trends?repository=x&limit=-1", 400, "limit");
}

TEST_F(DashboardApiTest, EventsStreamTheJobsEventsAndEnd) {
  SeedTwoJobs();
  HttpResult stream = Get("/api/v1/jobs/" + first_ + "/events");
  EXPECT_EQ(stream.status, 200);
  EXPECT_EQ(stream.headers["content-type"], "text/event-stream");
  EXPECT_TRUE(absl::StrContains(stream.body, "event: state\ndata: {")) << stream.body;
  EXPECT_TRUE(absl::StrContains(stream.body, "\"to\":\"JOB_STATE_SUCCEEDED\"")) << stream.body;
  EXPECT_TRUE(absl::StrContains(stream.body, "event: end\ndata: {\"ok\":true,\"state\":\"JOB_STATE_SUCCEEDED\"}"))
      << stream.body;
  // Resuming after the last id delivers nothing but the end.
  const size_t last_id = stream.body.rfind("id: ");
  ASSERT_NE(last_id, std::string::npos);
  const std::string seq = stream.body.substr(last_id + 4, stream.body.find('\n', last_id) - last_id - 4);
  HttpResult resumed = Get("/api/v1/jobs/" + first_ + "/events", {{"last-event-id", seq}});
  EXPECT_FALSE(absl::StrContains(resumed.body, "id: ")) << resumed.body;
  EXPECT_TRUE(absl::StrContains(resumed.body, "event: end"));
  ExpectError("/api/v1/jobs/" + first_ + "/events?after=x", 400, "after");
  ExpectError("/api/v1/jobs/" + first_ + "/events", 404, "no job", "other-token");
}

TEST_F(DashboardApiTest, EventsOfARunningJobArriveLive) {
  v1::JobSpec spec = TestSpec("live", "qa", /*translate_only=*/true);
  SubmitOutcome submitted = SubmitArchive(*api_, spec, SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok());
  const std::string job_id = submitted.job.id();
  std::thread worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_TRUE(Register(*workers_, "w", v1::TASK_ROLE_TRANSLATE).ok());
    std::optional<v1::Task> task = Lease(*workers_, "w", 5000);
    ASSERT_TRUE(task.has_value());
    v1::CompleteResponse response;
    EXPECT_TRUE(Complete(*workers_, *task, TranslationReport(job_id, 1), {}, &response).ok());
  });
  // The stream opens while the job is queued and ends once the worker finished it.
  HttpResult stream = Get("/api/v1/jobs/" + job_id + "/events");
  worker.join();
  EXPECT_TRUE(absl::StrContains(stream.body, "\"to\":\"JOB_STATE_TRANSLATING\"")) << stream.body;
  EXPECT_TRUE(absl::StrContains(stream.body, "event: end\ndata: {\"ok\":true,\"state\":\"JOB_STATE_SUCCEEDED\"}"))
      << stream.body;
  // A running job's views are not cached.
  EXPECT_EQ(Get("/api/v1/jobs/" + job_id).headers.count("etag"), 1u);  // final by now
}

}  // namespace
}  // namespace hipforge::server::testing
