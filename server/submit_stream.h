#pragma once
// The Submit call's message sequence turned into domain input: exactly one header, first, then
// archive chunks. Kept apart from the gRPC handler so the rules can be tested and fuzzed without a
// server (fuzz/submit_stream_fuzzer.cc).
#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "common/archive.h"
#include "hipforge/v1/migration_service.pb.h"

namespace hipforge::server {

class SubmitStream {
 public:
  // `read` fills the next message and returns false at the end of the stream.
  SubmitStream(std::function<bool(v1::SubmitRequest*)> read, std::function<bool()> cancelled);

  // InvalidArgument unless the first message is the header; ResourceExhausted when the header
  // announces more than `max_bytes`.
  absl::StatusOr<v1::SubmitHeader> ReadHeader(uint64_t max_bytes);
  // The chunks after the header (empty ones skipped); a second header is InvalidArgument, a
  // cancelled call Cancelled. Valid while this object lives.
  ArchiveChunkSource Chunks();

 private:
  std::function<bool(v1::SubmitRequest*)> read_;
  std::function<bool()> cancelled_;
  v1::SubmitRequest message_;
};

}  // namespace hipforge::server
