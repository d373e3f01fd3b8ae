// A stage of Worker::Execute (worker.cc runs the list; worker/task_state.h holds what the stages share).
#include <fstream>
#include <thread>
#include <vector>

#include "common/report/report_proto.h"
#include "common/sha256.h"
#include "worker/task_state.h"
#include "worker/worker.h"

namespace hipforge::worker {
namespace fs = std::filesystem;

namespace {
constexpr int kCompletionAttempts = 5;  // 0.25 + 0.5 + 1 + 2 s apart: well inside a lease
}  // namespace

// Complete: header, then each artifact as info + chunks.
grpc::Status Worker::SendCompletion(TaskState& state, const std::vector<std::string>& hashes,
                                    v1::CompleteResponse& response) {
  const TaskOutput& output = *state.output;
  auto rpc = NewContext(std::chrono::minutes(10));
  auto writer = stub_->Complete(rpc.get(), &response);
  v1::CompleteRequest message;
  v1::CompleteHeader* header = message.mutable_header();
  *header->mutable_lease() = state.task.lease();
  header->mutable_result()->set_ok(!output.job_failed);
  header->mutable_result()->set_summary(SafeText(output.summary));
  header->mutable_result()->set_files_total(output.files_total);
  header->mutable_result()->set_files_translated(output.files_translated);
  // Text from the sources that is not UTF-8 is replaced there (a proto string must be UTF-8).
  if (output.report) *header->mutable_report() = report::ToProto(*output.report);
  header->mutable_validate_hints()->set_managed_memory(output.managed_memory);
  bool stream_ok = writer->Write(message);
  for (size_t i = 0; i < output.artifacts.size() && stream_ok; ++i) {
    const TaskArtifact& artifact = output.artifacts[i];
    std::error_code ec;
    message.Clear();
    v1::ArtifactInfo* info = message.mutable_artifact();
    info->set_kind(artifact.kind);
    info->set_format(artifact.format);
    info->set_sha256(hashes[i]);
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
  return writer->Finish();
}

absl::StatusOr<TaskOutcome> Worker::ReportResult(TaskState& state) {
  if (!state.execution.BeginReporting()) return TaskOutcome::kGivenBack;
  const TaskOutput& output = *state.output;
  // Every artifact is hashed before the stream opens: one that cannot be read fails the attempt before the server
  // has seen any part of the completion (the server's Complete handler applies what it read once the stream ends,
  // and a stream the worker abandons half way ends too).
  std::vector<std::string> hashes;
  hashes.reserve(output.artifacts.size());
  for (const TaskArtifact& artifact : output.artifacts) {
    absl::StatusOr<std::string> sha = Sha256HexOfFile(artifact.file);
    if (!sha.ok()) return Fail(state, sha.status(), /*permanent=*/false);
    hashes.push_back(*std::move(sha));
  }
  v1::CompleteResponse response;
  // A server that dies under the completion (UNAVAILABLE) does not cost the attempt: the lease is still this
  // worker's (the heartbeats go on, through the next server when several are listed), so the same completion is
  // sent again; one that did reach the database before the server died is answered "not accepted" the second
  // time, never applied twice.
  grpc::Status status;
  for (int attempt = 1;; ++attempt) {
    status = SendCompletion(state, hashes, response);
    if (status.error_code() != grpc::StatusCode::UNAVAILABLE || attempt >= kCompletionAttempts ||
        state.execution.lease_lost()) {
      break;
    }
    spdlog::warn("{} Complete failed ({}); sending it again (attempt {}/{})", state.tag, status.error_message(),
                 attempt + 1, kCompletionAttempts);
    std::this_thread::sleep_for(std::chrono::milliseconds(250) * (1 << (attempt - 1)));
  }
  if (!status.ok()) {
    spdlog::warn("{} Complete failed: {}", state.tag, status.error_message());
    return ToAbsl(status);
  }
  spdlog::info("{} completed ({}); accepted={} job state {}", state.tag, output.summary, response.accepted(),
               v1::JobState_Name(response.job_state()));
  return response.accepted() ? TaskOutcome::kCompleted : TaskOutcome::kCompletionIgnored;
}

}  // namespace hipforge::worker
