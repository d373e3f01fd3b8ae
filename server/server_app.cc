#include "server/server_app.h"

#include <fstream>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"
#include "common/grpc_channel.h"
#include "server/auth/audit_trail.h"
#include "server/auth/credential_store.h"
#include "server/auth/grpc_authorizer.h"
#include "server/auth/server_tls.h"
#include "server/auth/token_authenticator.h"
#include "server/grpc_services.h"
#include "server/http/dashboard_api.h"
#include "server/http/http_server.h"
#include "server/job_service.h"
#include "server/lease_rescuer.h"
#include "server/orphan_collector.h"
#include "server/store/data_dir.h"
#include "server/store/artifact_store.h"
#include "server/store/local_artifact_store.h"
#include "server/store/postgres_artifact_store.h"
#include "server/store/dashboard_reader.h"
#include "server/store/embedded_postgres.h"
#include "server/store/postmaster_supervisor.h"
#include "server/store/postgres_job_store.h"
#include "server/task_service.h"
#include "worker/role_set.h"
#include "worker/translate/analyze/findings_json.h"
#include "worker/validate/manifest.h"
#include "worker/worker.h"

namespace hipforge::server {

namespace fs = std::filesystem;

// Declaration order is construction order; destruction runs backwards (workers first, PG last).
struct ServerApp::Parts {
  std::unique_ptr<EmbeddedPostgres> embedded;
  std::unique_ptr<PostmasterSupervisor> postmaster_supervisor;  // restarts `embedded` when its postmaster dies
  std::unique_ptr<JobStore> store;
  std::unique_ptr<CredentialStore> credentials;
  std::unique_ptr<TokenAuthenticator> authenticator;
  std::unique_ptr<GrpcAuthorizer> authorizer;
  std::unique_ptr<AuditTrail> audit;
  std::string local_worker_credential;  // id of the credential minted for --local-workers; revoked at shutdown
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
  const Clock* clock = nullptr;
  std::chrono::milliseconds shutdown_grace{0};
  bool workers_left_running = false;
  bool shut_down = false;
};

namespace {

absl::StatusOr<std::unique_ptr<ArtifactStore>> OpenArtifactStore(const ServerConfig& config, const fs::path& data_dir,
                                                                 const std::string& database_url, const Clock& clock) {
  if (config.artifact_store == "postgres") {
    PostgresArtifactStoreOptions options;
    options.database_url = database_url;
    options.schema = config.database_schema;
    options.default_max_bytes = config.limits.max_artifact_bytes;
    spdlog::info("[job=-] artifacts in PostgreSQL (schema {}, {} KiB chunks)", options.schema,
                 options.chunk_bytes >> 10);
    return OpenPostgresArtifactStore(options, clock);
  }
  auto local = std::make_unique<LocalArtifactStore>(data_dir, config.limits.max_artifact_bytes);
  if (absl::Status status = local->Init(); !status.ok()) return status;
  return std::unique_ptr<ArtifactStore>(std::move(local));
}

}  // namespace

ServerApp::ServerApp(std::unique_ptr<Parts> parts) : parts_(std::move(parts)), store_(parts_->store.get()) {}

ServerApp::~ServerApp() { Shutdown(); }

CredentialStore& ServerApp::credentials() { return *parts_->credentials; }

absl::StatusOr<std::unique_ptr<ServerApp>> ServerApp::Start(const ServerConfig& config, ProcessLauncher& launcher,
                                                            const Clock& clock,
                                                            const CallerAuthenticator* authenticator) {
  auto parts = std::make_unique<Parts>();
  parts->clock = &clock;
  parts->shutdown_grace = config.shutdown_grace;
  std::error_code ec;
  absl::StatusOr<fs::path> opened_data_dir = OpenPrivateDataDir(config.data_dir);
  if (!opened_data_dir.ok()) return opened_data_dir.status();
  const fs::path data_dir = *opened_data_dir;

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
    parts->postmaster_supervisor =
        std::make_unique<PostmasterSupervisor>(*parts->embedded, PostmasterSupervisorOptions{});
  }
  PostgresStoreOptions store_options;
  store_options.database_url = database_url;
  store_options.schema = config.database_schema;
  store_options.default_max_attempts = config.max_attempts;
  absl::StatusOr<std::unique_ptr<JobStore>> store = OpenPostgresJobStore(store_options, clock);
  if (!store.ok()) return store.status();
  parts->store = *std::move(store);
  absl::StatusOr<std::unique_ptr<CredentialStore>> credentials =
      OpenPostgresCredentialStore(database_url, config.database_schema);
  if (!credentials.ok()) return credentials.status();
  parts->credentials = *std::move(credentials);
  parts->authenticator = std::make_unique<TokenAuthenticator>(*parts->credentials, clock);
  parts->authorizer = std::make_unique<GrpcAuthorizer>(*parts->authenticator, *parts->authenticator);
  parts->audit = std::make_unique<CredentialStoreAuditTrail>(*parts->credentials, clock);
  if (parts->embedded) {
    // `migrate-server token --data-dir` finds the running cluster here (the cluster allows only
    // local socket connections, so this names a socket path, not a secret).
    const fs::path conninfo = data_dir / "embedded-postgres.conninfo";
    std::ofstream(conninfo, std::ios::trunc) << database_url << "\n";
    fs::permissions(conninfo, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
  }

  // Upload checks and local workers' task dirs live in <data>/scratch; one server owns the data dir,
  // so whatever is there now was left by a process that was killed: start empty.
  const fs::path scratch_dir = data_dir / "scratch";
  for (fs::directory_iterator it(scratch_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    spdlog::info("[job=-] removing leftover scratch {}", it->path().string());
    fs::remove_all(it->path(), ignored);
  }
  ec.clear();
  // Upload checks unpack every team's code here: the owner only (root's 0711 data dir lets others pass).
  fs::create_directories(scratch_dir, ec);
  fs::permissions(scratch_dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot make ", scratch_dir.string(), " private: ", ec.message()));
  absl::StatusOr<std::unique_ptr<ArtifactStore>> artifacts = OpenArtifactStore(config, data_dir, database_url, clock);
  if (!artifacts.ok()) return artifacts.status();
  parts->artifacts = *std::move(artifacts);
  parts->jobs = std::make_unique<JobService>(
      *parts->store, *parts->artifacts, clock, config.limits, scratch_dir, parts->audit.get(),
      [](const fs::path& tree) -> absl::StatusOr<JobService::RepositorySettings> {
        if (!fs::exists(tree / "hipforge.yaml")) return JobService::RepositorySettings{};
        absl::StatusOr<validate::Manifest> manifest = validate::LoadManifest(tree / "hipforge.yaml");
        if (!manifest.ok()) return manifest.status();
        return JobService::RepositorySettings{manifest->targets, manifest->gate};
      });
  parts->tasks = std::make_unique<TaskService>(*parts->store, *parts->artifacts, clock, config.limits);
  parts->migration_api = std::make_unique<GrpcMigrationService>(*parts->jobs, *parts->authorizer);
  parts->worker_api = std::make_unique<GrpcWorkerService>(*parts->tasks, *parts->authorizer);

  grpc::ServerBuilder builder;
  int port = 0;
  std::shared_ptr<grpc::ServerCredentials> listener_credentials = grpc::InsecureServerCredentials();
  const bool tls = !config.tls_cert.empty();
  if (tls) {
    ServerTlsOptions tls_options{config.tls_cert, config.tls_key, config.tls_client_ca,
                                 std::chrono::seconds(config.tls_reload_seconds)};
    absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> made = MakeServerCredentials(tls_options);
    if (!made.ok()) return made.status();
    listener_credentials = *made;
  } else if (!IsLoopbackListenAddress(config.listen)) {
    spdlog::warn("[job=-] --insecure: serving plain TCP on {}; tokens and uploaded code cross the network in clear",
                 config.listen);
  }
  builder.AddListeningPort(config.listen, listener_credentials, &port);
  // With TLS on the public port, in-process workers use a private unix socket instead (the
  // certificate need not name 127.0.0.1, and mTLS would want a client certificate).
  std::string local_worker_target;
  if (tls && config.local_workers > 0) {
    fs::path socket = data_dir / "run" / "local-workers.sock";
    if (socket.string().size() > 100) {
      socket = fs::temp_directory_path() / ("hipforge-workers-" + Sha256Hex(data_dir.string()).substr(0, 16) + ".sock");
    }
    fs::create_directories(socket.parent_path(), ec);
    fs::permissions(socket.parent_path(), fs::perms::owner_all, fs::perm_options::replace, ec);
    fs::remove(socket, ec);
    local_worker_target = "unix:" + socket.string();
    builder.AddListeningPort(local_worker_target, grpc::InsecureServerCredentials());
  }
  builder.RegisterService(parts->migration_api.get());
  builder.RegisterService(parts->worker_api.get());
  builder.SetMaxReceiveMessageSize(16 << 20);
  builder.SetMaxSendMessageSize(16 << 20);
  parts->grpc_server = builder.BuildAndStart();
  if (!parts->grpc_server || port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.listen));
  }
  spdlog::info("[job=-] listening on {} (port {}, {})", config.listen, port,
               !tls ? "plain TCP" : config.tls_client_ca.empty() ? "TLS" : "TLS, client certificates required");
  int http_port = 0;
  // The dashboard takes the same API tokens (a test may pass its own authenticator).
  if (authenticator == nullptr) authenticator = parts->authenticator.get();
  if (!config.http_listen.empty() && authenticator == nullptr) {
    spdlog::warn("[job=-] no HTTP dashboard: it needs the API token authenticator");
  } else if (!config.http_listen.empty()) {
    absl::StatusOr<std::unique_ptr<DashboardReader>> reader =
        OpenPostgresDashboardReader(database_url, config.database_schema);
    if (!reader.ok()) return reader.status();
    parts->dashboard_reader = *std::move(reader);
    http::DashboardApiOptions api_options;
    api_options.web_root = config.web_root;
    api_options.render.rule_catalog = translate::RuleCatalogToJson();
    api_options.render.tool_version = HIPFORGE_VERSION;
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
      *parts->store, *parts->artifacts, clock, config.limits.orphan_artifact_grace, config.limits.orphan_scan_interval);

  if (config.local_workers > 0) {
    std::vector<v1::TaskRole> roles;
    for (const std::string& name : config.local_worker_roles) {
      absl::StatusOr<v1::TaskRole> role = worker::ParseRole(name);
      if (!role.ok()) return role.status();
      roles.push_back(*role);
    }
    // Local workers talk to this server over gRPC loopback, exactly like remote ones, with a worker
    // credential of their own (pool "local", the configured roles) that dies with this process.
    std::vector<std::string> role_names;
    for (v1::TaskRole role : roles) role_names.push_back(role == v1::TASK_ROLE_VALIDATE ? "validate" : "translate");
    absl::StatusOr<NewCredential> credential =
        MakeWorkerCredential("local", role_names, {}, std::chrono::hours(24 * 7), clock);
    if (!credential.ok()) return credential.status();
    credential->record.description = absl::StrCat("in-process workers of migrate-server pid ", getpid());
    credential->record.created_by = "migrate-server";
    if (absl::Status stored = parts->credentials->Insert(credential->record); !stored.ok()) return stored;
    parts->local_worker_credential = credential->record.id;
    ChannelSecurity security;
    security.token = credential->token.value;
    if (local_worker_target.empty()) local_worker_target = absl::StrCat("127.0.0.1:", port);
    absl::StatusOr<std::shared_ptr<grpc::Channel>> made = MakeChannel(local_worker_target, security);
    if (!made.ok()) return made.status();
    std::shared_ptr<grpc::Channel> channel = *made;
    const worker::RoleSetOptions role_options = worker::RoleSetOptionsFromEnvironment();
    for (int i = 0; i < config.local_workers; ++i) {
      absl::StatusOr<std::unique_ptr<worker::RoleSet>> role_set = worker::MakeRoleSet(roles, launcher, role_options);
      if (!role_set.ok()) return role_set.status();
      worker::WorkerOptions options;
      options.worker_id = absl::StrCat("local-", getpid(), "-", i);
      options.capabilities = (*role_set)->capabilities();
      options.scratch_root = scratch_dir / "workers";  // task dirs are locked: the workers can share it
      options.lease_wait = std::chrono::seconds(10);
      options.shutdown_grace = config.shutdown_grace;
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

bool ServerApp::workers_left_running() const { return parts_ && parts_->workers_left_running; }

void ServerApp::Shutdown() {
  if (!parts_ || parts_->shut_down) return;
  parts_->shut_down = true;
  spdlog::info("[job=-] shutting down");
  for (auto& thread : parts_->worker_threads) thread.request_stop();
  // A task in flight has the grace to finish; then its worker gives it back. A runner inside a long
  // Clang parse may not look at its abandon flag for a while: past a short margin it is left running,
  // with the objects it uses, and the host process ends without joining it.
  const auto deadline = std::chrono::steady_clock::now() + parts_->shutdown_grace + std::chrono::seconds(5);
  bool stopped = true;
  for (auto& worker : parts_->workers) stopped = worker->WaitUntilStopped(deadline) && stopped;
  if (stopped) {
    parts_->worker_threads.clear();  // joins (they have returned)
    parts_->workers.clear();
    parts_->role_sets.clear();
  } else {
    spdlog::warn("[job=-] a local worker's runner is still busy after its task was given back; not waiting for it");
    for (auto& thread : parts_->worker_threads) thread.detach();
    parts_->worker_threads.clear();
    for (auto& worker : parts_->workers) (void)worker.release();
    for (auto& role_set : parts_->role_sets) (void)role_set.release();
    parts_->workers.clear();
    parts_->role_sets.clear();
    parts_->workers_left_running = true;
  }
  parts_->rescuer.reset();
  parts_->orphan_collector.reset();
  if (parts_->http_server) parts_->http_server->Shutdown();  // ends event streams before the store goes
  parts_->http_server.reset();
  parts_->dashboard_api.reset();
  parts_->dashboard_reader.reset();
  if (!parts_->local_worker_credential.empty()) {
    if (absl::Status revoked = parts_->credentials->Revoke(parts_->local_worker_credential, parts_->clock->Now());
        !revoked.ok()) {
      spdlog::warn("[job=-] revoking the local workers' credential {}: {}", parts_->local_worker_credential,
                   revoked.ToString());
    }
  }
  if (parts_->grpc_server) parts_->grpc_server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(3));
  parts_->grpc_server.reset();
  parts_->worker_api.reset();
  parts_->migration_api.reset();
  parts_->tasks.reset();
  parts_->jobs.reset();
  parts_->audit.reset();
  parts_->authorizer.reset();
  parts_->authenticator.reset();
  parts_->credentials.reset();
  parts_->store.reset();
  parts_->postmaster_supervisor.reset();  // before the stop below, which it would take for a death
  if (parts_->embedded) {
    if (absl::Status stopped = parts_->embedded->Stop(); !stopped.ok()) {
      spdlog::warn("[job=-] stopping embedded PostgreSQL: {}", stopped.ToString());
    }
    parts_->embedded.reset();
  }
  spdlog::info("[job=-] stopped");
}

}  // namespace hipforge::server
