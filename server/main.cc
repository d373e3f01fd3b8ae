// migrate-server: gRPC API, scheduler and store for hipforge.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/process.h"
#include "common/redact.h"
#include "common/redacting_log.h"
#include "server/auth/token_command.h"
#include "server/gate_command.h"
#include "server/server_app.h"
#include "server/server_config.h"

namespace {

// Signals only set this flag; the main thread notices it and shuts down in order.
volatile std::sig_atomic_t g_signal = 0;
void OnSignal(int signal) { g_signal = signal; }

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::string_view(argv[1]) == "token" || std::string_view(argv[1]) == "audit")) {
    spdlog::set_level(spdlog::level::warn);
    hipforge::BoostProcessLauncher launcher;
    return hipforge::server::RunCredentialCommand(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr,
                                                  launcher);
  }
  if (argc > 1 && std::string_view(argv[1]) == "gate") {
    spdlog::set_level(spdlog::level::warn);
    hipforge::BoostProcessLauncher launcher;
    return hipforge::server::RunGateCommand(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr,
                                            launcher);
  }
  absl::StatusOr<hipforge::server::ServerConfig> config = hipforge::server::LoadServerConfig(argc, argv);
  if (!config.ok()) {
    if (config.status().code() == absl::StatusCode::kCancelled) {
      std::fputs(std::string(config.status().message()).c_str(), stdout);
      return 0;
    }
    std::fprintf(stderr, "migrate-server: %s\n",
                 hipforge::RedactSecrets(std::string(config.status().message())).c_str());
    return 2;
  }
  hipforge::InstallRedactingDefaultLogger();
  spdlog::set_level(spdlog::level::from_str(config->log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [%t] %v");
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGPIPE, SIG_IGN);

  hipforge::BoostProcessLauncher launcher;
  hipforge::SystemClock clock;
  auto app = hipforge::server::ServerApp::Start(*config, launcher, clock);
  if (!app.ok()) {
    spdlog::error("[job=-] cannot start: {}", app.status().ToString());
    return 1;
  }
  std::printf("migrate-server listening on %s\n", (*app)->address().c_str());
  std::fflush(stdout);
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  spdlog::info("[job=-] signal {} received", static_cast<int>(g_signal));
  (*app)->Shutdown();
  if ((*app)->workers_left_running()) {
    spdlog::default_logger()->flush();
    std::fflush(nullptr);
    std::_Exit(0);  // a given-back task's runner is still busy: nothing of it must be destroyed under it
  }
  return 0;
}
