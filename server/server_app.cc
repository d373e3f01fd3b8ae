#include "server/server_app.h"

#include <fstream>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "server/grpc_services.h"
#include "server/http/dashboard_api.h"
#include "server/http/http_server.h"
#include "server/job_service.h"
#include "server/lease_rescuer.h"
#include "server/orphan_collector.h"
#include "server/store/artifact_store.h"
#include "server/store/dashboard_reader.h"
#include "server/store/embedded_postgres.h"
#include "server/store/postgres_job_store.h"
#include "server/task_service.h"
#include "worker/role_set.h"
#include "worker/worker.h"

namespace hipforge::server {

namespace fs = std::filesystem;

// Declaration order is construction order; destruction runs backwards (workers first, PG last).
struct ServerApp::Parts {
  std::unique_ptr<EmbeddedPostgres> embedded;
  std::unique_ptr<JobStore> store;
  std::unique_ptr<ArtifactStore> artifacts;
  std::unique_ptr<JobService> jobs;
  std::unique_ptr<TaskService> tasks;
  std::unique_ptr<GrpcMigrationService> migration_api;
  std::unique_ptr<GrpcWorkerService> worker_api;
  std::unique_ptr<grpc::Server> grpc_server;
  std::unique_ptr<DashboardReader> dashboard_reader;
  std::unique_ptr<http::DashboardApi> dashboard_api;
  std::unique_ptr<http::HttpServer> http_server;
  std::unique_ptr<LeaseRescuer> rescuer;
  std::unique_ptr<OrphanArtifactCollector> orphan_collector;
  std::vector<std::unique_ptr<worker::RoleSet>> role_sets;
  std::vector<std::unique_ptr<worker::Worker>> workers;
  std::vector<std::jthread> worker_threads;
  bool shut_down = false;
};

ServerApp::ServerApp(std::unique_ptr<Parts> parts) : parts_(std::move(parts)), store_(parts_->store.get()) {}

ServerApp::~ServerApp() { Shutdown(); }

absl::StatusOr<std::unique_ptr<ServerApp>> ServerApp::Start(const ServerConfig& config, ProcessLauncher& launcher,
                                                            const Clock& clock,
                                                            const CallerAuthenticator* authenticator) {
  auto parts = std::make_unique<Parts>();
  std::error_code ec;
  fs::create_directories(config.data_dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create data dir ", config.data_dir.string(), ": ", ec.message()));
  const fs::path data_dir = fs::absolute(config.data_dir);

  std::string database_url = config.database_url;
  if (database_url.empty()) {
    EmbeddedPostgresOptions pg;
    pg.data_dir = data_dir / "pg";
    pg.durable = config.embedded_durable;
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> embedded = EmbeddedPostgres::Start(launcher, pg);
    if (!embedded.ok()) {
      return absl::Status(embedded.status().code(),
                          absl::StrCat("embedded PostgreSQL: ", embedded.status().message()));
    }
    parts->embedded = *std::move(embedded);
    database_url = parts->embedded->ConnectionString();
    spdlog::info("[job=-] embedded PostgreSQL running in {}", pg.data_dir.string());
  }
  PostgresStoreOptions store_options;
  store_options.database_url = database_url;
  store_options.schema = config.database_schema;
  store_options.default_max_attempts = config.max_attempts;
  absl::StatusOr<std::unique_ptr<JobStore>> store = OpenPostgresJobStore(store_options, clock);
  if (!store.ok()) return store.status();
  parts->store = *std::move(store);

  // Upload checks and local workers' task dirs live in <data>/scratch; one server owns the data dir,
  // so whatever is there now was left by a process that was killed: start empty.
  const fs::path scratch_dir = data_dir / "scratch";
  for (fs::directory_iterator it(scratch_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    spdlog::info("[job=-] removing leftover scratch {}", it->path().string());
    fs::remove_all(it->path(), ignored);
  }
  ec.clear();
  parts->artifacts = std::make_unique<ArtifactStore>(data_dir, config.limits.max_artifact_bytes);
  if (absl::Status status = parts->artifacts->Init(); !status.ok()) return status;
  parts->jobs = std::make_unique<JobService>(*parts->store, *parts->artifacts, clock, config.limits,
                                             scratch_dir);
  parts->tasks = std::make_unique<TaskService>(*parts->store, *parts->artifacts, clock, config.limits);
  parts->migration_api = std::make_unique<GrpcMigrationService>(*parts->jobs);
  parts->worker_api = std::make_unique<GrpcWorkerService>(*parts->tasks);

  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(config.listen, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(parts->migration_api.get());
  builder.RegisterService(parts->worker_api.get());
  builder.SetMaxReceiveMessageSize(16 << 20);
  builder.SetMaxSendMessageSize(16 << 20);
  parts->grpc_server = builder.BuildAndStart();
  if (!parts->grpc_server || port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.listen));
  }
  spdlog::info("[job=-] listening on {} (port {})", config.listen, port);
  int http_port = 0;
  if (!config.http_listen.empty() && authenticator == nullptr) {
    spdlog::warn("[job=-] no HTTP dashboard: it needs the API token authenticator");
  } else if (!config.http_listen.empty()) {
    absl::StatusOr<std::unique_ptr<DashboardReader>> reader =
        OpenPostgresDashboardReader(database_url, config.database_schema);
    if (!reader.ok()) return reader.status();
    parts->dashboard_reader = *std::move(reader);
    http::DashboardApiOptions api_options;
    api_options.web_root = config.web_root;
    parts->dashboard_api = std::make_unique<http::DashboardApi>(*parts->dashboard_reader, *parts->jobs,
                                                                *authenticator, api_options);
    absl::StatusOr<std::unique_ptr<http::HttpServer>> http_server =
        http::HttpServer::Start(config.http_listen, *parts->dashboard_api);
    if (!http_server.ok()) return http_server.status();
    parts->http_server = *std::move(http_server);
    http_port = parts->http_server->port();
    spdlog::info("[job=-] dashboard on http://{}:{}/ (web UI from {})",
                 config.http_listen.substr(0, config.http_listen.rfind(':')), http_port, config.web_root.string());
  }
  parts->rescuer = std::make_unique<LeaseRescuer>(*parts->store, config.rescue_interval);
  parts->orphan_collector = std::make_unique<OrphanArtifactCollector>(
      *parts->store, *parts->artifacts, config.limits.orphan_artifact_grace, config.limits.orphan_scan_interval);

  if (config.local_workers > 0) {
    std::vector<v1::TaskRole> roles;
    for (const std::string& name : config.local_worker_roles) {
      absl::StatusOr<v1::TaskRole> role = worker::ParseRole(name);
      if (!role.ok()) return role.status();
      roles.push_back(*role);
    }
    // Local workers talk to this server over gRPC loopback, exactly like remote ones.
    auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials());
    for (int i = 0; i < config.local_workers; ++i) {
      absl::StatusOr<std::unique_ptr<worker::RoleSet>> role_set = worker::MakeRoleSet(roles, launcher, {});
      if (!role_set.ok()) return role_set.status();
      worker::WorkerOptions options;
      options.worker_id = absl::StrCat("local-", getpid(), "-", i);
      options.capabilities = (*role_set)->capabilities();
      options.scratch_root = scratch_dir / "workers";  // task dirs are locked: the workers can share it
      options.lease_wait = std::chrono::seconds(10);
      parts->workers.push_back(std::make_unique<worker::Worker>(channel, (*role_set)->runners(), options));
      parts->role_sets.push_back(*std::move(role_set));
    }
    for (auto& worker : parts->workers) {
      parts->worker_threads.emplace_back([w = worker.get()](std::stop_token stop) { w->Run(stop); });
    }
    spdlog::info("[job=-] {} local worker(s) started", config.local_workers);
  }

  std::unique_ptr<ServerApp> app(new ServerApp(std::move(parts)));
  app->port_ = port;
  app->http_port_ = http_port;
  auto write_port = [&ec](const fs::path& file, int value) {
    const fs::path tmp = file.string() + ".tmp";
    std::ofstream(tmp) << value << "\n";
    fs::rename(tmp, file, ec);  // atomic: readers never see a partial number
  };
  // The HTTP port first: a reader that saw the gRPC port file finds the HTTP one too.
  if (http_port != 0) {
    fs::path http_port_file = config.http_port_file;
    if (http_port_file.empty() && !config.port_file.empty()) http_port_file = config.port_file.string() + ".http";
    if (!http_port_file.empty()) write_port(http_port_file, http_port);
  }
  if (!config.port_file.empty()) write_port(config.port_file, port);
  return app;
}

void ServerApp::Shutdown() {
  if (!parts_ || parts_->shut_down) return;
  parts_->shut_down = true;
  spdlog::info("[job=-] shutting down");
  for (auto& thread : parts_->worker_threads) thread.request_stop();
  parts_->worker_threads.clear();  // joins
  parts_->workers.clear();
  parts_->role_sets.clear();
  parts_->rescuer.reset();
  parts_->orphan_collector.reset();
  if (parts_->http_server) parts_->http_server->Shutdown();  // ends event streams before the store goes
  parts_->http_server.reset();
  parts_->dashboard_api.reset();
  parts_->dashboard_reader.reset();
  if (parts_->grpc_server) parts_->grpc_server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(3));
  parts_->grpc_server.reset();
  parts_->worker_api.reset();
  parts_->migration_api.reset();
  parts_->tasks.reset();
  parts_->jobs.reset();
  parts_->store.reset();
  if (parts_->embedded) {
    if (absl::Status stopped = parts_->embedded->Stop(); !stopped.ok()) {
      spdlog::warn("[job=-] stopping embedded PostgreSQL: {}", stopped.ToString());
    }
    parts_->embedded.reset();
  }
  spdlog::info("[job=-] stopped");
}

}  // namespace hipforge::server
