// migrate-server's ServerApp (embedded PostgreSQL, in-process translate workers, the HTTP dashboard) with
// a one-token authenticator, for the browser test while API tokens (the security work) are not in
// migrate-server yet: everything but the token check is the real server.
//
//   dashboard_test_server --data-dir D --port-file F --web-root W --token T --team TEAM
#include <csignal>
#include <thread>

#include <CLI/CLI.hpp>

#include "common/clock.h"
#include "common/process.h"
#include "server/server_app.h"

namespace {

volatile std::sig_atomic_t g_signal = 0;
void OnSignal(int signal) { g_signal = signal; }

class OneTokenAuthenticator final : public hipforge::server::CallerAuthenticator {
 public:
  OneTokenAuthenticator(std::string token, std::string team) : expected_("Bearer " + token), team_(team) {}
  absl::StatusOr<hipforge::server::Caller> Authenticate(std::string_view authorization) const override {
    if (authorization != expected_) return absl::UnauthenticatedError("unknown token");
    return hipforge::server::Caller{team_, {hipforge::server::Scope::kRead, hipforge::server::Scope::kSubmit}, "test"};
  }

 private:
  std::string expected_, team_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dashboard test server"};
  hipforge::server::ServerConfig config;
  std::string token, team;
  app.add_option("--data-dir", config.data_dir)->required();
  app.add_option("--port-file", config.port_file)->required();
  app.add_option("--web-root", config.web_root)->required();
  app.add_option("--token", token)->required();
  app.add_option("--team", team)->required();
  CLI11_PARSE(app, argc, argv);
  config.listen = "127.0.0.1:0";
  config.http_listen = "127.0.0.1:0";
  config.embedded_durable = false;
  config.local_workers = 1;
  config.local_worker_roles = {"translate"};
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGPIPE, SIG_IGN);
  hipforge::BoostProcessLauncher launcher;
  hipforge::SystemClock clock;
  OneTokenAuthenticator authenticator(token, team);
  auto server = hipforge::server::ServerApp::Start(config, launcher, clock, &authenticator);
  if (!server.ok()) {
    std::fprintf(stderr, "cannot start: %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  (*server)->Shutdown();
  return 0;
}
