// Security through the real binaries: `migrate-server token` against a running server, TLS (right
// CA, wrong CA, wrong name, mTLS without a client certificate, certificates rotated without a
// restart) for migrate-cli and migrate-worker, and no secret in any output.
#include <signal.h>

#include <fstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/e2e/child_process.h"
#include "tests/server/store/postgres_test_env.h"
#include "tests/support/token_cli.h"

namespace hipforge::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Ran {
  int exit_code = -1;
  std::string out, err;
};

class SecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hipforge-security-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    StopProcesses();
    std::error_code ignored;
    if (!HasFailure()) fs::remove_all(dir_, ignored);
  }
  void StopProcesses() {
    workers_.clear();
    if (server_) {
      server_->Signal(SIGTERM);
      server_->Wait(30s);
      server_.reset();
    }
  }

  // Starts migrate-server with `extra` flags on the test database (or embedded); waits for its port.
  void StartServer(std::vector<std::string> extra, bool embedded = false) {
    const fs::path port_file = dir_ / "port";
    fs::remove(port_file);
    std::vector<std::string> argv = {
        HIPFORGE_SERVER_BIN,      "--listen",    "127.0.0.1:0",      "--http-listen", "127.0.0.1:0", "--data-dir",
        (dir_ / "data").string(), "--port-file", port_file.string(), "--log-level",   "debug"};
    if (embedded) {
      argv.insert(argv.end(), {"--embedded-durable", "false"});
      database_args_ = {"--data-dir", (dir_ / "data").string()};
    } else {
      if (schema_.empty()) schema_ = server::testing::FreshSchemaName();
      database_args_ = {"--database-url", server::testing::TestDatabaseUrl(), "--database-schema", schema_};
      argv.insert(argv.end(), database_args_.begin(), database_args_.end());
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ChildProcess>(argv, dir_ / "server.log");
    port_ = WaitForPortFile(port_file, 120s);
    ASSERT_GT(port_, 0) << "server did not start:\n" << server_->Log();
  }

  Ran Run(std::vector<std::string> argv, std::map<std::string, std::string> env = {}) {
    ProcessSpec spec;
    spec.argv = std::move(argv);
    spec.environment = std::move(env);
    spec.timeout = 5min;
    Ran ran;
    absl::StatusOr<ProcessResult> result = launcher_.Run(spec);
    if (!result.ok()) {
      ran.err = std::string(result.status().message());
      return ran;
    }
    ran.exit_code = result->exit_code;
    ran.out = result->standard_output;
    ran.err = result->standard_error;
    cli_output_ += ran.out + ran.err;
    return ran;
  }

  Ran Cli(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
    args.insert(args.begin(), {HIPFORGE_CLI_BIN, "--server", "127.0.0.1:" + std::to_string(port_), "--timeout", "10"});
    return Run(std::move(args), std::move(env));
  }

  std::string NewTeamToken(const std::string& team = "sec") {
    TokenCliResult created = CreateTeamToken(HIPFORGE_SERVER_BIN, database_args_, team);
    EXPECT_EQ(created.exit_code, 0) << created.err;
    cli_output_ += created.err;
    return created.token;
  }

  // A CA and certificates it signs, made with openssl; EC keys keep it fast.
  void MakeCertificates(const std::string& ca, const std::string& leaf, const std::string& san,
                        const std::string& usage) {
    const std::string script = "set -e; cd '" + dir_.string() +
                               "'\n"
                               "[ -f " +
                               ca +
                               ".pem ] || openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
                               "-keyout " +
                               ca + ".key -out " + ca + ".pem -days 2 -subj /CN=" + ca +
                               " 2>/dev/null\n"
                               "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
                               leaf + ".key -out " + leaf + ".csr -subj /CN=" + leaf +
                               " 2>/dev/null\n"
                               "printf 'subjectAltName=" +
                               san + "\\nextendedKeyUsage=" + usage + "\\n' > " + leaf +
                               ".ext\n"
                               "openssl x509 -req -in " +
                               leaf + ".csr -CA " + ca + ".pem -CAkey " + ca + ".key -CAcreateserial -out " + leaf +
                               ".pem -days 2 -extfile " + leaf + ".ext 2>/dev/null\n";
    Ran ran = Run({"/bin/sh", "-c", script});
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
  }
  std::string Pem(const std::string& name) { return (dir_ / (name + ".pem")).string(); }
  std::string Key(const std::string& name) { return (dir_ / (name + ".key")).string(); }

  fs::path dir_;
  std::string schema_;
  std::vector<std::string> database_args_;
  BoostProcessLauncher launcher_;
  std::unique_ptr<ChildProcess> server_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
  int port_ = 0;
  std::string cli_output_;  // everything the CLI and token commands printed
};

TEST_F(SecurityTest, TokenCommandsWorkWhileTheEmbeddedServerRuns) {
  ASSERT_NO_FATAL_FAILURE(StartServer({}, /*embedded=*/true));
  const std::string token = NewTeamToken("sec");
  ASSERT_THAT(token, ::testing::MatchesRegex("hft_[0-9a-f]{12}_[0-9a-f]{48}"));
  const std::string id = token.substr(0, 16);

  Ran anonymous = Cli({"list"});
  EXPECT_EQ(anonymous.exit_code, 11) << anonymous.err;
  EXPECT_THAT(anonymous.err, HasSubstr("no API token"));
  Ran listed = Cli({"list"}, {{"MIGRATE_TOKEN", token}});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;

  Ran tokens = Run({HIPFORGE_SERVER_BIN, "token", "list", "--data-dir", (dir_ / "data").string()});
  ASSERT_EQ(tokens.exit_code, 0) << tokens.err;
  EXPECT_THAT(tokens.out, HasSubstr(id));
  EXPECT_THAT(tokens.out, HasSubstr("active"));
  EXPECT_THAT(tokens.out, Not(HasSubstr(token.substr(17))));  // never the secret

  Ran revoked = Run({HIPFORGE_SERVER_BIN, "token", "revoke", id, "--data-dir", (dir_ / "data").string()});
  ASSERT_EQ(revoked.exit_code, 0) << revoked.err;
  Ran refused = Cli({"list"}, {{"MIGRATE_TOKEN", token}});
  EXPECT_EQ(refused.exit_code, 11);
  EXPECT_THAT(refused.err, HasSubstr(id + " was revoked"));

  // The audit trail has both, readable by the admin command.
  Ran audit = Run({HIPFORGE_SERVER_BIN, "audit", "--data-dir", (dir_ / "data").string()});
  ASSERT_EQ(audit.exit_code, 0) << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("token_create  " + id));
  EXPECT_THAT(audit.out, HasSubstr("token_revoke  " + id));

  // The config file in the XDG config dir works too, and must not be readable by others.
  const fs::path config_home = dir_ / "xdg";
  fs::create_directories(config_home / "hipforge");
  const std::string fresh = NewTeamToken("sec");
  std::ofstream(config_home / "hipforge" / "config.yaml") << "token: " << fresh << "\n";
  fs::permissions(config_home / "hipforge" / "config.yaml", fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(Cli({"list"}, {{"XDG_CONFIG_HOME", config_home.string()}}).exit_code, 0);
  fs::permissions(config_home / "hipforge" / "config.yaml", fs::perms::others_read, fs::perm_options::add);
  Ran open_file = Cli({"list"}, {{"XDG_CONFIG_HOME", config_home.string()}});
  EXPECT_NE(open_file.exit_code, 0);
  EXPECT_THAT(open_file.err, HasSubstr("chmod 600"));
}

TEST_F(SecurityTest, TlsRightCaWrongCaWrongNameMtlsAndRotation) {
  ASSERT_NO_FATAL_FAILURE(MakeCertificates("ca1", "server", "DNS:hipforge.test", "serverAuth"));
  ASSERT_NO_FATAL_FAILURE(MakeCertificates("ca2", "server2", "DNS:hipforge.test", "serverAuth"));
  ASSERT_NO_FATAL_FAILURE(MakeCertificates("ca1", "client", "DNS:client.test", "clientAuth"));
  // The server reads these paths; rotation replaces their content.
  fs::copy_file(Pem("server"), dir_ / "live.pem");
  fs::copy_file(Key("server"), dir_ / "live.key");
  ASSERT_NO_FATAL_FAILURE(
      StartServer({"--tls-cert", (dir_ / "live.pem").string(), "--tls-key", (dir_ / "live.key").string(),
                   "--tls-reload-seconds", "1", "--local-workers", "1"}));
  const std::string token = NewTeamToken();
  const std::map<std::string, std::string> env = {{"MIGRATE_TOKEN", token}};

  Ran right = Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "hipforge.test", "list"}, env);
  EXPECT_EQ(right.exit_code, 0) << right.err;
  Ran wrong_ca = Cli({"--tls-ca", Pem("ca2"), "--tls-server-name", "hipforge.test", "list"}, env);
  EXPECT_EQ(wrong_ca.exit_code, 2) << wrong_ca.err;
  EXPECT_THAT(wrong_ca.err, HasSubstr("TLS"));
  Ran wrong_name = Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "other.test", "list"}, env);
  EXPECT_EQ(wrong_name.exit_code, 2) << wrong_name.err;
  EXPECT_THAT(wrong_name.err, HasSubstr("TLS"));
  Ran plaintext = Cli({"list"}, env);
  EXPECT_NE(plaintext.exit_code, 0);

  // The whole path over TLS: a migrate-worker with the right CA translates a job the CLI submits
  // (the server's in-process worker reaches it over its private socket).
  TokenCliResult worker_credential = CreateWorkerCredential(HIPFORGE_SERVER_BIN, database_args_, "tls", "translate");
  ASSERT_EQ(worker_credential.exit_code, 0) << worker_credential.err;
  WriteSecretFile(dir_ / "worker.token", worker_credential.token);
  auto worker_args = [&](const std::string& id, const std::string& ca) {
    return std::vector<std::string>{HIPFORGE_WORKER_BIN,
                                    "--server",
                                    "127.0.0.1:" + std::to_string(port_),
                                    "--role",
                                    "translate",
                                    "--id",
                                    id,
                                    "--token-file",
                                    (dir_ / "worker.token").string(),
                                    "--tls-ca",
                                    ca,
                                    "--tls-server-name",
                                    "hipforge.test",
                                    "--lease-wait-ms",
                                    "1000",
                                    "--scratch-dir",
                                    (dir_ / ("scratch-" + id)).string(),
                                    "--log-level",
                                    "debug"};
  };
  workers_.push_back(std::make_unique<ChildProcess>(worker_args("w-right", Pem("ca1")), dir_ / "w-right.log"));
  workers_.push_back(std::make_unique<ChildProcess>(worker_args("w-wrong", Pem("ca2")), dir_ / "w-wrong.log"));
  Ran submitted = Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "hipforge.test", "submit",
                       (fs::path(HIPFORGE_EXAMPLES_DIR) / "cuda-vector-stats").string(), "--wait", "--translate-only",
                       "--wait-timeout", "300"},
                      env);
  EXPECT_EQ(submitted.exit_code, 0) << submitted.err << ReadAll(dir_ / "server.log");
  std::this_thread::sleep_for(2s);
  const std::string wrong_log = ReadAll(dir_ / "w-wrong.log");
  EXPECT_THAT(wrong_log, Not(HasSubstr("registered"))) << wrong_log;

  // Rotation without a restart: the server now presents a certificate of ca2.
  fs::copy_file(Pem("server2"), dir_ / "live.pem.new");
  fs::copy_file(Key("server2"), dir_ / "live.key.new");
  fs::rename(dir_ / "live.key.new", dir_ / "live.key");
  fs::rename(dir_ / "live.pem.new", dir_ / "live.pem");
  bool rotated = false;
  for (int i = 0; i < 30 && !rotated; ++i) {
    std::this_thread::sleep_for(500ms);
    rotated = Cli({"--tls-ca", Pem("ca2"), "--tls-server-name", "hipforge.test", "list"}, env).exit_code == 0;
  }
  EXPECT_TRUE(rotated) << "the server kept its old certificate";
  EXPECT_NE(Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "hipforge.test", "list"}, env).exit_code, 0);
  StopProcesses();

  // mTLS: a client without a certificate is refused; with one signed by the client CA it is served.
  fs::copy_file(Pem("server"), dir_ / "live.pem", fs::copy_options::overwrite_existing);
  fs::copy_file(Key("server"), dir_ / "live.key", fs::copy_options::overwrite_existing);
  ASSERT_NO_FATAL_FAILURE(StartServer({"--tls-cert", (dir_ / "live.pem").string(), "--tls-key",
                                       (dir_ / "live.key").string(), "--tls-client-ca", Pem("ca1")}));
  Ran without_cert = Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "hipforge.test", "list"}, env);
  EXPECT_EQ(without_cert.exit_code, 2) << without_cert.err;
  Ran with_cert = Cli({"--tls-ca", Pem("ca1"), "--tls-server-name", "hipforge.test", "--tls-cert", Pem("client"),
                       "--tls-key", Key("client"), "list"},
                      env);
  EXPECT_EQ(with_cert.exit_code, 0) << with_cert.err;
}

TEST_F(SecurityTest, TokensAndDatabasePasswordsAppearInNoOutput) {
  // A password in the database URL: the test cluster trusts local connections, so it is carried
  // (and must be hidden) without being checked.
  const std::string password = "pw-" + std::to_string(::getpid()) + "-never-printed";
  std::string url = server::testing::TestDatabaseUrl();
  if (url.rfind("postgresql://postgres@", 0) == 0) {
    url.replace(0, std::string("postgresql://postgres@").size(), "postgresql://postgres:" + password + "@");
  } else {
    url += " password=" + password;
  }
  schema_ = server::testing::FreshSchemaName();
  const fs::path url_file = dir_ / "database.url";
  WriteSecretFile(url_file, url);
  const fs::path port_file = dir_ / "port";
  server_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{HIPFORGE_SERVER_BIN, "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0",
                               "--data-dir", (dir_ / "data").string(), "--port-file", port_file.string(),
                               "--database-url-file", url_file.string(), "--database-schema", schema_,
                               "--local-workers", "1", "--log-level", "trace"},
      dir_ / "server.log");
  port_ = WaitForPortFile(port_file, 120s);
  ASSERT_GT(port_, 0) << server_->Log();
  database_args_ = {"--database-url", url, "--database-schema", schema_};
  const std::string token = NewTeamToken();
  TokenCliResult worker_credential = CreateWorkerCredential(HIPFORGE_SERVER_BIN, database_args_, "grep", "translate");
  ASSERT_EQ(worker_credential.exit_code, 0) << worker_credential.err;
  WriteSecretFile(dir_ / "worker.token", worker_credential.token);
  workers_.push_back(std::make_unique<ChildProcess>(
      std::vector<std::string>{HIPFORGE_WORKER_BIN, "--server", "127.0.0.1:" + std::to_string(port_), "--role",
                               "translate", "--id", "grep-worker", "--token-file", (dir_ / "worker.token").string(),
                               "--scratch-dir", (dir_ / "scratch").string(), "--log-level", "trace"},
      dir_ / "worker.log"));

  const std::map<std::string, std::string> env = {{"MIGRATE_TOKEN", token}};
  Ran submitted = Cli({"submit", (fs::path(HIPFORGE_EXAMPLES_DIR) / "cuda-vector-stats").string(), "--wait",
                       "--translate-only", "--wait-timeout", "300"},
                      env);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job_id = submitted.out.substr(0, submitted.out.find('\n'));
  EXPECT_EQ(Cli({"report", job_id, "--format", "json"}, env).exit_code, 0);
  EXPECT_EQ(Cli({"status", job_id}, env).exit_code, 0);
  // `list --json` (for CI): one JSON document of the API's Job messages.
  Ran listed = Cli({"list", "--json"}, env);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("\"jobs\": ["));
  EXPECT_THAT(listed.out, HasSubstr("\"id\": \"" + job_id + "\""));
  EXPECT_THAT(listed.out, HasSubstr("\"next_page_token\": \"\""));
  // Errors with secrets in them: a bad token and an unreachable database named with a password.
  Ran bad = Cli({"--token", token.substr(0, 17) + std::string(48, '0'), "list"});
  EXPECT_EQ(bad.exit_code, 11);
  Ran unreachable =
      Run({HIPFORGE_SERVER_BIN, "token", "list", "--database-url", "postgresql://app:" + password + "@127.0.0.1:1/x"});
  EXPECT_NE(unreachable.exit_code, 0);
  Ran unreachable_server =
      Run({HIPFORGE_SERVER_BIN, "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--data-dir",
           (dir_ / "data2").string(), "--database-url", "postgresql://app:" + password + "@127.0.0.1:1/x"});
  EXPECT_NE(unreachable_server.exit_code, 0);
  StopProcesses();

  const std::string outputs = ReadAll(dir_ / "server.log") + ReadAll(dir_ / "worker.log") + cli_output_;
  ASSERT_THAT(outputs, HasSubstr(job_id));  // the logs are there and say something
  for (const std::string& secret : {token.substr(17), worker_credential.token.substr(17), password}) {
    EXPECT_THAT(outputs, Not(HasSubstr(secret))) << "secret found in output";
  }
  // The visible ids are fine (and useful) in logs.
  EXPECT_THAT(ReadAll(dir_ / "server.log"), HasSubstr(token.substr(0, 16)));
}

}  // namespace
}  // namespace hipforge::testing
