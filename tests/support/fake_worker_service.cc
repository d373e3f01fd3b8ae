#include "tests/support/fake_worker_service.h"

#include <algorithm>
#include <thread>

#include "common/sha256.h"

namespace hipforge::testing {

using Clock = std::chrono::steady_clock;

std::string FakeWorkerService::QueueTask(ScriptedTask script) {
  std::lock_guard lock(mutex_);
  const int id = next_id_++;
  Entry entry;
  entry.task.mutable_lease()->set_task_id("task-" + std::to_string(id));
  entry.task.mutable_lease()->set_job_id("job-" + std::to_string(id));
  entry.task.set_role(script.role);
  entry.task.set_lease_duration_ms(script.lease_duration.count());
  entry.task.set_managed_memory_found(script.managed_memory_found);
  entry.task.mutable_spec()->set_name("fake-" + std::to_string(id));
  entry.script = std::move(script);
  const std::string task_id = entry.task.lease().task_id();
  tasks_[task_id] = std::move(entry);
  queue_.push_back(task_id);
  Changed();
  return task_id;
}

void FakeWorkerService::SetRegistration(v1::RegisterWorkerResponse response) {
  std::lock_guard lock(mutex_);
  registration_ = std::move(response);
}

void FakeWorkerService::SetHeartbeatAnswer(HeartbeatAnswer answer) {
  std::lock_guard lock(mutex_);
  heartbeat_answer_ = answer;
}

void FakeWorkerService::SetCompleteAnswer(bool accepted, grpc::Status status) {
  std::lock_guard lock(mutex_);
  complete_accepted_ = accepted;
  complete_status_ = std::move(status);
}

void FakeWorkerService::SetFailTaskStatus(grpc::Status status) {
  std::lock_guard lock(mutex_);
  fail_task_status_ = std::move(status);
}

void FakeWorkerService::SetProgressStatus(grpc::Status status) {
  std::lock_guard lock(mutex_);
  progress_status_ = std::move(status);
}

void FakeWorkerService::ExpireLease(const std::string& task_id) {
  std::lock_guard lock(mutex_);
  if (leases_.erase(task_id) > 0) queue_.push_back(task_id);
  Changed();
}

void FakeWorkerService::SetDownloadChunkBytes(size_t bytes) {
  std::lock_guard lock(mutex_);
  chunk_bytes_ = std::max<size_t>(bytes, 1);
}

void FakeWorkerService::SetMaxLeaseWait(std::chrono::milliseconds wait) {
  std::lock_guard lock(mutex_);
  max_lease_wait_ = wait;
}

int FakeWorkerService::registrations() const {
  std::lock_guard lock(mutex_);
  return registrations_;
}
int FakeWorkerService::leases() const {
  std::lock_guard lock(mutex_);
  return leases_granted_;
}
std::vector<v1::HeartbeatRequest> FakeWorkerService::heartbeats() const {
  std::lock_guard lock(mutex_);
  return heartbeats_;
}
std::vector<v1::DownloadInputRequest> FakeWorkerService::downloads() const {
  std::lock_guard lock(mutex_);
  return downloads_;
}
std::vector<v1::ReportProgressRequest> FakeWorkerService::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}
std::vector<v1::FailTaskRequest> FakeWorkerService::failures() const {
  std::lock_guard lock(mutex_);
  return failures_;
}
std::vector<ReceivedCompletion> FakeWorkerService::completions() const {
  std::lock_guard lock(mutex_);
  return completions_;
}

std::string FakeWorkerService::LeaseOf(const std::string& task_id) const {
  std::lock_guard lock(mutex_);
  auto lease = leases_.find(task_id);
  return lease == leases_.end() ? "" : lease->second;
}

bool FakeWorkerService::WaitFor(const std::function<bool(const FakeWorkerService&)>& done,
                                std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  while (!done(*this)) {
    std::unique_lock lock(mutex_);
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
      lock.unlock();
      return done(*this);
    }
  }
  return true;
}

bool FakeWorkerService::HoldsLease(const v1::Lease& lease) const {
  auto held = leases_.find(lease.task_id());
  return held != leases_.end() && !lease.token().empty() && held->second == lease.token();
}

void FakeWorkerService::Changed() { changed_.notify_all(); }

grpc::Status FakeWorkerService::RegisterWorker(grpc::ServerContext*, const v1::RegisterWorkerRequest*,
                                               v1::RegisterWorkerResponse* response) {
  std::lock_guard lock(mutex_);
  ++registrations_;
  *response = registration_;
  Changed();
  return grpc::Status::OK;
}

// A long poll: answers as soon as a task is queued, empty after the wait or when the caller goes away.
grpc::Status FakeWorkerService::LeaseTask(grpc::ServerContext* context, const v1::LeaseTaskRequest* request,
                                          v1::LeaseTaskResponse* response) {
  std::unique_lock lock(mutex_);
  const auto deadline = Clock::now() + std::min(std::chrono::milliseconds(request->wait_ms()), max_lease_wait_);
  while (queue_.empty() && Clock::now() < deadline && !context->IsCancelled()) {
    changed_.wait_for(lock, std::chrono::milliseconds(10));
  }
  if (queue_.empty()) return grpc::Status::OK;
  Entry& entry = tasks_.at(queue_.front());
  queue_.pop_front();
  entry.task.mutable_lease()->set_token("lease-" + std::to_string(next_lease_++));
  entry.task.mutable_lease()->set_worker_id(request->worker_id());
  entry.task.set_attempt(entry.task.attempt() + 1);
  leases_[entry.task.lease().task_id()] = entry.task.lease().token();
  ++leases_granted_;
  *response->mutable_task() = entry.task;
  Changed();
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest* request,
                                          v1::HeartbeatResponse* response) {
  std::lock_guard lock(mutex_);
  heartbeats_.push_back(*request);
  Changed();
  if (!HoldsLease(request->lease())) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "lease not held");
  }
  switch (heartbeat_answer_) {
    case HeartbeatAnswer::kExtend:
      response->set_lease_duration_ms(tasks_.at(request->lease().task_id()).task.lease_duration_ms());
      return grpc::Status::OK;
    case HeartbeatAnswer::kCancel:
      leases_.erase(request->lease().task_id());  // a cancelled job's lease is void
      response->set_cancel_requested(true);
      return grpc::Status::OK;
    case HeartbeatAnswer::kLeaseLost:
      leases_.erase(request->lease().task_id());
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "lease expired and rescued");
    case HeartbeatAnswer::kUnavailable: return grpc::Status(grpc::StatusCode::UNAVAILABLE, "server restarting");
  }
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::DownloadInput(grpc::ServerContext*, const v1::DownloadInputRequest* request,
                                              grpc::ServerWriter<v1::ArtifactChunk>* writer) {
  ScriptedInput input;
  size_t chunk_bytes = 0;
  {
    std::lock_guard lock(mutex_);
    downloads_.push_back(*request);
    Changed();
    if (!HoldsLease(request->lease())) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "lease not held");
    }
    const ScriptedTask& script = tasks_.at(request->lease().task_id()).script;
    input = request->original() ? script.original : script.input;
    chunk_bytes = chunk_bytes_;
  }
  v1::ArtifactChunk chunk;
  chunk.mutable_info()->set_sha256(input.sha256.value_or(Sha256Hex(input.archive)));
  chunk.mutable_info()->set_size_bytes(static_cast<int64_t>(input.archive.size()));
  if (!writer->Write(chunk)) return grpc::Status(grpc::StatusCode::CANCELLED, "reader went away");
  for (size_t offset = 0; offset < input.archive.size(); offset += chunk_bytes) {
    chunk.Clear();
    chunk.set_data(input.archive.substr(offset, chunk_bytes));
    if (!writer->Write(chunk)) return grpc::Status(grpc::StatusCode::CANCELLED, "reader went away");
  }
  return input.status;
}

grpc::Status FakeWorkerService::Complete(grpc::ServerContext* context, grpc::ServerReader<v1::CompleteRequest>* reader,
                                         v1::CompleteResponse* response) {
  ReceivedCompletion completion;
  v1::CompleteRequest message;
  while (reader->Read(&message)) {
    switch (message.payload_case()) {
      case v1::CompleteRequest::kHeader: completion.header = message.header(); break;
      case v1::CompleteRequest::kArtifact: completion.artifacts.push_back({.info = message.artifact()}); break;
      case v1::CompleteRequest::kChunk:
        if (completion.artifacts.empty()) {
          return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "chunk before any artifact");
        }
        completion.artifacts.back().bytes += message.chunk();
        ++completion.artifacts.back().chunks;
        break;
      case v1::CompleteRequest::PAYLOAD_NOT_SET: break;
    }
  }
  std::lock_guard lock(mutex_);
  const std::string& task_id = completion.header.lease().task_id();
  // A stream the worker abandoned half way (an artifact it could not read) completes nothing.
  completion.accepted =
      !context->IsCancelled() && complete_status_.ok() && complete_accepted_ && HoldsLease(completion.header.lease());
  if (completion.accepted) leases_.erase(task_id);
  response->set_accepted(completion.accepted);
  completions_.push_back(std::move(completion));
  Changed();
  return complete_status_;
}

grpc::Status FakeWorkerService::FailTask(grpc::ServerContext*, const v1::FailTaskRequest* request,
                                         v1::FailTaskResponse* response) {
  std::lock_guard lock(mutex_);
  failures_.push_back(*request);
  Changed();
  if (!fail_task_status_.ok()) return fail_task_status_;
  const bool held = HoldsLease(request->lease());
  if (held) {
    leases_.erase(request->lease().task_id());
    if (request->give_back()) {
      // Leasable again at once, the attempt not counted (as the server's store does).
      Entry& entry = tasks_.at(request->lease().task_id());
      entry.task.set_attempt(entry.task.attempt() - 1);
      queue_.push_back(request->lease().task_id());
    }
  }
  response->set_accepted(held);
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::ReportProgress(grpc::ServerContext*, const v1::ReportProgressRequest* request,
                                               v1::ReportProgressResponse* response) {
  std::lock_guard lock(mutex_);
  progress_.push_back(*request);
  Changed();
  if (!progress_status_.ok()) return progress_status_;
  response->set_accepted(HoldsLease(request->lease()));
  return grpc::Status::OK;
}

FakeWorkerServer::FakeWorkerServer() {
  grpc::ServerBuilder builder;
  builder.RegisterService(&service_);
  server_ = builder.BuildAndStart();
  channel_ = server_->InProcessChannel(grpc::ChannelArguments());
}

FakeWorkerServer::~FakeWorkerServer() {
  // Long polls in flight end at once.
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
}

}  // namespace hipforge::testing
