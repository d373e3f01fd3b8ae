#include "tests/server/fakes/in_memory_artifact_store.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"

namespace hipforge::server::testing {

class InMemoryArtifactWriter final : public ArtifactWriter {
 public:
  InMemoryArtifactWriter(InMemoryArtifactStore& store, int64_t max_bytes) : store_(store), max_bytes_(max_bytes) {}

  absl::Status Append(std::string_view chunk) override {
    if (closed_) return absl::FailedPreconditionError("artifact writer is closed");
    if (static_cast<int64_t>(bytes_.size() + chunk.size()) > max_bytes_) {
      closed_ = true;
      return absl::ResourceExhaustedError(absl::StrCat("artifact exceeds the limit of ", max_bytes_, " bytes"));
    }
    bytes_.append(chunk);
    return absl::OkStatus();
  }

  absl::StatusOr<StoredArtifact> Finish() override {
    if (closed_) return absl::FailedPreconditionError("artifact writer is closed");
    closed_ = true;
    StoredArtifact stored{Sha256Hex(bytes_), static_cast<int64_t>(bytes_.size())};
    store_.Keep(stored.digest, std::move(bytes_));
    return stored;
  }

  int64_t bytes_written() const override { return static_cast<int64_t>(bytes_.size()); }

 private:
  InMemoryArtifactStore& store_;
  const int64_t max_bytes_;
  std::string bytes_;
  bool closed_ = false;
};

namespace {

class InMemoryArtifactReader final : public ArtifactReader {
 public:
  explicit InMemoryArtifactReader(std::string bytes) : bytes_(std::move(bytes)) {}

  absl::StatusOr<std::string> Read(size_t max_bytes) override {
    const size_t take = std::min(max_bytes, bytes_.size() - offset_);
    std::string chunk = bytes_.substr(offset_, take);
    offset_ += take;
    return chunk;
  }

  int64_t size_bytes() const override { return static_cast<int64_t>(bytes_.size()); }

 private:
  std::string bytes_;  // a copy: a reader keeps what it opened, as a file handle does
  size_t offset_ = 0;
};

}  // namespace

InMemoryArtifactStore::InMemoryArtifactStore(const Clock& clock, int64_t default_max_bytes)
    : clock_(clock), default_max_bytes_(default_max_bytes) {}

absl::StatusOr<std::unique_ptr<ArtifactWriter>> InMemoryArtifactStore::StartWriter(int64_t max_bytes) {
  return std::unique_ptr<ArtifactWriter>(
      std::make_unique<InMemoryArtifactWriter>(*this, max_bytes > 0 ? max_bytes : default_max_bytes_));
}

absl::StatusOr<std::unique_ptr<ArtifactReader>> InMemoryArtifactStore::OpenStored(const std::string& digest) const {
  std::lock_guard lock(mutex_);
  auto found = artifacts_.find(digest);
  if (found == artifacts_.end()) return absl::NotFoundError("no artifact " + digest);
  return std::unique_ptr<ArtifactReader>(std::make_unique<InMemoryArtifactReader>(found->second.bytes));
}

void InMemoryArtifactStore::Keep(const std::string& digest, std::string bytes) {
  std::lock_guard lock(mutex_);
  artifacts_[digest] = Stored{std::move(bytes), clock_.Now()};
}

absl::StatusOr<int> InMemoryArtifactStore::RemoveUnreferenced(const std::set<std::string>& keep,
                                                              std::chrono::system_clock::time_point older_than) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::erase_if(artifacts_, [&](const auto& entry) {
    return !keep.contains(entry.first) && entry.second.touched_at < older_than;
  }));
}

bool InMemoryArtifactStore::Damage(const std::string& digest) {
  std::lock_guard lock(mutex_);
  auto found = artifacts_.find(digest);
  if (found == artifacts_.end() || found->second.bytes.empty()) return false;
  found->second.bytes[0] ^= 0x01;
  return true;
}

size_t InMemoryArtifactStore::size() const {
  std::lock_guard lock(mutex_);
  return artifacts_.size();
}

}  // namespace hipforge::server::testing
