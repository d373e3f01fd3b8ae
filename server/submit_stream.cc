#include "server/submit_stream.h"

#include "absl/strings/str_cat.h"

namespace hipforge::server {

SubmitStream::SubmitStream(std::function<bool(v1::SubmitRequest*)> read, std::function<bool()> cancelled)
    : read_(std::move(read)), cancelled_(std::move(cancelled)) {}

absl::StatusOr<v1::SubmitHeader> SubmitStream::ReadHeader(uint64_t max_bytes) {
  if (!read_(&message_) || !message_.has_header()) {
    return absl::InvalidArgumentError("the first Submit message must be the header");
  }
  const int64_t announced = message_.header().total_bytes();
  if (announced > 0 && static_cast<uint64_t>(announced) > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("archive of ", announced, " bytes is larger than the limit of ", max_bytes, " bytes"));
  }
  return message_.header();
}

ArchiveChunkSource SubmitStream::Chunks() {
  return [this]() -> absl::StatusOr<std::string_view> {
    while (read_(&message_)) {
      if (message_.has_header()) return absl::InvalidArgumentError("Submit carries exactly one header");
      if (!message_.chunk().empty()) return std::string_view(message_.chunk());
    }
    if (cancelled_()) return absl::CancelledError("upload cancelled by the client");
    return std::string_view();
  };
}

}  // namespace hipforge::server
