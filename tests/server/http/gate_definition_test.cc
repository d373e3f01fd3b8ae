// Gate definitions per team and per repository (issue 26 item 1, migration 0012): hipforge.yaml's `gate:` checked
// at submit and recorded on the job, a team's definition set by `migrate-server gate`, the default of all five
// conditions, and the gate each one gives, read from a real migrate-server (PostgreSQL) over its HTTP API.
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "server/auth/caller.h"
#include "server/gate_command.h"
#include "server/store/gate_definition.h"
#include "server/store/team_gate_store.h"
#include "tests/server/fakes/in_memory_team_gate_store.h"
#include "tests/server/http/http_test_client.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

const json kAllConditions = {"builds", "tests", "parity", "findings", "warnings"};

TEST(GateConditionsTest, KeepsTheCanonicalOrderAndNamesAnUnknownCondition) {
  auto parsed = ParseGateConditions({"findings", " builds", "findings"}, "x");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, (std::vector<std::string>{"builds", "findings"}));
  auto listed = ParseGateConditionList("warnings, tests,parity", "--require");
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, (std::vector<std::string>{"tests", "parity", "warnings"}));
  auto unknown = ParseGateConditionList("builds,speed", "--require");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("--require: unknown gate condition 'speed'"));
  EXPECT_EQ(ParseGateConditions({}, "gate").status().code(), absl::StatusCode::kInvalidArgument);
}

// One set of checks for the PostgreSQL store and the in-memory fake.
class TeamGateStoreContractTest : public StoreTest, public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    if (GetParam() == "postgres") {
      auto opened = OpenPostgresTeamGateStore(TestDatabaseUrl(), schema_);
      ASSERT_TRUE(opened.ok()) << opened.status();
      gates_ = *std::move(opened);
    } else {
      gates_ = std::make_unique<InMemoryTeamGateStore>();
    }
  }
  std::unique_ptr<TeamGateStore> gates_;
};

TEST_P(TeamGateStoreContractTest, SetsReplacesListsAndUnsets) {
  auto none = gates_->Get("qa");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
  const auto at = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
  ASSERT_TRUE(gates_->Set({"qa", {"builds", "findings"}, "admin-cli:lead", at}).ok());
  ASSERT_TRUE(gates_->Set({"ml", {"tests"}, "admin-cli:lead", at}).ok());
  ASSERT_TRUE(gates_->Set({"qa", {"builds", "tests", "findings"}, "admin-cli:other", at}).ok());
  auto qa = gates_->Get("qa");
  ASSERT_TRUE(qa.ok() && qa->has_value()) << qa.status();
  EXPECT_EQ((*qa)->conditions, (std::vector<std::string>{"builds", "tests", "findings"}));
  EXPECT_EQ((*qa)->updated_by, "admin-cli:other");
  EXPECT_EQ((*qa)->updated_at, at);
  auto all = gates_->List();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].team, "ml");
  EXPECT_TRUE(gates_->Unset("qa").ok());
  EXPECT_EQ(gates_->Unset("qa").code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(gates_->Get("qa")->has_value());
  EXPECT_FALSE(gates_->Set({"qa", {}, "x", at}).ok());  // a gate requiring nothing is refused by the store too
}

INSTANTIATE_TEST_SUITE_P(Stores, TeamGateStoreContractTest, ::testing::Values("postgres", "memory"),
                         [](const auto& info) { return info.param; });

class QaAuthenticator final : public CallerAuthenticator {
 public:
  absl::StatusOr<Caller> Authenticate(std::string_view authorization) const override {
    if (authorization == "Bearer qa-token") return Caller{"qa", {Scope::kRead, Scope::kSubmit}, "qa"};
    return absl::UnauthenticatedError("unknown or revoked token");
  }
};

json Finding(const std::string& rule, const std::string& severity, int line, bool auto_fixed = false) {
  return {{"rule_id", rule},
          {"severity", severity},
          {"path", "src/kernel.cu"},
          {"line", line},
          {"column", 3},
          {"message", rule + " message"},
          {"fix", ""},
          {"auto_fixed", auto_fixed},
          {"source_line", "x"}};
}

// A validate report: gfx90a built; `tests_passed` tests passed (none: nothing ran, as on a compile-only worker).
json Validation(int tests_passed) {
  json tests = json::array();
  for (int i = 0; i < tests_passed; ++i) {
    tests.push_back({{"name", "t" + std::to_string(i)},
                     {"arch", "gfx90a"},
                     {"status", "passed"},
                     {"duration_ms", 30},
                     {"output_excerpt", ""}});
  }
  return {{"builds",
           {{{"requested_arch", "gfx90a"},
             {"arch", "gfx90a"},
             {"toolchain", "hipcc 6.4"},
             {"ok", true},
             {"duration_ms", 1200},
             {"errors", json::array()},
             {"kernels", json::array()}}}},
          {"tests", tests},
          {"parity", json::array()},
          {"gpu", {{"ran_on_gpu", tests_passed > 0}, {"note", ""}}}};
}

class GateDefinitionTest : public ServerTest {
 protected:
  void Configure(ServerConfig& config) override {
    config.http_listen = "127.0.0.1:0";
    config.port_file = temp_dir_ / "server.port";
  }
  const CallerAuthenticator* Authenticator() const override { return &authenticator_; }

  std::string Archive(const std::string& manifest) {
    TarBuilder tar;
    tar.File("src/kernel.cu", "__global__ void k(float* x) { x[threadIdx.x] *= 2; }\n");
    if (!manifest.empty()) tar.File("hipforge.yaml", manifest);
    return tar.Build();
  }

  // Submits a job for gfx90a with `manifest` as its hipforge.yaml (none when empty) and plays its workers with these
  // findings and validation.
  std::string RunJob(const std::string& manifest, const json& findings, const json& validation) {
    v1::JobSpec spec = TestSpec("app", "qa", /*translate_only=*/false);
    SubmitOutcome submitted = SubmitArchive(*api_, spec, Archive(manifest));
    EXPECT_TRUE(submitted.status.ok()) << submitted.status.error_message();
    const std::string job_id = submitted.job.id();
    EXPECT_TRUE(Register(*workers_, "translator", v1::TASK_ROLE_TRANSLATE).ok());
    std::optional<v1::Task> translate = Lease(*workers_, "translator", 5000);
    EXPECT_TRUE(translate.has_value());
    if (!translate) return job_id;
    json report = json::parse(TranslationReport(job_id, 1));
    report["findings"] = findings;
    v1::CompleteResponse response;
    EXPECT_TRUE(Complete(*workers_, *translate, report.dump(), {}, &response).ok());
    EXPECT_TRUE(Register(*workers_, "validator", v1::TASK_ROLE_VALIDATE).ok());
    std::optional<v1::Task> validate = Lease(*workers_, "validator", 5000);
    EXPECT_TRUE(validate.has_value());
    if (validate) EXPECT_TRUE(Complete(*workers_, *validate, validation.dump(), {}, &response).ok());
    WaitForJob(job_id, [](const v1::Job& job) { return IsFinal(job.state()); });
    return job_id;
  }

  json Job(const std::string& job_id) {
    HttpResult result = HttpGet(app_->http_port(), "/api/v1/jobs/" + job_id, {{"authorization", "Bearer qa-token"}});
    EXPECT_EQ(result.status, 200) << result.body;
    return result.Json();
  }
  json Gate(const std::string& job_id) { return Job(job_id)["summary"]["gate"]; }
  static json Condition(const json& gate, const std::string& name) {
    for (const json& condition : gate["conditions"]) {
      if (condition["name"] == name) return condition;
    }
    return nullptr;
  }

  // `migrate-server gate ...` on the test server's database; returns the exit code, output in out_/err_.
  int GateCommand(std::vector<std::string> args) {
    args.insert(args.begin(), "gate");
    args.insert(args.end(), {"--database-url", config_.database_url, "--database-schema", config_.database_schema});
    out_.str("");
    err_.str("");
    return RunGateCommand(args, out_, err_, launcher_);
  }

  QaAuthenticator authenticator_;
  std::ostringstream out_, err_;
};

TEST_F(GateDefinitionTest, RepositoryGateOfBuildsAndFindingsPassesAJobThatOnlyBuilt) {
  const json only_fixed = json::array({Finding("HB102", "error", 4, /*auto_fixed=*/true)});
  const std::string job = RunJob("targets: [gfx90a]\ngate: [findings, builds]\n", only_fixed, Validation(0));
  const json details = Job(job);
  EXPECT_EQ(details["spec"]["labels"]["hipforge.gate"], "builds,findings") << details["spec"];
  const json gate = details["summary"]["gate"];
  EXPECT_EQ(gate["status"], "passed") << gate;
  EXPECT_EQ(gate["blocking"], json::array()) << gate;
  EXPECT_EQ(gate["definition"], json({{"source", "repository"}, {"requires", {"builds", "findings"}}})) << gate;
  EXPECT_EQ(Condition(gate, "builds")["required"], true);
  EXPECT_EQ(Condition(gate, "tests")["required"], false);
  EXPECT_EQ(Condition(gate, "tests")["status"], "none");  // shown, not required
  EXPECT_EQ(Condition(gate, "warnings")["required"], false);

  // The same job under the default gate: it built, nothing about behaviour was proved.
  const std::string plain = RunJob("targets: [gfx90a]\n", only_fixed, Validation(0));
  const json by_default = Gate(plain);
  EXPECT_EQ(by_default["status"], "not_proved") << by_default;
  EXPECT_EQ(by_default["blocking"], json({"tests", "parity"})) << by_default;
  EXPECT_EQ(by_default["definition"], json({{"source", "default"}, {"requires", kAllConditions}})) << by_default;
  EXPECT_EQ(Condition(by_default, "warnings")["required"], true);
}

TEST_F(GateDefinitionTest, ATeamDefinitionAppliesWhenTheRepositoryHasNone) {
  ASSERT_EQ(GateCommand({"show", "--team", "qa"}), 0) << err_.str();
  EXPECT_THAT(out_.str(), HasSubstr("team qa: builds, tests, parity, findings, warnings (the default"));
  ASSERT_EQ(GateCommand({"set", "--team", "qa", "--require", "findings,builds"}), 0) << err_.str();
  EXPECT_THAT(out_.str(), HasSubstr("team qa: builds, findings (set by admin-cli:"));
  ASSERT_EQ(GateCommand({"show"}), 0) << err_.str();
  EXPECT_THAT(out_.str(), HasSubstr("team qa: builds, findings"));
  EXPECT_THAT(out_.str(), HasSubstr("other teams: builds, tests, parity, findings, warnings (the default)"));
  EXPECT_EQ(GateCommand({"set", "--team", "qa", "--require", "builds,speed"}), 1);
  EXPECT_THAT(err_.str(), HasSubstr("unknown gate condition 'speed'"));

  const std::string job = RunJob("", json::array(), Validation(0));
  const json gate = Gate(job);
  EXPECT_EQ(gate["status"], "passed") << gate;
  EXPECT_EQ(gate["definition"], json({{"source", "team"}, {"requires", {"builds", "findings"}}})) << gate;
  // A repository's own definition comes first.
  const std::string strict = RunJob("gate: [builds, tests]\n", json::array(), Validation(0));
  EXPECT_EQ(Gate(strict)["status"], "not_proved");
  EXPECT_EQ(Gate(strict)["definition"]["source"], "repository");
  // Back to the default: the team's jobs are judged by it as they are next read.
  ASSERT_EQ(GateCommand({"unset", "--team", "qa"}), 0) << err_.str();
  EXPECT_EQ(Gate(job)["status"], "not_proved");
  EXPECT_EQ(Gate(job)["definition"]["source"], "default");
  EXPECT_EQ(GateCommand({"unset", "--team", "qa"}), 1);
  EXPECT_THAT(err_.str(), HasSubstr("no gate definition"));
}

// A browser revalidates a finished job with If-None-Match: the team's definition judges the job when read, so a
// changed definition must not be answered 304 with the old gate.
TEST_F(GateDefinitionTest, AFinishedJobsETagChangesWithItsTeamsDefinition) {
  const std::string job = RunJob("", json::array(), Validation(0));
  const std::map<std::string, std::string> token = {{"authorization", "Bearer qa-token"}};
  auto etag_of = [&] { return HttpGet(app_->http_port(), "/api/v1/jobs/" + job, token).headers["etag"]; };
  auto revalidate = [&](const std::string& etag) {
    std::map<std::string, std::string> headers = token;
    headers["if-none-match"] = etag;
    return HttpGet(app_->http_port(), "/api/v1/jobs/" + job, headers).status;
  };
  const std::string by_default = etag_of();
  ASSERT_FALSE(by_default.empty());
  EXPECT_EQ(revalidate(by_default), 304);
  ASSERT_EQ(GateCommand({"set", "--team", "qa", "--require", "builds,findings"}), 0) << err_.str();
  EXPECT_EQ(revalidate(by_default), 200);
  const std::string by_team = etag_of();
  EXPECT_NE(by_team, by_default);
  EXPECT_EQ(Gate(job)["definition"]["source"], "team");
  ASSERT_EQ(GateCommand({"unset", "--team", "qa"}), 0) << err_.str();
  EXPECT_EQ(revalidate(by_team), 200);
  EXPECT_EQ(Gate(job)["definition"]["source"], "default");
}

TEST_F(GateDefinitionTest, AnOpenWarningBlocksOnlyAGateThatRequiresWarnings) {
  const json findings = json::array({Finding("HB201", "warning", 20), Finding("HB202", "warning", 30, true)});
  const std::string job = RunJob("", findings, Validation(2));
  const json details = Job(job);
  EXPECT_EQ(details["summary"]["open_warnings"], 1);
  const json gate = details["summary"]["gate"];
  EXPECT_EQ(gate["status"], "failed") << gate;
  EXPECT_EQ(gate["blocking"], json({"warnings"})) << gate;
  EXPECT_EQ(Condition(gate, "warnings")["status"], "failed");
  EXPECT_EQ(Condition(gate, "warnings")["detail"], "1 open warning finding(s) (may compute wrong)");

  const std::string without = RunJob("gate: [builds, tests, parity, findings]\n", findings, Validation(2));
  const json lenient = Gate(without);
  EXPECT_EQ(lenient["status"], "passed") << lenient;
  EXPECT_EQ(Condition(lenient, "warnings")["status"], "failed");  // still shown, not required
  EXPECT_EQ(Condition(lenient, "warnings")["required"], false);
}

TEST_F(GateDefinitionTest, ABadGateInHipforgeYamlIsRefusedAtSubmit) {
  v1::JobSpec spec = TestSpec("app", "qa", /*translate_only=*/false);
  SubmitOutcome bad = SubmitArchive(*api_, spec, Archive("gate: [builds, speed]\n"));
  EXPECT_EQ(bad.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.status.error_message(), HasSubstr("hipforge.yaml: gate: unknown gate condition 'speed'"));
  EXPECT_THAT(bad.status.error_message(), HasSubstr("builds, tests, parity, findings, warnings"));
  SubmitOutcome empty = SubmitArchive(*api_, spec, Archive("gate: []\n"));
  EXPECT_EQ(empty.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(empty.status.error_message(), HasSubstr("at least one condition"));
  // The label is the server's to set: a submitter cannot pick the gate by hand.
  (*spec.mutable_labels())["hipforge.gate"] = "findings";
  SubmitOutcome labelled = SubmitArchive(*api_, spec, Archive(""));
  EXPECT_EQ(labelled.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(labelled.status.error_message(), HasSubstr("label hipforge.gate is reserved"));
}

}  // namespace
}  // namespace hipforge::server::testing
