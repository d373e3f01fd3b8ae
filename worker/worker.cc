#include "worker/worker.h"

#include <condition_variable>
#include <fstream>
#include <optional>
#include <random>
#include <system_error>
#include <thread>

#include <google/protobuf/util/time_util.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "worker/scratch_dir.h"

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
    case TaskOutcome::kGivenBack: return "given-back";
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
  bool given_back() const { return given_back_.load(); }

  // The worker is stopping: the task has until `deadline`; then the heartbeat thread gives it back.
  void BeginShutdown(Clock::time_point deadline) {
    std::lock_guard lock(heartbeat_mutex_);
    shutdown_deadline_ = deadline;
    heartbeat_cv_.notify_all();
  }
  // The result is being uploaded: from here on the task is finished, never given back. False when it
  // was given back already (the result must then be dropped).
  bool BeginReporting() {
    std::lock_guard lock(phase_mutex_);
    if (given_back_) return false;
    reporting_ = true;
    return true;
  }

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
    if (pending_.events().empty() || lease_lost_.load() || cancelled_.load() || given_back_.load()) return;
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
    while (!stop.stop_requested()) {
      std::optional<Clock::time_point> deadline;
      {
        std::unique_lock lock(heartbeat_mutex_);
        deadline = shutdown_deadline_;
        Clock::duration wait = heartbeat_interval_;
        if (deadline && *deadline > Clock::now()) wait = std::min(wait, *deadline - Clock::now());
        heartbeat_cv_.wait_for(lock, stop, wait, [&] { return shutdown_deadline_ != deadline; });
        deadline = shutdown_deadline_;
      }
      if (stop.stop_requested()) return;
      if (deadline && Clock::now() >= *deadline && GiveBack()) return;
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

  // Returns the task to the server (FailTask with give_back): leasable again at once, the attempt not
  // counted. False while the result is being uploaded: that finishes instead. When the call fails the
  // lease simply runs out and the rescuer (or the next server start) re-queues the task.
  bool GiveBack() {
    {
      std::lock_guard lock(phase_mutex_);
      if (reporting_) return false;
      given_back_ = true;
    }
    abandon_ = true;
    v1::FailTaskRequest request;
    request.set_task_id(task_.task_id());
    request.set_lease_token(task_.lease_token());
    request.set_worker_id(worker_.id());
    request.set_job_id(task_.job_id());
    request.set_give_back(true);
    request.set_error(absl::StrCat("worker ", worker_.id(), " stopped before the task finished (",
                                   worker_.options_.shutdown_grace.count(), " ms grace); given back"));
    v1::FailTaskResponse response;
    auto context = worker_.NewContext(std::chrono::seconds(5));
    grpc::Status status = worker_.stub_->FailTask(context.get(), request, &response);
    if (status.ok()) {
      spdlog::info("[worker={} job={} task={}] stopping: gave the task back to the server{}", worker_.id(),
                   task_.job_id(), task_.task_id(), response.accepted() ? "" : " (its lease had already gone)");
    } else {
      spdlog::warn("[worker={} job={} task={}] stopping: could not give the task back ({}); its lease will expire",
                   worker_.id(), task_.job_id(), task_.task_id(), status.error_message());
    }
    return true;
  }

  Worker& worker_;
  const v1::Task& task_;
  std::atomic<bool> abandon_{false};
  std::atomic<bool> lease_lost_{false};
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> given_back_{false};
  std::mutex phase_mutex_;  // given_back_ vs reporting_: a task is either given back or reported
  bool reporting_ = false;
  std::chrono::milliseconds heartbeat_interval_;
  std::mutex heartbeat_mutex_;
  std::condition_variable_any heartbeat_cv_;
  std::optional<Clock::time_point> shutdown_deadline_;  // guarded by heartbeat_mutex_
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
  if (response.has_input_limits()) {
    // Extract under the limits Submit checked: what the server accepted, the worker accepts.
    const v1::ArchiveLimits& limits = response.input_limits();
    ExtractLimits& extract = options_.extract_limits;
    if (limits.max_compressed_bytes() > 0) extract.max_compressed_bytes = limits.max_compressed_bytes();
    if (limits.max_uncompressed_bytes() > 0) extract.max_uncompressed_bytes = limits.max_uncompressed_bytes();
    if (limits.max_files() > 0) extract.max_files = limits.max_files();
    if (limits.max_compression_ratio() > 0) extract.max_compression_ratio = limits.max_compression_ratio();
    if (limits.ratio_check_floor_bytes() > 0) extract.ratio_check_floor_bytes = limits.ratio_check_floor_bytes();
  }
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

// Everything one task's stages share, from lease to report.
struct Worker::TaskState {
  const v1::Task& task;
  std::string tag;  // log prefix
  TaskExecution& execution;
  TaskRunner* runner = nullptr;
  std::unique_ptr<TaskScratchDir> scratch;  // input/, original/, work/; removed at the end
  std::filesystem::path input_root;
  std::filesystem::path original_root;  // validate tasks only
  absl::StatusOr<TaskOutput> output = absl::UnknownError("the role did not run");
};

namespace {

// Failures a retry would reproduce: the same input and code give the same answer, so the job fails
// now instead of after every attempt. Everything else (I/O, the server away, memory) may pass.
bool IsDeterministic(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnimplemented:
      return true;
    default:
      return false;
  }
}

// Runs the role; an exception from it (a bug, or input no check foresaw) ends this task, never the
// process — with in-process workers the process is the server.
absl::StatusOr<TaskOutput> RunGuarded(TaskRunner& runner, const TaskContext& context, bool* deterministic) {
  *deterministic = false;
  try {
    absl::StatusOr<TaskOutput> output = runner.Run(context);
    if (!output.ok()) *deterministic = IsDeterministic(output.status());
    return output;
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("the task ran out of memory");
  } catch (const std::system_error& error) {
    return absl::InternalError(absl::StrCat("system error in the task: ", EscapeForMessage(error.what())));
  } catch (const std::exception& error) {
    *deterministic = true;  // the same input throws again
    return absl::InternalError(absl::StrCat("the task failed with an exception: ", EscapeForMessage(error.what())));
  } catch (...) {
    *deterministic = true;
    return absl::InternalError("the task failed with an unknown exception");
  }
}

// PostgreSQL stores text as UTF-8: a message that is not would fail the RPC that reports it.
std::string SafeText(absl::string_view text) {
  const std::string_view bytes(text.data(), text.size());
  return IsValidUtf8(bytes) ? std::string(bytes) : EscapeForMessage(bytes);
}

}  // namespace

absl::StatusOr<TaskOutcome> Worker::Execute(const v1::Task& task) {
  const std::string tag = absl::StrCat("[worker=", options_.worker_id, " job=", task.job_id(),
                                       " task=", task.task_id(), "]");
  spdlog::info("{} leased {} task, attempt {}", tag, v1::TaskRole_Name(task.role()), task.attempt());
  TaskExecution execution(*this, task);
  {
    std::lock_guard lock(poll_mutex_);
    current_task_ = &execution;
    if (stopping_) execution.BeginShutdown(Clock::now() + options_.shutdown_grace);
  }
  struct ForgetTask {
    Worker& worker;
    ~ForgetTask() {
      std::lock_guard lock(worker.poll_mutex_);
      worker.current_task_ = nullptr;
    }
  } forget_task{*this};  // before `execution` goes
  TaskState state{.task = task, .tag = tag, .execution = execution};
  try {
    if (StageEnd end = PrepareScratch(state)) return *end;
    if (StageEnd end = DownloadInputs(state)) return *end;
    if (StageEnd end = RunRole(state)) return *end;
    return ReportResult(state);
  } catch (const std::exception& error) {
    // Worker code itself (not the role) threw: report it like any other failure of this attempt.
    return Fail(state, absl::InternalError(absl::StrCat("worker error: ", EscapeForMessage(error.what()))),
                /*permanent=*/false);
  }
}

absl::StatusOr<TaskOutcome> Worker::Fail(TaskState& state, const absl::Status& error, bool permanent) {
  state.execution.Flush();
  if (state.execution.given_back()) return TaskOutcome::kGivenBack;
  if (state.execution.cancelled()) return TaskOutcome::kCancelled;
  if (state.execution.lease_lost()) return TaskOutcome::kLeaseLost;
  spdlog::warn("{} failing task{}: {}", state.tag, permanent ? " (deterministic: no retry)" : "", error.ToString());
  v1::FailTaskRequest request;
  request.set_task_id(state.task.task_id());
  request.set_lease_token(state.task.lease_token());
  request.set_worker_id(options_.worker_id);
  request.set_error(SafeText(error.message()));
  request.set_permanent(permanent);
  request.set_job_id(state.task.job_id());
  v1::FailTaskResponse response;
  auto context = NewContext(options_.rpc_timeout);
  grpc::Status status = stub_->FailTask(context.get(), request, &response);
  if (!status.ok()) return ToAbsl(status);
  return response.accepted() ? TaskOutcome::kFailed : TaskOutcome::kLeaseLost;
}

Worker::StageEnd Worker::PrepareScratch(TaskState& state) {
  auto runner = runners_.find(state.task.role());
  if (runner == runners_.end()) {
    // Another worker may serve the role: not this task's fault.
    return Fail(state,
                absl::UnimplementedError(absl::StrCat("worker has no runner for ", v1::TaskRole_Name(state.task.role()))),
                /*permanent=*/false);
  }
  state.runner = runner->second;
  absl::StatusOr<std::unique_ptr<TaskScratchDir>> scratch = TaskScratchDir::Create(
      options_.scratch_root, absl::StrCat(state.task.task_id(), "-", RandomSuffix()), options_.keep_scratch);
  if (!scratch.ok()) return Fail(state, scratch.status(), /*permanent=*/false);
  state.scratch = *std::move(scratch);
  std::error_code ec;
  fs::create_directories(state.scratch->path() / "work", ec);
  if (ec) return Fail(state, absl::InternalError(absl::StrCat("cannot create the work dir: ", ec.message())), false);
  state.input_root = state.scratch->path() / "input";
  // The validator maps build errors back to the CUDA sources and reads reference outputs from them.
  if (state.task.role() == v1::TASK_ROLE_VALIDATE) state.original_root = state.scratch->path() / "original";
  return std::nullopt;
}

Worker::StageEnd Worker::DownloadInputs(TaskState& state) {
  if (StageEnd end = DownloadInto(state, /*original=*/false, state.input_root)) return end;
  if (!state.original_root.empty()) return DownloadInto(state, /*original=*/true, state.original_root);
  return std::nullopt;
}

// Streams the download straight into the hostile-archive extractor (nothing touches disk unchecked)
// and hashes every byte received, also those after the archive's end, so the checksum covers exactly
// what the server stored.
Worker::StageEnd Worker::DownloadInto(TaskState& state, bool original, const fs::path& into) {
  v1::DownloadInputRequest request;
  request.set_task_id(state.task.task_id());
  request.set_lease_token(state.task.lease_token());
  request.set_job_id(state.task.job_id());
  request.set_original(original);
  auto context = NewContext(std::chrono::minutes(10));
  auto reader = stub_->DownloadInput(context.get(), request);
  v1::ArtifactChunk chunk;
  std::string expected_sha;
  Sha256Hasher received;
  auto next_data = [&]() -> bool {
    while (reader->Read(&chunk)) {
      if (chunk.has_info()) {
        expected_sha = chunk.info().sha256();
        continue;
      }
      received.Update(chunk.data());
      return true;
    }
    return false;
  };
  ArchiveChunkSource source = [&]() -> absl::StatusOr<std::string_view> {
    return next_data() ? std::string_view(chunk.data()) : std::string_view();
  };
  absl::StatusOr<ExtractResult> extracted = SafeExtract(source, into, options_.extract_limits);
  while (next_data()) {
    // The rest of the stream: hashed, so trailing bytes cannot fail the checksum.
  }
  grpc::Status status = reader->Finish();
  if (state.execution.given_back()) return TaskOutcome::kGivenBack;
  if (IsLeaseLost(status)) return state.execution.cancelled() ? TaskOutcome::kCancelled : TaskOutcome::kLeaseLost;
  if (!status.ok()) return Fail(state, ToAbsl(status), /*permanent=*/false);
  if (!expected_sha.empty() && received.HexDigest() != expected_sha) {
    return Fail(state, absl::DataLossError("input archive checksum mismatch"), /*permanent=*/false);
  }
  // The server checked this archive under the same limits: a refusal of the input is final; a local
  // error (disk full) is not.
  if (!extracted.ok()) {
    const bool input_refused = IsDeterministic(extracted.status()) ||
                               extracted.status().code() == absl::StatusCode::kResourceExhausted;
    return Fail(state, extracted.status(), input_refused);
  }
  spdlog::info("{} {} extracted: {} files, {} bytes", state.tag, original ? "original repository" : "input",
               extracted->files, extracted->uncompressed_bytes);
  return std::nullopt;
}

Worker::StageEnd Worker::RunRole(TaskState& state) {
  if (state.execution.given_back()) return TaskOutcome::kGivenBack;
  TaskContext context{.job_id = state.task.job_id(),
                      .task_id = state.task.task_id(),
                      .spec = state.task.spec(),
                      .input_root = state.input_root,
                      .original_root = state.original_root,
                      .managed_memory_found = state.task.managed_memory_found(),
                      .work_dir = state.scratch->path() / "work",
                      .progress = state.execution,
                      .abandon = state.execution.abandon()};
  bool deterministic = false;
  state.output = RunGuarded(*state.runner, context, &deterministic);
  state.execution.Flush();
  if (state.execution.given_back()) {
    spdlog::info("{} runner ended after the task was given back; result dropped", state.tag);
    return TaskOutcome::kGivenBack;
  }
  if (state.execution.cancelled()) {
    spdlog::info("{} stopped: the job was cancelled ({})", state.tag,
                 state.output.ok() ? "runner finished anyway" : state.output.status().ToString());
    return TaskOutcome::kCancelled;
  }
  if (state.execution.lease_lost()) {
    spdlog::warn("{} lease lost while running; result dropped", state.tag);
    return TaskOutcome::kLeaseLost;
  }
  if (!state.output.ok()) return Fail(state, state.output.status(), deterministic);
  return std::nullopt;
}

// Complete: header, then each artifact as info + chunks.
absl::StatusOr<TaskOutcome> Worker::ReportResult(TaskState& state) {
  if (!state.execution.BeginReporting()) return TaskOutcome::kGivenBack;
  const TaskOutput& output = *state.output;
  v1::CompleteResponse response;
  auto rpc = NewContext(std::chrono::minutes(10));
  auto writer = stub_->Complete(rpc.get(), &response);
  v1::CompleteRequest message;
  v1::CompleteHeader* header = message.mutable_header();
  header->set_task_id(state.task.task_id());
  header->set_lease_token(state.task.lease_token());
  header->set_worker_id(options_.worker_id);
  header->set_job_id(state.task.job_id());
  header->mutable_result()->set_ok(!output.job_failed);
  header->mutable_result()->set_summary(SafeText(output.summary));
  header->mutable_result()->set_files_total(output.files_total);
  header->mutable_result()->set_files_translated(output.files_translated);
  header->set_report_json(output.report_json);
  header->mutable_validate_hints()->set_managed_memory(output.managed_memory);
  bool stream_ok = writer->Write(message);
  for (const TaskArtifact& artifact : output.artifacts) {
    if (!stream_ok) break;
    absl::StatusOr<std::string> sha = Sha256HexOfFile(artifact.file);
    if (!sha.ok()) return Fail(state, sha.status(), /*permanent=*/false);
    std::error_code ec;
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
    spdlog::warn("{} Complete failed: {}", state.tag, status.error_message());
    return ToAbsl(status);
  }
  spdlog::info("{} completed ({}); accepted={} job state {}", state.tag, output.summary, response.accepted(),
               v1::JobState_Name(response.job_state()));
  return response.accepted() ? TaskOutcome::kCompleted : TaskOutcome::kCompletionIgnored;
}

void Worker::Run(std::stop_token stop) {
  std::stop_callback on_stop(stop, [this] {
    std::lock_guard lock(poll_mutex_);
    stopping_ = true;
    if (current_poll_ != nullptr) current_poll_->TryCancel();
    if (current_task_ != nullptr) current_task_->BeginShutdown(Clock::now() + options_.shutdown_grace);
  });
  std::mutex sleep_mutex;
  std::condition_variable_any sleeper;
  auto sleep = [&](std::chrono::milliseconds duration) {
    std::unique_lock lock(sleep_mutex);
    sleeper.wait_for(lock, stop, duration, [] { return false; });
  };
  if (int removed = SweepAbandonedScratch(options_.scratch_root); removed > 0) {
    spdlog::info("[worker={}] removed {} scratch dir(s) left by stopped workers", options_.worker_id, removed);
  }
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
    absl::StatusOr<TaskOutcome> outcome = absl::UnknownError("not run");
    try {
      outcome = RunOnce();
    } catch (const std::exception& error) {
      // Never let one task end the loop (or, for in-process workers, the server).
      outcome = absl::InternalError(absl::StrCat("task loop: ", EscapeForMessage(error.what())));
    }
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
  std::lock_guard lock(run_mutex_);
  run_finished_ = true;
  run_finished_cv_.notify_all();
}

bool Worker::WaitUntilStopped(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(run_mutex_);
  return run_finished_cv_.wait_until(lock, deadline, [this] { return run_finished_; });
}

}  // namespace hipforge::worker
