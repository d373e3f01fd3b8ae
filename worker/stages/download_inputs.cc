// A stage of Worker::Execute (worker.cc runs the list; worker/task_state.h holds what the stages share).
#include <thread>

#include "common/archive.h"
#include "common/sha256.h"
#include "worker/run_guarded.h"
#include "worker/task_state.h"
#include "worker/worker.h"

namespace hipforge::worker {
namespace fs = std::filesystem;

namespace {
constexpr int kDownloadAttempts = 4;  // a download cut by its server's death starts again, through the next server
}  // namespace

Worker::StageEnd Worker::DownloadInputs(TaskState& state) {
  if (StageEnd end = DownloadRetrying(state, /*original=*/false, state.input_root)) return end;
  if (!state.original_root.empty()) return DownloadRetrying(state, /*original=*/true, state.original_root);
  return std::nullopt;
}

Worker::StageEnd Worker::DownloadRetrying(TaskState& state, bool original, const fs::path& into) {
  for (int attempt = 1;; ++attempt) {
    const bool last = attempt >= kDownloadAttempts;
    StageEnd end = DownloadInto(state, original, into, /*retry_unavailable=*/!last);
    if (last || !end || end->ok() || end->status().code() != absl::StatusCode::kUnavailable) return end;
    spdlog::warn("{} input download cut ({}); starting it again", state.tag, std::string(end->status().message()));
    std::error_code ignored;
    fs::remove_all(into, ignored);
    fs::create_directories(into, ignored);
    std::this_thread::sleep_for(std::chrono::milliseconds(250) * attempt);
  }
}

// Streams the download straight into the hostile-archive extractor (nothing touches disk unchecked)
// and hashes every byte received, also those after the archive's end, so the checksum covers exactly
// what the server stored.
// `retry_unavailable`: a server that went away ends the stage with UNAVAILABLE for DownloadRetrying, instead of
// failing the attempt.
Worker::StageEnd Worker::DownloadInto(TaskState& state, bool original, const fs::path& into, bool retry_unavailable) {
  v1::DownloadInputRequest request;
  *request.mutable_lease() = state.task.lease();
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
  if (retry_unavailable && status.error_code() == grpc::StatusCode::UNAVAILABLE) return ToAbsl(status);
  if (!status.ok()) return Fail(state, ToAbsl(status), /*permanent=*/false);
  if (!expected_sha.empty() && received.HexDigest() != expected_sha) {
    return Fail(state, absl::DataLossError("input archive checksum mismatch"), /*permanent=*/false);
  }
  // The server checked this archive under the same limits: a refusal of the input is final; a local
  // error (disk full) is not.
  if (!extracted.ok()) {
    const bool input_refused =
        IsDeterministic(extracted.status()) || extracted.status().code() == absl::StatusCode::kResourceExhausted;
    return Fail(state, extracted.status(), input_refused);
  }
  spdlog::info("{} {} extracted: {} files, {} bytes", state.tag, original ? "original repository" : "input",
               extracted->files, extracted->uncompressed_bytes);
  return std::nullopt;
}

}  // namespace hipforge::worker
