#include "server/store/artifact_store.h"

#include "absl/strings/str_cat.h"
#include "common/sha256.h"

namespace hipforge::server {
namespace {

// Hashes what the store hands back and refuses to return the last bytes unless they complete `digest`:
// a caller that streamed everything out has served only bytes that hash right, except the final piece.
class DigestCheckingReader final : public ArtifactReader {
 public:
  DigestCheckingReader(std::unique_ptr<ArtifactReader> stored, std::string digest)
      : stored_(std::move(stored)), digest_(std::move(digest)), size_(stored_->size_bytes()) {}

  absl::StatusOr<std::string> Read(size_t max_bytes) override {
    if (!error_.ok()) return error_;
    if (checked_) return std::string();
    absl::StatusOr<std::string> chunk = stored_->Read(max_bytes);
    if (!chunk.ok()) return chunk.status();
    read_ += static_cast<int64_t>(chunk->size());
    if (read_ > size_) return Fail(absl::StrCat("more bytes than its size of ", size_));
    if (chunk->empty() && read_ < size_) return Fail(absl::StrCat("ends after ", read_, " of ", size_, " bytes"));
    hasher_.Update(*chunk);
    if (read_ == size_) {
      checked_ = true;
      const std::string actual = hasher_.HexDigest();
      if (actual != digest_) return Fail(absl::StrCat("bytes hash to ", actual));
    }
    return chunk;
  }

  int64_t size_bytes() const override { return size_; }

 private:
  absl::Status Fail(const std::string& what) {
    error_ = absl::DataLossError(absl::StrCat("artifact ", digest_, " is damaged in the store: ", what));
    return error_;
  }

  std::unique_ptr<ArtifactReader> stored_;
  std::string digest_;
  int64_t size_;
  int64_t read_ = 0;
  bool checked_ = false;
  absl::Status error_;
  Sha256Hasher hasher_;
};

}  // namespace

bool IsValidDigest(std::string_view digest) {
  if (digest.size() != 64) return false;
  for (char c : digest) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

absl::StatusOr<std::unique_ptr<ArtifactWriter>> ArtifactStore::NewWriter(int64_t max_bytes) {
  return StartWriter(max_bytes);
}

absl::StatusOr<std::unique_ptr<ArtifactReader>> ArtifactStore::Open(const std::string& digest) const {
  if (!IsValidDigest(digest)) return absl::InvalidArgumentError("malformed artifact digest: " + digest);
  absl::StatusOr<std::unique_ptr<ArtifactReader>> stored = OpenStored(digest);
  if (!stored.ok()) return stored.status();
  return std::unique_ptr<ArtifactReader>(std::make_unique<DigestCheckingReader>(*std::move(stored), digest));
}

absl::StatusOr<StoredArtifact> ArtifactStore::Put(std::string_view bytes) {
  auto writer = NewWriter();
  if (!writer.ok()) return writer.status();
  if (auto status = (*writer)->Append(bytes); !status.ok()) return status;
  return (*writer)->Finish();
}

absl::StatusOr<std::string> ArtifactStore::ReadAll(const std::string& digest, int64_t max_bytes) const {
  auto reader = Open(digest);
  if (!reader.ok()) return reader.status();
  if ((*reader)->size_bytes() > max_bytes) {
    return absl::ResourceExhaustedError("artifact " + digest + " is larger than " + std::to_string(max_bytes));
  }
  std::string all;
  all.reserve(static_cast<size_t>((*reader)->size_bytes()));
  for (;;) {
    absl::StatusOr<std::string> chunk = (*reader)->Read(1 << 20);
    if (!chunk.ok()) return chunk.status();
    if (chunk->empty()) return all;
    all += *chunk;
  }
}

}  // namespace hipforge::server
