#include "worker/worker.h"

#include <condition_variable>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include <google/protobuf/util/time_util.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

absl::Status ToAbsl(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

// Lease lost: expired and rescued, job cancelled, or completed by someone else.
bool IsLeaseLost(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
         status.error_code() == grpc::StatusCode::NOT_FOUND;
}

std::string RandomSuffix() {
  std::random_device device;
  return absl::StrCat(absl::Hex(device()), absl::Hex(device()));
}

}  // namespace

const char* TaskOutcomeName(TaskOutcome outcome) {
  switch (outcome) {
    case TaskOutcome::kNoTask: return "no-task";
    case TaskOutcome::kCompleted: return "completed";
    case TaskOutcome::kCompletionIgnored: return "completion-ignored";
    case TaskOutcome::kFailed: return "failed";
    case TaskOutcome::kLeaseLost: return "lease-lost";
    case TaskOutcome::kCancelled: return "cancelled";
  }
  return "?";
}

// Everything that lives for one leased task: the heartbeat thread, the progress forwarder and the
// abandon flag they share with the runner.
class Worker::TaskExecution final : public ProgressReporter {
 public:
  TaskExecution(Worker& worker, const v1::Task& task) : worker_(worker), task_(task) {
    const auto lease = task.lease_duration_ms() > 0 ? std::chrono::milliseconds(task.lease_duration_ms())
                                                    : worker.lease_duration_;
    heartbeat_interval_ = std::max(std::chrono::milliseconds(100), lease / 3);
    heartbeat_ = std::jthread([this](std::stop_token stop) { HeartbeatLoop(stop); });
  }
  ~TaskExecution() override {
    heartbeat_.request_stop();
    heartbeat_cv_.notify_all();
  }

  const std::atomic<bool>& abandon() const { return abandon_; }
  bool lease_lost() const { return lease_lost_.load(); }
  bool cancelled() const { return cancelled_.load(); }

  void FileDone(std::string_view path, int done, int total, std::string_view status) override {
    v1::JobEvent event;
    v1::FileProgress* file = event.mutable_file_progress();
    file->set_path(std::string(path));
    file->set_done(done);
    file->set_total(total);
    file->set_status(std::string(status));
    Queue(std::move(event), /*urgent=*/done == total);
  }
  void Step(std::string_view kind, std::string_view name, std::string_view status,
            std::string_view detail) override {
    v1::JobEvent event;
    v1::StepProgress* step = event.mutable_step();
    step->set_kind(std::string(kind));
    step->set_name(std::string(name));
    step->set_status(std::string(status));
    step->set_detail(std::string(detail));
    Queue(std::move(event), /*urgent=*/status != "progress");
  }
  void Log(std::string_view level, std::string_view message) override {
    v1::JobEvent event;
    event.mutable_log()->set_level(std::string(level));
    event.mutable_log()->set_message(std::string(message));
    Queue(std::move(event), /*urgent=*/true);
  }

  // Sends whatever is buffered; called at the end of the task.
  void Flush() {
    std::lock_guard lock(progress_mutex_);
    FlushLocked();
  }

 private:
  void Queue(v1::JobEvent event, bool urgent) {
    std::lock_guard lock(progress_mutex_);
    *pending_.add_events() = std::move(event);
    if (urgent || Clock::now() - last_flush_ >= worker_.options_.progress_interval) FlushLocked();
  }

  void FlushLocked() {
    last_flush_ = Clock::now();
    if (pending_.events().empty() || lease_lost_.load() || cancelled_.load()) return;
    pending_.set_task_id(task_.task_id());
    pending_.set_lease_token(task_.lease_token());
    pending_.set_job_id(task_.job_id());
    v1::ReportProgressResponse response;
    auto context = worker_.NewContext(std::chrono::seconds(5));
    grpc::Status status = worker_.stub_->ReportProgress(context.get(), pending_, &response);
    if (!status.ok()) {
      // Progress is best effort; the result still goes through Complete.
      spdlog::warn("[worker={} job={} task={}] progress not delivered: {}", worker_.id(), task_.job_id(),
                   task_.task_id(), status.error_message());
    }
    pending_.clear_events();
  }

  void HeartbeatLoop(std::stop_token stop) {
    std::mutex mutex;
    std::unique_lock lock(mutex);
    while (!stop.stop_requested()) {
      heartbeat_cv_.wait_for(lock, stop, heartbeat_interval_, [] { return false; });
      if (stop.stop_requested()) return;
      v1::HeartbeatRequest request;
      request.set_task_id(task_.task_id());
      request.set_lease_token(task_.lease_token());
      request.set_worker_id(worker_.id());
      request.set_job_id(task_.job_id());
      v1::HeartbeatResponse response;
      auto context = worker_.NewContext(std::chrono::seconds(10));
      grpc::Status status = worker_.stub_->Heartbeat(context.get(), request, &response);
      if (IsLeaseLost(status)) {
        spdlog::warn("[worker={} job={} task={}] lease lost: {}", worker_.id(), task_.job_id(), task_.task_id(),
                     status.error_message());
        lease_lost_ = true;
        abandon_ = true;
        return;
      }
      if (!status.ok()) {
        // Transient (server restarting): keep trying; the lease may still be ours when it is back.
        spdlog::warn("[worker={} job={} task={}] heartbeat failed: {}", worker_.id(), task_.job_id(),
                     task_.task_id(), status.error_message());
        continue;
      }
      if (response.cancel_requested()) {
        spdlog::info("[worker={} job={} task={}] job cancelled; stopping the task", worker_.id(), task_.job_id(),
                     task_.task_id());
        cancelled_ = true;
        abandon_ = true;
        return;  // the task is over on the server: nothing more to extend
      }
    }
  }

  Worker& worker_;
  const v1::Task& task_;
  std::atomic<bool> abandon_{false};
  std::atomic<bool> lease_lost_{false};
  std::atomic<bool> cancelled_{false};
  std::chrono::milliseconds heartbeat_interval_;
  std::condition_variable_any heartbeat_cv_;
  std::mutex progress_mutex_;
  v1::ReportProgressRequest pending_;
  Clock::time_point last_flush_{};
  std::jthread heartbeat_;  // last: joined first on destruction
};

Worker::Worker(std::shared_ptr<grpc::Channel> channel, std::map<v1::TaskRole, TaskRunner*> runners,
               WorkerOptions options)
    : stub_(v1::WorkerService::NewStub(std::move(channel))), runners_(std::move(runners)),
      options_(std::move(options)) {
  if (options_.scratch_root.empty()) options_.scratch_root = fs::temp_directory_path() / "hipforge-worker";
}

Worker::~Worker() = default;

std::unique_ptr<grpc::ClientContext> Worker::NewContext(std::chrono::milliseconds timeout) const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + timeout);
  return context;
}

absl::Status Worker::Register() {
  v1::RegisterWorkerRequest request;
  request.set_worker_id(options_.worker_id);
  for (const auto& [role, runner] : runners_) request.add_roles(role);
  *request.mutable_capabilities() = options_.capabilities;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) request.set_hostname(host);
  v1::RegisterWorkerResponse response;
  auto context = NewContext(options_.rpc_timeout);
  grpc::Status status = stub_->RegisterWorker(context.get(), request, &response);
  if (!status.ok()) return ToAbsl(status);
  if (response.lease_duration_ms() > 0) lease_duration_ = std::chrono::milliseconds(response.lease_duration_ms());
  if (response.chunk_bytes() > 0) chunk_bytes_ = response.chunk_bytes();
  spdlog::info("[worker={}] registered; lease {} ms", options_.worker_id, lease_duration_.count());
  return absl::OkStatus();
}

absl::StatusOr<TaskOutcome> Worker::RunOnce() {
  v1::LeaseTaskRequest request;
  request.set_worker_id(options_.worker_id);
  for (const auto& [role, runner] : runners_) request.add_roles(role);
  request.set_wait_ms(options_.lease_wait.count());
  v1::LeaseTaskResponse response;
  auto context = NewContext(options_.lease_wait + options_.rpc_timeout);
  {
    std::lock_guard lock(poll_mutex_);
    if (stopping_) return TaskOutcome::kNoTask;
    current_poll_ = context.get();
  }
  grpc::Status status = stub_->LeaseTask(context.get(), request, &response);
  {
    std::lock_guard lock(poll_mutex_);
    current_poll_ = nullptr;
  }
  if (stopping_ && status.error_code() == grpc::StatusCode::CANCELLED) return TaskOutcome::kNoTask;
  if (!status.ok()) return ToAbsl(status);
  if (!response.has_task()) return TaskOutcome::kNoTask;
  return Execute(response.task());
}

absl::StatusOr<TaskOutcome> Worker::Execute(const v1::Task& task) {
  const std::string tag = absl::StrCat("[worker=", options_.worker_id, " job=", task.job_id(),
                                       " task=", task.task_id(), "]");
  spdlog::info("{} leased {} task, attempt {}", tag, v1::TaskRole_Name(task.role()), task.attempt());
  auto runner = runners_.find(task.role());
  TaskExecution execution(*this, task);

  // Private scratch dir per task; removed at the end whatever happens.
  std::error_code ec;
  const fs::path task_dir = options_.scratch_root / absl::StrCat(task.task_id(), "-", RandomSuffix());
  fs::create_directories(task_dir / "work", ec);
  struct Cleanup {
    fs::path dir;
    bool keep;
    ~Cleanup() {
      std::error_code ignored;
      if (!keep) fs::remove_all(dir, ignored);
    }
  } cleanup{task_dir, options_.keep_scratch};

  auto fail = [&](const absl::Status& error, bool permanent) -> absl::StatusOr<TaskOutcome> {
    execution.Flush();
    if (execution.cancelled()) return TaskOutcome::kCancelled;
    if (execution.lease_lost()) return TaskOutcome::kLeaseLost;
    spdlog::warn("{} failing task: {}", tag, error.ToString());
    v1::FailTaskRequest request;
    request.set_task_id(task.task_id());
    request.set_lease_token(task.lease_token());
    request.set_worker_id(options_.worker_id);
    request.set_error(std::string(error.message()));
    request.set_permanent(permanent);
    request.set_job_id(task.job_id());
    v1::FailTaskResponse response;
    auto context = NewContext(options_.rpc_timeout);
    grpc::Status status = stub_->FailTask(context.get(), request, &response);
    if (!status.ok()) return ToAbsl(status);
    return response.accepted() ? TaskOutcome::kFailed : TaskOutcome::kLeaseLost;
  };

  if (ec) return fail(absl::InternalError(absl::StrCat("cannot create ", task_dir.string(), ": ", ec.message())), false);
  if (runner == runners_.end()) {
    return fail(absl::UnimplementedError(absl::StrCat("worker has no runner for ", v1::TaskRole_Name(task.role()))),
                false);
  }

  // Download straight into the hostile-archive extractor; nothing touches disk unchecked.
  // Returns the outcome to end the task with, or nullopt when the input is in place.
  auto download = [&](bool original, const fs::path& into) -> std::optional<absl::StatusOr<TaskOutcome>> {
    v1::DownloadInputRequest request;
    request.set_task_id(task.task_id());
    request.set_lease_token(task.lease_token());
    request.set_job_id(task.job_id());
    request.set_original(original);
    auto context = NewContext(std::chrono::minutes(10));
    auto reader = stub_->DownloadInput(context.get(), request);
    v1::ArtifactChunk chunk;
    std::string expected_sha;
    std::string received;  // kept for the checksum; inputs are bounded by the server's limits
    ArchiveChunkSource source = [&]() -> absl::StatusOr<std::string_view> {
      while (reader->Read(&chunk)) {
        if (chunk.has_info()) {
          expected_sha = chunk.info().sha256();
          continue;
        }
        received.append(chunk.data());
        return std::string_view(chunk.data());
      }
      return std::string_view();
    };
    absl::StatusOr<ExtractResult> extracted = SafeExtract(source, into, options_.extract_limits);
    // Drain the stream so the call finishes cleanly whatever the extractor did.
    while (reader->Read(&chunk)) {
    }
    grpc::Status status = reader->Finish();
    if (IsLeaseLost(status)) return execution.cancelled() ? TaskOutcome::kCancelled : TaskOutcome::kLeaseLost;
    if (!status.ok()) return fail(ToAbsl(status), false);
    if (!extracted.ok()) return fail(extracted.status(), /*permanent=*/true);
    if (!expected_sha.empty() && Sha256Hex(received) != expected_sha) {
      return fail(absl::DataLossError("input archive checksum mismatch"), false);
    }
    spdlog::info("{} {} extracted: {} files, {} bytes", tag, original ? "original repository" : "input",
                 extracted->files, extracted->uncompressed_bytes);
    return std::nullopt;
  };
  const fs::path input_root = task_dir / "input";
  if (auto ended = download(false, input_root)) return *ended;
  // The validator maps build errors back to the CUDA sources and reads reference outputs from them.
  fs::path original_root;
  if (task.role() == v1::TASK_ROLE_VALIDATE) {
    original_root = task_dir / "original";
    if (auto ended = download(true, original_root)) return *ended;
  }

  TaskContext context{.job_id = task.job_id(),
                      .task_id = task.task_id(),
                      .spec = task.spec(),
                      .input_root = input_root,
                      .original_root = original_root,
                      .managed_memory_found = task.managed_memory_found(),
                      .work_dir = task_dir / "work",
                      .progress = execution,
                      .abandon = execution.abandon()};
  absl::StatusOr<TaskOutput> output = runner->second->Run(context);
  execution.Flush();
  if (execution.cancelled()) {
    spdlog::info("{} stopped: the job was cancelled ({})", tag,
                 output.ok() ? "runner finished anyway" : output.status().ToString());
    return TaskOutcome::kCancelled;
  }
  if (execution.lease_lost()) {
    spdlog::warn("{} lease lost while running; result dropped", tag);
    return TaskOutcome::kLeaseLost;
  }
  if (!output.ok()) return fail(output.status(), false);

  // Complete: header, then each artifact as info + chunks.
  v1::CompleteResponse response;
  auto rpc = NewContext(std::chrono::minutes(10));
  auto writer = stub_->Complete(rpc.get(), &response);
  v1::CompleteRequest message;
  v1::CompleteHeader* header = message.mutable_header();
  header->set_task_id(task.task_id());
  header->set_lease_token(task.lease_token());
  header->set_worker_id(options_.worker_id);
  header->set_job_id(task.job_id());
  header->mutable_result()->set_ok(!output->job_failed);
  header->mutable_result()->set_summary(output->summary);
  header->mutable_result()->set_files_total(output->files_total);
  header->mutable_result()->set_files_translated(output->files_translated);
  header->set_report_json(output->report_json);
  bool stream_ok = writer->Write(message);
  for (const TaskArtifact& artifact : output->artifacts) {
    if (!stream_ok) break;
    absl::StatusOr<std::string> sha = Sha256HexOfFile(artifact.file);
    if (!sha.ok()) return fail(sha.status(), false);
    message.Clear();
    v1::ArtifactInfo* info = message.mutable_artifact();
    info->set_kind(artifact.kind);
    info->set_format(artifact.format);
    info->set_sha256(*sha);
    info->set_size_bytes(static_cast<int64_t>(fs::file_size(artifact.file, ec)));
    stream_ok = writer->Write(message);
    std::ifstream in(artifact.file, std::ios::binary);
    std::string buffer(static_cast<size_t>(chunk_bytes_), '\0');
    while (stream_ok && in) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      if (in.gcount() <= 0) break;
      message.Clear();
      message.set_chunk(buffer.data(), static_cast<size_t>(in.gcount()));
      stream_ok = writer->Write(message);
    }
  }
  writer->WritesDone();
  grpc::Status status = writer->Finish();
  if (!status.ok()) {
    spdlog::warn("{} Complete failed: {}", tag, status.error_message());
    return ToAbsl(status);
  }
  spdlog::info("{} completed ({}); accepted={} job state {}", tag, output->summary, response.accepted(),
               v1::JobState_Name(response.job_state()));
  return response.accepted() ? TaskOutcome::kCompleted : TaskOutcome::kCompletionIgnored;
}

void Worker::Run(std::stop_token stop) {
  std::stop_callback on_stop(stop, [this] {
    std::lock_guard lock(poll_mutex_);
    stopping_ = true;
    if (current_poll_ != nullptr) current_poll_->TryCancel();
  });
  std::mutex sleep_mutex;
  std::condition_variable_any sleeper;
  auto sleep = [&](std::chrono::milliseconds duration) {
    std::unique_lock lock(sleep_mutex);
    sleeper.wait_for(lock, stop, duration, [] { return false; });
  };
  std::chrono::milliseconds backoff(200);
  bool registered = false;
  while (!stop.stop_requested()) {
    if (!registered) {
      absl::Status status = Register();
      if (!status.ok()) {
        spdlog::warn("[worker={}] register failed: {}; retrying in {} ms", options_.worker_id, std::string(status.message()),
                     backoff.count());
        sleep(backoff);
        backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
        continue;
      }
      registered = true;
      backoff = std::chrono::milliseconds(200);
    }
    absl::StatusOr<TaskOutcome> outcome = RunOnce();
    if (!outcome.ok()) {
      if (stop.stop_requested()) break;
      spdlog::warn("[worker={}] {}; retrying in {} ms", options_.worker_id, outcome.status().ToString(),
                   backoff.count());
      // The server may have restarted and forgotten us: register again.
      if (outcome.status().code() == absl::StatusCode::kUnavailable ||
          outcome.status().code() == absl::StatusCode::kNotFound) {
        registered = false;
      }
      sleep(backoff);
      backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
      continue;
    }
    backoff = std::chrono::milliseconds(200);
  }
  spdlog::info("[worker={}] stopped", options_.worker_id);
}

}  // namespace hipforge::worker
