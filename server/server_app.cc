#include "server/server_app.h"

#include <fstream>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "common/file_io.h"
#include "common/grpc_channel.h"
#include "common/sha256.h"
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
#include "server/proto_convert.h"
#include "server/store/artifact_store.h"
#include "server/store/dashboard_reader.h"
#include "server/store/data_dir.h"
#include "server/store/embedded_postgres.h"
#include "server/store/local_artifact_store.h"
#include "server/store/postgres_artifact_store.h"
#include "server/store/postgres_job_store.h"
#include "server/store/postmaster_supervisor.h"
#include "server/task_service.h"
#include "worker/role_set.h"
#include "worker/translate/analyze/findings_json.h"
#include "worker/validate/manifest.h"
#include "worker/worker.h"

namespace hipforge::server {

namespace fs = std::filesystem;

namespace {

// What Start's steps share before the ServerApp exists: the inputs and what earlier steps decided.
struct Assembly {
  const ServerConfig& config;
  ProcessLauncher& launcher;
  const Clock& clock;
  const CallerAuthenticator* dashboard_authenticator;  // a test's own, else the API token authenticator
  fs::path data_dir;
  fs::path scratch_dir;
  std::string database_url;
  std::string local_worker_target;  // where in-process workers call; a unix socket under TLS
  bool tls = false;
  int port = 0;
  int http_port = 0;
};

}  // namespace

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

  // Start's steps, in order (each fills its parts; a failure ends Start, and the parts made so far are destroyed).
  absl::Status OpenDatabase(Assembly& assembly);
  absl::Status ClearScratch(Assembly& assembly);
  absl::Status MakeServices(Assembly& assembly);
  absl::Status Listen(Assembly& assembly);
  absl::Status StartDashboard(Assembly& assembly);
  absl::Status StartHousekeeping(Assembly& assembly);
  absl::Status StartLocalWorkers(Assembly& assembly);

 private:
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ListenerCredentials(const Assembly& assembly) const;
  absl::StatusOr<std::shared_ptr<grpc::Channel>> LocalWorkerChannel(Assembly& assembly,
                                                                    const std::vector<v1::TaskRole>& roles);
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

// A repository's own hipforge.yaml, read at submit (targets and gate).
absl::StatusOr<JobService::RepositorySettings> RepositorySettingsOf(const fs::path& tree) {
  if (!fs::exists(tree / "hipforge.yaml")) return JobService::RepositorySettings{};
  absl::StatusOr<validate::Manifest> manifest = validate::LoadManifest(tree / "hipforge.yaml");
  if (!manifest.ok()) return manifest.status();
  return JobService::RepositorySettings{manifest->targets, manifest->gate};
}

// Written atomically, so that readers never see a partial number; a failure is logged, not fatal.
void WritePortFile(const fs::path& file, int port) {
  if (absl::Status written = WriteFileAtomically(file, absl::StrCat(port, "\n")); !written.ok()) {
    spdlog::warn("[job=-] port file: {}", written.ToString());
  }
}

// The HTTP port first: a reader that saw the gRPC port file finds the HTTP one too.
void WritePortFiles(const ServerConfig& config, int port, int http_port) {
  if (http_port != 0) {
    fs::path http_port_file = config.http_port_file;
    if (http_port_file.empty() && !config.port_file.empty()) http_port_file = config.port_file.string() + ".http";
    if (!http_port_file.empty()) WritePortFile(http_port_file, http_port);
  }
  if (!config.port_file.empty()) WritePortFile(config.port_file, port);
}

}  // namespace

absl::Status ServerApp::Parts::OpenDatabase(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  assembly.database_url = config.database_url;
  if (assembly.database_url.empty()) {
    EmbeddedPostgresOptions pg;
    pg.data_dir = assembly.data_dir / "pg";
    pg.durable = config.embedded_durable;
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> started = EmbeddedPostgres::Start(assembly.launcher, pg);
    if (!started.ok()) {
      return absl::Status(started.status().code(), absl::StrCat("embedded PostgreSQL: ", started.status().message()));
    }
    embedded = *std::move(started);
    assembly.database_url = embedded->ConnectionString();
    spdlog::info("[job=-] embedded PostgreSQL running in {}", pg.data_dir.string());
    postmaster_supervisor = std::make_unique<PostmasterSupervisor>(*embedded, PostmasterSupervisorOptions{});
  }
  PostgresStoreOptions store_options;
  store_options.database_url = assembly.database_url;
  store_options.schema = config.database_schema;
  store_options.default_max_attempts = config.max_attempts;
  absl::StatusOr<std::unique_ptr<JobStore>> opened_store = OpenPostgresJobStore(store_options, assembly.clock);
  if (!opened_store.ok()) return opened_store.status();
  store = *std::move(opened_store);
  absl::StatusOr<std::unique_ptr<CredentialStore>> opened_credentials =
      OpenPostgresCredentialStore(assembly.database_url, config.database_schema);
  if (!opened_credentials.ok()) return opened_credentials.status();
  credentials = *std::move(opened_credentials);
  authenticator = std::make_unique<TokenAuthenticator>(*credentials, assembly.clock);
  authorizer = std::make_unique<GrpcAuthorizer>(*authenticator, *authenticator);
  audit = std::make_unique<CredentialStoreAuditTrail>(*credentials, assembly.clock);
  if (embedded) {
    // `migrate-server token --data-dir` finds the running cluster here (the cluster allows only
    // local socket connections, so this names a socket path, not a secret).
    const fs::path conninfo = assembly.data_dir / "embedded-postgres.conninfo";
    std::ofstream(conninfo, std::ios::trunc) << assembly.database_url << "\n";
    std::error_code ec;
    fs::permissions(conninfo, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
  }
  return absl::OkStatus();
}

// Upload checks and local workers' task dirs live in <data>/scratch; one server owns the data dir,
// so whatever is there now was left by a process that was killed: start empty.
absl::Status ServerApp::Parts::ClearScratch(Assembly& assembly) {
  assembly.scratch_dir = assembly.data_dir / "scratch";
  const fs::path& scratch_dir = assembly.scratch_dir;
  std::error_code ec;
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
  return absl::OkStatus();
}

absl::Status ServerApp::Parts::MakeServices(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  absl::StatusOr<std::unique_ptr<ArtifactStore>> opened =
      OpenArtifactStore(config, assembly.data_dir, assembly.database_url, assembly.clock);
  if (!opened.ok()) return opened.status();
  artifacts = *std::move(opened);
  jobs = std::make_unique<JobService>(*store, *artifacts, assembly.clock, config.limits, assembly.scratch_dir,
                                      audit.get(), RepositorySettingsOf);
  tasks = std::make_unique<TaskService>(*store, *artifacts, assembly.clock, config.limits);
  migration_api = std::make_unique<GrpcMigrationService>(*jobs, *authorizer);
  worker_api = std::make_unique<GrpcWorkerService>(*tasks, *authorizer);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerApp::Parts::ListenerCredentials(
    const Assembly& assembly) const {
  const ServerConfig& config = assembly.config;
  if (assembly.tls) {
    ServerTlsOptions tls_options{config.tls_cert, config.tls_key, config.tls_client_ca,
                                 std::chrono::seconds(config.tls_reload_seconds)};
    return MakeServerCredentials(tls_options);
  }
  if (!IsLoopbackListenAddress(config.listen)) {
    spdlog::warn("[job=-] --insecure: serving plain TCP on {}; tokens and uploaded code cross the network in clear",
                 config.listen);
  }
  return grpc::InsecureServerCredentials();
}

// The gRPC listeners (TLS or plain on the public port) and the services on them.
absl::Status ServerApp::Parts::Listen(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  assembly.tls = !config.tls_cert.empty();
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> listener_credentials = ListenerCredentials(assembly);
  if (!listener_credentials.ok()) return listener_credentials.status();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, *listener_credentials, &assembly.port);
  // With TLS on the public port, in-process workers use a private unix socket instead (the
  // certificate need not name 127.0.0.1, and mTLS would want a client certificate).
  if (assembly.tls && config.local_workers > 0) {
    fs::path socket = assembly.data_dir / "run" / "local-workers.sock";
    if (socket.string().size() > 100) {
      socket = fs::temp_directory_path() /
               ("hipforge-workers-" + Sha256Hex(assembly.data_dir.string()).substr(0, 16) + ".sock");
    }
    std::error_code ec;
    fs::create_directories(socket.parent_path(), ec);
    fs::permissions(socket.parent_path(), fs::perms::owner_all, fs::perm_options::replace, ec);
    fs::remove(socket, ec);
    assembly.local_worker_target = "unix:" + socket.string();
    builder.AddListeningPort(assembly.local_worker_target, grpc::InsecureServerCredentials());
  }
  builder.RegisterService(migration_api.get());
  builder.RegisterService(worker_api.get());
  builder.SetMaxReceiveMessageSize(16 << 20);
  builder.SetMaxSendMessageSize(16 << 20);
  grpc_server = builder.BuildAndStart();
  if (!grpc_server || assembly.port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.listen));
  }
  spdlog::info("[job=-] listening on {} (port {}, {})", config.listen, assembly.port,
               !assembly.tls                  ? "plain TCP"
               : config.tls_client_ca.empty() ? "TLS"
                                              : "TLS, client certificates required");
  return absl::OkStatus();
}

absl::Status ServerApp::Parts::StartDashboard(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  if (config.http_listen.empty()) return absl::OkStatus();
  // The dashboard takes the same API tokens (a test may pass its own authenticator).
  const CallerAuthenticator* dashboard_authenticator =
      assembly.dashboard_authenticator != nullptr ? assembly.dashboard_authenticator : authenticator.get();
  if (dashboard_authenticator == nullptr) {
    spdlog::warn("[job=-] no HTTP dashboard: it needs the API token authenticator");
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<DashboardReader>> reader =
      OpenPostgresDashboardReader(assembly.database_url, config.database_schema);
  if (!reader.ok()) return reader.status();
  dashboard_reader = *std::move(reader);
  http::DashboardApiOptions api_options;
  api_options.web_root = config.web_root;
  api_options.render.rule_catalog = translate::RuleCatalogToJson();
  api_options.render.tool_version = HIPFORGE_VERSION;
  dashboard_api = std::make_unique<http::DashboardApi>(*dashboard_reader, *jobs, *dashboard_authenticator, api_options);
  absl::StatusOr<std::unique_ptr<http::HttpServer>> started =
      http::HttpServer::Start(config.http_listen, *dashboard_api);
  if (!started.ok()) return started.status();
  http_server = *std::move(started);
  assembly.http_port = http_server->port();
  spdlog::info("[job=-] dashboard on http://{}:{}/ (web UI from {})",
               config.http_listen.substr(0, config.http_listen.rfind(':')), assembly.http_port,
               config.web_root.string());
  return absl::OkStatus();
}

// Expired leases go back to the queue; artifacts no job references are collected.
absl::Status ServerApp::Parts::StartHousekeeping(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  rescuer = std::make_unique<LeaseRescuer>(*store, config.rescue_interval);
  orphan_collector = std::make_unique<OrphanArtifactCollector>(
      *store, *artifacts, assembly.clock, config.limits.orphan_artifact_grace, config.limits.orphan_scan_interval);
  return absl::OkStatus();
}

// Local workers talk to this server over gRPC loopback, exactly like remote ones, with a worker
// credential of their own (pool "local", the configured roles) that dies with this process.
absl::StatusOr<std::shared_ptr<grpc::Channel>> ServerApp::Parts::LocalWorkerChannel(
    Assembly& assembly, const std::vector<v1::TaskRole>& roles) {
  std::vector<std::string> role_names;
  for (v1::TaskRole role : roles) role_names.emplace_back(TaskKindName(FromProto(role)));
  absl::StatusOr<NewCredential> credential =
      MakeWorkerCredential("local", role_names, {}, std::chrono::hours(24 * 7), assembly.clock);
  if (!credential.ok()) return credential.status();
  credential->record.description = absl::StrCat("in-process workers of migrate-server pid ", getpid());
  credential->record.created_by = "migrate-server";
  if (absl::Status stored = credentials->Insert(credential->record); !stored.ok()) return stored;
  local_worker_credential = credential->record.id;
  ChannelSecurity security;
  security.token = credential->token.value;
  if (assembly.local_worker_target.empty()) assembly.local_worker_target = absl::StrCat("127.0.0.1:", assembly.port);
  return MakeChannel(assembly.local_worker_target, security);
}

absl::Status ServerApp::Parts::StartLocalWorkers(Assembly& assembly) {
  const ServerConfig& config = assembly.config;
  if (config.local_workers <= 0) return absl::OkStatus();
  std::vector<v1::TaskRole> roles;
  for (const std::string& name : config.local_worker_roles) {
    absl::StatusOr<v1::TaskRole> role = worker::ParseRole(name);
    if (!role.ok()) return role.status();
    roles.push_back(*role);
  }
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = LocalWorkerChannel(assembly, roles);
  if (!channel.ok()) return channel.status();
  const worker::RoleSetOptions role_options = worker::RoleSetOptionsFromEnvironment();
  for (int i = 0; i < config.local_workers; ++i) {
    absl::StatusOr<std::unique_ptr<worker::RoleSet>> role_set =
        worker::MakeRoleSet(roles, assembly.launcher, role_options);
    if (!role_set.ok()) return role_set.status();
    worker::WorkerOptions options;
    options.worker_id = absl::StrCat("local-", getpid(), "-", i);
    options.capabilities = (*role_set)->capabilities();
    options.scratch_root = assembly.scratch_dir / "workers";  // task dirs are locked: the workers can share it
    options.lease_wait = std::chrono::seconds(10);
    options.shutdown_grace = config.shutdown_grace;
    workers.push_back(std::make_unique<worker::Worker>(*channel, (*role_set)->runners(), options));
    role_sets.push_back(*std::move(role_set));
  }
  for (auto& worker : workers) {
    worker_threads.emplace_back([w = worker.get()](std::stop_token stop) { w->Run(stop); });
  }
  spdlog::info("[job=-] {} local worker(s) started", config.local_workers);
  return absl::OkStatus();
}

ServerApp::ServerApp(std::unique_ptr<Parts> parts) : parts_(std::move(parts)), store_(parts_->store.get()) {}

ServerApp::~ServerApp() { Shutdown(); }

CredentialStore& ServerApp::credentials() { return *parts_->credentials; }

absl::StatusOr<std::unique_ptr<ServerApp>> ServerApp::Start(const ServerConfig& config, ProcessLauncher& launcher,
                                                            const Clock& clock,
                                                            const CallerAuthenticator* authenticator) {
  absl::StatusOr<fs::path> data_dir = OpenPrivateDataDir(config.data_dir);
  if (!data_dir.ok()) return data_dir.status();
  Assembly assembly{config, launcher, clock, authenticator, *data_dir};
  auto parts = std::make_unique<Parts>();
  parts->clock = &clock;
  parts->shutdown_grace = config.shutdown_grace;
  using Step = absl::Status (Parts::*)(Assembly&);
  for (Step step : {&Parts::OpenDatabase, &Parts::ClearScratch, &Parts::MakeServices, &Parts::Listen,
                    &Parts::StartDashboard, &Parts::StartHousekeeping, &Parts::StartLocalWorkers}) {
    if (absl::Status status = (parts.get()->*step)(assembly); !status.ok()) return status;
  }
  std::unique_ptr<ServerApp> app(new ServerApp(std::move(parts)));
  app->port_ = assembly.port;
  app->http_port_ = assembly.http_port;
  WritePortFiles(config, assembly.port, assembly.http_port);
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
