#pragma once
// Test support for the rpc layer: a real migrate-server (ServerApp) on loopback over a fresh
// PostgreSQL schema, stubs for both services, and an in-memory tar builder for hostile archives.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/process.h"
#include "hipforge/v1/migration_service.grpc.pb.h"
#include "hipforge/v1/worker_service.grpc.pb.h"
#include "server/server_app.h"
#include "server/server_config.h"

namespace hipforge::server::testing {

// Builds tar archives entry by entry with libarchive, including entries a packer would never
// write (absolute paths, "..", escaping links, device files).
class TarBuilder {
 public:
  enum class Compression { kNone, kGzip, kZstd };
  TarBuilder& File(const std::string& path, const std::string& content, int mode = 0644);
  TarBuilder& Directory(const std::string& path);
  TarBuilder& Symlink(const std::string& path, const std::string& target);
  TarBuilder& Hardlink(const std::string& path, const std::string& target);
  TarBuilder& CharDevice(const std::string& path);
  TarBuilder& Fifo(const std::string& path);
  std::string Build(Compression compression = Compression::kGzip) const;

 private:
  struct Entry {
    enum Kind { kFile, kDirectory, kSymlink, kHardlink, kCharDevice, kFifo } kind;
    std::string path;
    std::string data;  // content or link target
    int mode = 0644;
  };
  std::vector<Entry> entries_;
};

// A minimal CUDA repository (one kernel, one header, a CMakeLists) as a tar.gz.
std::string SmallCudaRepoArchive();
// Writes the same repository into `root`.
void WriteSmallCudaRepo(const std::filesystem::path& root);

v1::JobSpec TestSpec(const std::string& name, const std::string& team = "qa", bool translate_only = true);

struct SubmitOutcome {
  grpc::Status status;
  v1::Job job;
};
// `request_id`: SubmitHeader.request_id ("" sends none).
SubmitOutcome SubmitArchive(v1::MigrationService::Stub& stub, const v1::JobSpec& spec, const std::string& archive,
                            size_t chunk_bytes = 64 << 10, const std::string& request_id = "");

// Reads a whole artifact stream; the info message is returned through `info`.
grpc::Status FetchAll(v1::MigrationService::Stub& stub, const std::string& job_id, v1::ArtifactKind kind,
                      std::string* data, v1::ArtifactInfo* info);

// Fixture: a fresh server per test. Override Configure to change limits before it starts.
// api_ carries an API token of team "qa" (submit, read, cancel); workers_ a worker credential of pool
// "test" (translate, validate). Other teams and credentials: MintTeamToken / ApiFor / *WithToken.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  virtual void Configure(ServerConfig& config) {}
  // The dashboard's token check; the HTTP front end starts only with one (and config.http_listen).
  virtual const CallerAuthenticator* Authenticator() const { return nullptr; }

  // Stops and starts the server on the same schema and data dir (a restart).
  void RestartServer();
  void ConnectStubs();

  // Credentials minted straight in the server's credential store; the value is returned once.
  std::string MintTeamToken(const std::string& team,
                            std::vector<Scope> scopes = {Scope::kSubmit, Scope::kRead, Scope::kCancel},
                            std::optional<std::chrono::seconds> lifetime = std::nullopt);
  std::string MintWorkerCredential(const std::string& pool = "test",
                                   std::vector<std::string> roles = {"translate", "validate"},
                                   std::vector<std::string> toolchains = {});
  // Stubs on a new channel sending `token` ("" sends none).
  std::unique_ptr<v1::MigrationService::Stub> ApiWithToken(const std::string& token);
  std::unique_ptr<v1::WorkerService::Stub> WorkersWithToken(const std::string& token);
  // A stub with a full token of `team` (minted on first use, kept across RestartServer).
  v1::MigrationService::Stub& ApiFor(const std::string& team);

  // Polls GetJob until `done(job)` or timeout; returns the last job seen.
  v1::Job WaitForJob(const std::string& job_id, const std::function<bool(const v1::Job&)>& done,
                     std::chrono::milliseconds timeout = std::chrono::seconds(60));

  ServerConfig config_;
  std::filesystem::path temp_dir_;
  BoostProcessLauncher launcher_;
  SystemClock clock_;
  std::unique_ptr<ServerApp> app_;
  std::shared_ptr<grpc::Channel> channel_;  // carries the worker credential: workers_ and in-test Worker objects
  std::unique_ptr<v1::MigrationService::Stub> api_;
  std::unique_ptr<v1::WorkerService::Stub> workers_;
  std::map<std::string, std::string> team_tokens_;  // team -> token value
  std::map<std::string, std::unique_ptr<v1::MigrationService::Stub>> team_stubs_;
  std::string worker_token_;
};

bool IsFinal(v1::JobState state);

}  // namespace hipforge::server::testing
