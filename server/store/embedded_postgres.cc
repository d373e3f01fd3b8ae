#include "server/store/embedded_postgres.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <pqxx/pqxx>
#include <set>
#include <thread>

#include "absl/status/status.h"
#include "common/sha256.h"
#include "spdlog/spdlog.h"

namespace hipforge::server {
namespace fs = std::filesystem;
namespace {

// The socket path (<dir>/.s.PGSQL.<port>) must fit in sockaddr_un (107 bytes).
constexpr size_t kMaxSocketDirLength = 80;

std::string Trimmed(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

std::string Describe(const ProcessResult& result) {
  std::string text = Trimmed(result.standard_error);
  if (text.empty()) text = Trimmed(result.standard_output);
  if (result.timed_out) text += " (timed out)";
  return text;
}

// True when every directory from / down to `dir` lets others pass through.
bool ReachableByOthers(const fs::path& dir) {
  fs::path walked = dir.root_path();
  for (const auto& part : dir.relative_path()) {
    walked /= part;
    struct stat info {};
    if (::stat(walked.c_str(), &info) != 0 || (info.st_mode & S_IXOTH) == 0) return false;
  }
  return true;
}

uintmax_t FileSize(const fs::path& file) {
  std::error_code error;
  const uintmax_t size = fs::file_size(file, error);
  return error ? 0 : size;
}

// What was appended to `file` after `offset` (a log written by this start attempt).
std::string ReadFrom(const fs::path& file, uintmax_t offset) {
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

EmbeddedPostgres::EmbeddedPostgres(ProcessLauncher& launcher, EmbeddedPostgresOptions options)
    : launcher_(launcher), options_(std::move(options)) {}

EmbeddedPostgres::~EmbeddedPostgres() {
  if (auto status = Stop(); !status.ok()) spdlog::warn("embedded postgres: {}", std::string(status.message()));
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> EmbeddedPostgres::Start(ProcessLauncher& launcher,
                                                                          EmbeddedPostgresOptions options) {
  if (options.data_dir.empty()) return absl::InvalidArgumentError("embedded postgres needs a data directory");
  std::unique_ptr<EmbeddedPostgres> server(new EmbeddedPostgres(launcher, std::move(options)));
  if (auto status = server->StartImpl(); !status.ok()) return status;
  return server;
}

absl::StatusOr<ProcessResult> EmbeddedPostgres::RunPg(const std::string& program, std::vector<std::string> args) {
  ProcessSpec spec;
  if (as_root_) spec.argv = {"runuser", "-u", options_.unprivileged_user, "--"};
  spec.argv.push_back((options_.bin_dir / program).string());
  for (auto& arg : args) spec.argv.push_back(std::move(arg));
  // The server user may not be able to enter the caller's working directory.
  spec.working_directory = "/";
  spec.environment = {{"LC_ALL", "C"}, {"LANG", "C"}};
  spec.timeout = std::chrono::seconds(options_.start_timeout) + std::chrono::seconds(30);
  return launcher_.Run(spec);
}

absl::Status EmbeddedPostgres::StartImpl() {
  for (absl::Status (EmbeddedPostgres::*step)() :
       {&EmbeddedPostgres::FindBinaries, &EmbeddedPostgres::LockDataDirectory, &EmbeddedPostgres::PlaceCluster,
        &EmbeddedPostgres::InitClusterIfNew, &EmbeddedPostgres::WriteAccessRules, &EmbeddedPostgres::WriteSettings,
        &EmbeddedPostgres::StopLeftoverPostmaster, &EmbeddedPostgres::StartPostmaster}) {
    if (absl::Status status = (this->*step)(); !status.ok()) return status;
  }
  running_ = true;
  return CreateDatabase();
}

// Binaries: explicit, then pg_config, then Debian's versioned directory.
absl::Status EmbeddedPostgres::FindBinaries() {
  std::error_code error;
  if (options_.bin_dir.empty()) {
    ProcessSpec query;
    query.argv = {"pg_config", "--bindir"};
    query.timeout = std::chrono::seconds(10);
    if (!FindProgram("pg_config").empty()) {
      auto result = launcher_.Run(query);
      if (result.ok() && result->exit_code == 0) {
        const fs::path dir = Trimmed(result->standard_output);
        if (fs::exists(dir / "initdb", error) && fs::exists(dir / "pg_ctl", error)) options_.bin_dir = dir;
      }
    }
    if (options_.bin_dir.empty()) options_.bin_dir = "/usr/lib/postgresql/15/bin";
  }
  if (!fs::exists(options_.bin_dir / "initdb", error) || !fs::exists(options_.bin_dir / "pg_ctl", error)) {
    return absl::NotFoundError("PostgreSQL server binaries not found in " + options_.bin_dir.string() +
                               " (install the postgresql package or pass --database-url)");
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::LockDataDirectory() {
  std::error_code error;
  options_.data_dir = fs::absolute(options_.data_dir, error);
  fs::create_directories(options_.data_dir, error);
  if (error) return absl::InternalError("cannot create " + options_.data_dir.string() + ": " + error.message());
  // One owner per data directory. The kernel drops the lock when the owner dies, so a postmaster
  // found running while we hold the lock was left behind by a killed owner and may be stopped.
  const fs::path lock_path = options_.data_dir / "embedded-postgres.lock";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0) return absl::InternalError("cannot open " + lock_path.string() + ": " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    return absl::FailedPreconditionError("another process owns the PostgreSQL cluster of " +
                                         options_.data_dir.string());
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::PlaceCluster() {
  std::error_code error;
  as_root_ = ::geteuid() == 0;
  const passwd* user = nullptr;
  fs::path cluster_root = options_.data_dir;
  if (as_root_) {
    // PostgreSQL refuses to run as root: the cluster belongs to an unprivileged user, who must be able
    // to reach it. When a parent of the data directory is closed to others (e.g. /root), the cluster
    // goes to /var/lib/hipforge/<hash of the data directory> instead, stable across restarts.
    user = ::getpwnam(options_.unprivileged_user.c_str());
    if (user == nullptr) {
      return absl::FailedPreconditionError("running as root, but user '" + options_.unprivileged_user +
                                           "' to run PostgreSQL as does not exist");
    }
    fs::permissions(options_.data_dir, fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add, error);
    if (!ReachableByOthers(options_.data_dir)) {
      cluster_root =
          fs::path("/var/lib/hipforge") / ("postgres-" + Sha256Hex(options_.data_dir.string()).substr(0, 16));
      fs::create_directories(cluster_root, error);
      fs::permissions("/var/lib/hipforge", fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add,
                      error);
      fs::permissions(cluster_root, fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add, error);
      spdlog::warn("embedded postgres: {} is not reachable by user '{}'; keeping the cluster in {}",
                   options_.data_dir.string(), options_.unprivileged_user, cluster_root.string());
    }
  }
  cluster_dir_ = cluster_root / "postgres";
  socket_dir_ = cluster_root / "run";
  if (socket_dir_.string().size() > kMaxSocketDirLength) {
    socket_dir_ = fs::temp_directory_path() / ("hipforge-pg-" + Sha256Hex(cluster_root.string()).substr(0, 16));
  }
  fs::create_directories(cluster_dir_, error);
  fs::create_directories(socket_dir_, error);
  if (error) return absl::InternalError("cannot create cluster directories: " + error.message());
  // Only the cluster's owner reaches the socket (root passes any mode): another local account can
  // neither connect nor, with peer authentication, log in as anyone.
  for (const fs::path& dir : {cluster_dir_, socket_dir_}) {
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, error);
    if (error) return absl::InternalError("cannot make " + dir.string() + " private: " + error.message());
  }
  if (as_root_) {
    for (const fs::path& dir : {cluster_dir_, socket_dir_}) {
      if (::chown(dir.c_str(), user->pw_uid, user->pw_gid) != 0) {
        return absl::InternalError("cannot chown " + dir.string() + ": " + std::strerror(errno));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::InitClusterIfNew() {
  std::error_code error;
  if (!fs::exists(cluster_dir_ / "PG_VERSION", error)) {
    if (!fs::is_empty(cluster_dir_, error)) {
      return absl::FailedPreconditionError(cluster_dir_.string() + " is not empty and holds no PostgreSQL cluster");
    }
    // peer, not trust: pg_hba.conf is rewritten below on every start anyway, but no cluster of ours
    // should ever have existed that lets any local account in as the superuser.
    std::vector<std::string> args = {
        "-D",   cluster_dir_.string(), "-U", "postgres", "--auth-local=peer", "--auth-host=reject", "-E",
        "UTF8", "--locale=C"};
    if (!options_.durable) args.push_back("--no-sync");
    auto result = RunPg("initdb", args);
    if (!result.ok()) return result.status();
    if (result->exit_code != 0) return absl::InternalError("initdb failed: " + Describe(*result));
    std::ofstream conf(cluster_dir_ / "postgresql.conf", std::ios::app);
    conf << "\n# Settings written by hipforge on every start.\ninclude_if_exists = 'hipforge.conf'\n";
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::WriteSettings() {
  // Unix socket only: no TCP port to collide with other clusters on the machine.
  std::ofstream conf(cluster_dir_ / "hipforge.conf", std::ios::trunc);
  conf << "listen_addresses = ''\n"
       << "unix_socket_directories = '" << socket_dir_.string() << "'\n"
       << "unix_socket_permissions = 0700\n"
       << "port = " << options_.port << "\n"
       << "max_connections = 200\n";
  // Not durable: no fsync, so an OS crash may lose data, but a killed process may not. Commits stay
  // synchronous: with synchronous_commit off, a commit the client was told about can sit in the WAL
  // buffers and die with a postmaster killed -9 (measured: 3 of 5 kills lost the last insert).
  if (!options_.durable) conf << "fsync = off\nfull_page_writes = off\n";
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::StopLeftoverPostmaster() {
  std::error_code error;
  // A postmaster left running by an owner that was killed (we hold the lock): stop it, then start
  // under our control.
  if (fs::exists(cluster_dir_ / "postmaster.pid", error)) {
    auto status = RunPg("pg_ctl", {"-D", cluster_dir_.string(), "status"});
    if (status.ok() && status->exit_code == 0) {
      spdlog::info("embedded postgres: stopping a server left running in {}", cluster_dir_.string());
      auto stopped = RunPg("pg_ctl", {"-D", cluster_dir_.string(), "-m", "fast", "-w", "stop"});
      if (!stopped.ok()) return stopped.status();
    }
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::StartPostmaster() {
  // After a postmaster was killed -9 its backends live on until they notice (a busy one only after its
  // query), holding its shared memory, and the dead postmaster may not be reaped at once: PostgreSQL
  // refuses to start beside either. We own the data directory (the flock), so wait for them to go.
  const auto give_up = std::chrono::steady_clock::now() + options_.start_timeout;
  for (int attempt = 1;; ++attempt) {
    const auto log_offset = FileSize(cluster_dir_ / "server.log");
    auto started = RunPg("pg_ctl", {"-D", cluster_dir_.string(), "-l", (cluster_dir_ / "server.log").string(), "-w",
                                    "-t", std::to_string(options_.start_timeout.count()), "start"});
    if (!started.ok()) return started.status();
    if (started->exit_code == 0) break;
    const std::string log = ReadFrom(cluster_dir_ / "server.log", log_offset);
    const std::string said = log + started->standard_error;
    const bool leftovers = said.find("pre-existing shared memory block") != std::string::npos ||
                           said.find("lock file \"postmaster.pid\" already exists") != std::string::npos;
    if (leftovers && std::chrono::steady_clock::now() < give_up) {
      if (attempt == 1) spdlog::info("embedded postgres: waiting for the backends of a killed postmaster to exit");
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    const std::string tail = log.size() > 2000 ? log.substr(log.size() - 2000) : log;
    return absl::InternalError("pg_ctl start failed: " + Describe(*started) + "\n" + tail);
  }
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::CreateDatabase() {
  try {
    pqxx::connection admin(ConnectionString("postgres"));
    pqxx::nontransaction tx(admin);
    if (tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", options_.database).empty()) {
      tx.exec("CREATE DATABASE " + tx.quote_name(options_.database));
    }
  } catch (const std::exception& failure) {
    return absl::InternalError(std::string("cannot create the database: ") + failure.what());
  }
  spdlog::info("embedded postgres: running in {} (socket {})", cluster_dir_.string(), socket_dir_.string());
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::WriteAccessRules() {
  // Who may log in as the superuser `postgres`: the OS account that runs this server and the one that
  // owns the cluster (the same one unless the server runs as root), each proved by the kernel (peer:
  // SO_PEERCRED on the unix socket). Written on every start, so clusters initialised with `trust` by
  // older versions are closed too.
  std::set<std::string> accounts;
  if (const passwd* self = ::getpwuid(::geteuid()); self != nullptr) accounts.insert(self->pw_name);
  if (as_root_) accounts.insert(options_.unprivileged_user);
  if (accounts.empty()) return absl::FailedPreconditionError("the server's own user id has no account name");
  std::ofstream hba(cluster_dir_ / "pg_hba.conf", std::ios::trunc);
  hba << "# Written by hipforge on every start: unix socket only, peer authentication (pg_ident.conf).\n"
      << "local all all peer map=hipforge\n";
  std::ofstream ident(cluster_dir_ / "pg_ident.conf", std::ios::trunc);
  ident << "# Written by hipforge on every start: the accounts that may connect, as the superuser only.\n";
  for (const std::string& account : accounts) ident << "hipforge " << account << " postgres\n";
  hba.close();
  ident.close();
  if (!hba || !ident) return absl::InternalError("cannot write the access rules in " + cluster_dir_.string());
  if (as_root_) {
    const passwd* owner = ::getpwnam(options_.unprivileged_user.c_str());
    for (const char* name : {"pg_hba.conf", "pg_ident.conf"}) {
      const fs::path file = cluster_dir_ / name;
      if (owner == nullptr || ::chown(file.c_str(), owner->pw_uid, owner->pw_gid) != 0) {
        return absl::InternalError("cannot chown " + file.string());
      }
    }
  }
  std::error_code error;
  for (const char* name : {"pg_hba.conf", "pg_ident.conf"}) {
    fs::permissions(cluster_dir_ / name, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace,
                    error);
  }
  return absl::OkStatus();
}

namespace {

// The postmaster's pid: the first line of postmaster.pid; 0 when there is none.
pid_t PostmasterPid(const fs::path& cluster_dir) {
  std::ifstream in(cluster_dir / "postmaster.pid");
  long pid = 0;
  if (!(in >> pid) || pid <= 0) return 0;
  return static_cast<pid_t>(pid);
}

// Exists and is not a zombie: a killed postmaster whose parent has not reaped it still answers kill(pid, 0).
bool ProcessRunning(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t close = line.rfind(')');  // the command name may hold spaces and parentheses
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z' && line[close + 2] != 'X';
}

}  // namespace

bool EmbeddedPostgres::PostmasterAlive() {
  const pid_t pid = PostmasterPid(cluster_dir_);
  return pid > 0 && ProcessRunning(pid);
}

absl::Status EmbeddedPostgres::RestartPostmaster() {
  // When this process is the postmaster's parent (migrate-server as a container's pid 1 inherits it), reap it:
  // PostgreSQL will not start beside a lock file naming a zombie. For anyone else's child this is ECHILD.
  if (const pid_t pid = PostmasterPid(cluster_dir_); pid > 0) ::waitpid(pid, nullptr, WNOHANG);
  if (absl::Status started = StartPostmaster(); !started.ok()) return started;
  running_ = true;
  return absl::OkStatus();
}

std::string EmbeddedPostgres::ConnectionString() const { return ConnectionString(options_.database); }

std::string EmbeddedPostgres::ConnectionString(const std::string& database) const {
  // Single quotes let the socket path contain spaces (libpq key=value syntax).
  return "host='" + socket_dir_.string() + "' port=" + std::to_string(options_.port) +
         " user=postgres dbname=" + database;
}

absl::Status EmbeddedPostgres::Stop() {
  if (!running_) return absl::OkStatus();
  running_ = false;
  auto stopped = RunPg("pg_ctl", {"-D", cluster_dir_.string(), "-m", "fast", "-w", "stop"});
  if (!stopped.ok()) return stopped.status();
  if (stopped->exit_code != 0) return absl::InternalError("pg_ctl stop failed: " + Describe(*stopped));
  return absl::OkStatus();
}

}  // namespace hipforge::server
