#pragma once
// The server side of the worker protocol (hipforge.v1.WorkerService) in memory, for unit tests of the worker
// (worker/worker.h) without a server or PostgreSQL. Tasks and their input archives are scripted; every call the
// worker makes is recorded. It keeps the server's lease rules: a call whose lease token is not the one of the
// task's current lease is refused (Heartbeat and DownloadInput with FAILED_PRECONDITION, Complete and FailTask
// with accepted = false), and a lease ends with Complete, FailTask, a cancel or a lease-lost heartbeat.
// Served in process (no port) by FakeWorkerServer; the real-server tests are tests/worker/worker_test.cc.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "hipforge/v1/worker_service.grpc.pb.h"

namespace hipforge::testing {

// One download stream as the fake sends it: an ArtifactInfo carrying `sha256` (the archive's real hash
// unless set), then the archive in chunks, then `status`.
struct ScriptedInput {
  std::string archive;
  std::optional<std::string> sha256;
  grpc::Status status = grpc::Status::OK;
};

struct ScriptedTask {
  v1::TaskRole role = v1::TASK_ROLE_TRANSLATE;
  ScriptedInput input;
  ScriptedInput original;  // what DownloadInput(original = true) sends (validate tasks)
  bool managed_memory_found = false;
  // 0: the task carries no lease duration and the worker uses RegisterWorker's.
  std::chrono::milliseconds lease_duration{300};
};

// How the fake answers heartbeats from now on. kUnavailable: the call fails (a server restarting) and the lease
// stays as it is.
enum class HeartbeatAnswer { kExtend, kCancel, kLeaseLost, kUnavailable };

struct ReceivedArtifact {
  v1::ArtifactInfo info;
  std::string bytes;  // the chunks that followed the info, joined
  int chunks = 0;
};

struct ReceivedCompletion {
  v1::CompleteHeader header;
  std::vector<ReceivedArtifact> artifacts;
  bool accepted = false;
};

class FakeWorkerService final : public v1::WorkerService::Service {
 public:
  // --- Script ---
  // Queues a task (ids "job-<n>", "task-<n>"; each lease gets a fresh token); returns its task id.
  std::string QueueTask(ScriptedTask task);
  // What RegisterWorker answers (lease_duration_ms, chunk_bytes, input_limits).
  void SetRegistration(v1::RegisterWorkerResponse response);
  void SetHeartbeatAnswer(HeartbeatAnswer answer);
  // Complete: accepted (true) or ignored as a late completion (false); a non-OK status fails the RPC.
  void SetCompleteAnswer(bool accepted, grpc::Status status = grpc::Status::OK);
  // FailTask: a non-OK status fails the RPC and leaves the lease as it is (OK: the lease rules decide).
  void SetFailTaskStatus(grpc::Status status);
  // ReportProgress: a non-OK status fails the RPC (OK: accepted exactly when the lease is held).
  void SetProgressStatus(grpc::Status status);
  // What the server's rescuer does with a lease that ran out: it ends, and the task is queued for its next attempt.
  void ExpireLease(const std::string& task_id);
  void SetDownloadChunkBytes(size_t bytes);
  // The longest a LeaseTask long poll waits here, whatever wait_ms asks.
  void SetMaxLeaseWait(std::chrono::milliseconds wait);

  // --- Record (copies, safe while the worker runs) ---
  int registrations() const;
  int leases() const;
  std::vector<v1::HeartbeatRequest> heartbeats() const;
  std::vector<v1::DownloadInputRequest> downloads() const;
  std::vector<v1::ReportProgressRequest> progress() const;
  std::vector<v1::FailTaskRequest> failures() const;
  std::vector<ReceivedCompletion> completions() const;
  // The lease token `task_id` holds now; empty when none (never leased, finished, lost).
  std::string LeaseOf(const std::string& task_id) const;
  // Waits until `done` holds (checked after every call the fake answers) or `timeout` passes.
  bool WaitFor(const std::function<bool(const FakeWorkerService&)>& done, std::chrono::milliseconds timeout) const;

  // --- v1::WorkerService ---
  grpc::Status RegisterWorker(grpc::ServerContext*, const v1::RegisterWorkerRequest*,
                              v1::RegisterWorkerResponse* response) override;
  grpc::Status LeaseTask(grpc::ServerContext* context, const v1::LeaseTaskRequest* request,
                         v1::LeaseTaskResponse* response) override;
  grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest* request,
                         v1::HeartbeatResponse* response) override;
  grpc::Status DownloadInput(grpc::ServerContext*, const v1::DownloadInputRequest* request,
                             grpc::ServerWriter<v1::ArtifactChunk>* writer) override;
  grpc::Status Complete(grpc::ServerContext* context, grpc::ServerReader<v1::CompleteRequest>* reader,
                        v1::CompleteResponse* response) override;
  grpc::Status FailTask(grpc::ServerContext*, const v1::FailTaskRequest* request,
                        v1::FailTaskResponse* response) override;
  grpc::Status ReportProgress(grpc::ServerContext*, const v1::ReportProgressRequest* request,
                              v1::ReportProgressResponse* response) override;

 private:
  struct Entry {
    v1::Task task;
    ScriptedTask script;
  };
  // True when `lease` is the current lease of its task (the token decides). Caller holds mutex_.
  bool HoldsLease(const v1::Lease& lease) const;
  void Changed();  // caller holds mutex_

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  int next_id_ = 1;
  int next_lease_ = 1;
  std::deque<std::string> queue_;              // task ids waiting to be leased
  std::map<std::string, Entry> tasks_;         // by task id
  std::map<std::string, std::string> leases_;  // task id -> current lease token
  v1::RegisterWorkerResponse registration_;
  HeartbeatAnswer heartbeat_answer_ = HeartbeatAnswer::kExtend;
  bool complete_accepted_ = true;
  grpc::Status complete_status_ = grpc::Status::OK;
  grpc::Status fail_task_status_ = grpc::Status::OK;
  grpc::Status progress_status_ = grpc::Status::OK;
  size_t chunk_bytes_ = 64 << 10;
  std::chrono::milliseconds max_lease_wait_{std::chrono::seconds(2)};

  int registrations_ = 0;
  int leases_granted_ = 0;
  std::vector<v1::HeartbeatRequest> heartbeats_;
  std::vector<v1::DownloadInputRequest> downloads_;
  std::vector<v1::ReportProgressRequest> progress_;
  std::vector<v1::FailTaskRequest> failures_;
  std::vector<ReceivedCompletion> completions_;
};

// A FakeWorkerService behind a gRPC server with no port: channel() reaches it in process.
class FakeWorkerServer {
 public:
  FakeWorkerServer();
  ~FakeWorkerServer();
  FakeWorkerServer(const FakeWorkerServer&) = delete;
  FakeWorkerServer& operator=(const FakeWorkerServer&) = delete;

  FakeWorkerService& service() { return service_; }
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }

 private:
  FakeWorkerService service_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

}  // namespace hipforge::testing
