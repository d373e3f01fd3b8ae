#pragma once
// A private PostgreSQL cluster owned by one process: used by migrate-server when no --database-url
// is given, and by tests/benchmarks that have no HIPFORGE_TEST_DATABASE_URL.
//
// The cluster lives in <data_dir>/postgres and listens only on a unix socket in <data_dir>/run
// (listen_addresses=''), so several clusters never fight over a TCP port. Other local accounts are kept
// out twice: the socket directory is 0700, and pg_hba.conf allows only peer authentication of the
// server's own account (docs/security.md, "Local accounts"). PostgreSQL refuses to run
// as root, so when euid is 0 initdb/pg_ctl run through `runuser -u <unprivileged_user> --` on a
// directory chowned to that user (see cluster_dir() for where it goes if that user cannot reach
// the data directory).
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/process.h"
#include "server/store/postmaster_supervisor.h"

namespace hipforge::server {

struct EmbeddedPostgresOptions {
  std::filesystem::path data_dir;              // created if missing; cluster kept across restarts
  std::string database = "hipforge";           // created if missing
  std::filesystem::path bin_dir;               // empty: `pg_config --bindir`, then /usr/lib/postgresql/15/bin
  std::string unprivileged_user = "postgres";  // used only when running as root
  int port = 5432;                             // only names the socket file; nothing listens on TCP
  // false: fsync off (tests, benchmarks): survives killed processes, not an OS crash.
  bool durable = true;
  std::chrono::seconds start_timeout{60};
};

class EmbeddedPostgres final : public SupervisedPostmaster {
 public:
  // initdb when the cluster does not exist yet, stops a stale postmaster left by a killed owner,
  // starts the server (pg_ctl -w), and creates the database. FailedPrecondition while another live
  // process (or object) owns the same data directory.
  static absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> Start(ProcessLauncher& launcher,
                                                                 EmbeddedPostgresOptions options);
  ~EmbeddedPostgres() override;  // Stop()
  EmbeddedPostgres(const EmbeddedPostgres&) = delete;
  EmbeddedPostgres& operator=(const EmbeddedPostgres&) = delete;

  // libpq key=value connection string for `database` (or another database on the same cluster).
  std::string ConnectionString() const;
  std::string ConnectionString(const std::string& database) const;
  absl::Status Stop();  // pg_ctl stop -m fast; idempotent
  // Where the cluster lives: <data_dir>/postgres, or /var/lib/hipforge/postgres-<hash>/postgres when
  // running as root and the data directory is not reachable by the unprivileged user.
  const std::filesystem::path& cluster_dir() const { return cluster_dir_; }

  // For PostmasterSupervisor. Alive: the process named by postmaster.pid exists and is not a zombie.
  bool PostmasterAlive() override;
  // After the postmaster died: start it again on the same cluster (waits out the dead one's backends).
  absl::Status RestartPostmaster() override;

 private:
  EmbeddedPostgres(ProcessLauncher& launcher, EmbeddedPostgresOptions options);
  absl::Status StartImpl();  // the steps below, in order
  absl::Status FindBinaries();
  absl::Status LockDataDirectory();  // one owner per data directory (flock)
  absl::Status PlaceCluster();       // where the cluster and its socket live, private to their owner
  absl::Status InitClusterIfNew();
  absl::Status WriteAccessRules();  // pg_hba.conf + pg_ident.conf
  absl::Status WriteSettings();     // hipforge.conf: socket only, fsync per `durable`
  absl::Status StopLeftoverPostmaster();
  absl::Status StartPostmaster();
  absl::Status CreateDatabase();
  absl::StatusOr<ProcessResult> RunPg(const std::string& program, std::vector<std::string> args);

  ProcessLauncher& launcher_;
  EmbeddedPostgresOptions options_;
  std::filesystem::path cluster_dir_;
  std::filesystem::path socket_dir_;
  bool as_root_ = false;
  bool running_ = false;
  int lock_fd_ = -1;  // flock on <data_dir>/embedded-postgres.lock, held while this object lives
};

}  // namespace hipforge::server
