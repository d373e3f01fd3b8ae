#pragma once
// Content-addressed artifacts (uploads, translated trees, patches), named by the sha256 of their bytes. Two
// stores implement this: LocalArtifactStore (files under <data-dir>/artifacts, the default) and
// PostgresArtifactStore (chunks in the coordinator's PostgreSQL, reached by every server without a shared disk).
// Writers stream: nothing becomes readable before Finish, and a writer dropped unfinished leaves at most pieces
// that RemoveUnreferenced collects. Readers stream too, and every reader checks the bytes against the digest it
// was opened with: a store that hands back other bytes fails the read with DataLoss instead of serving them.
#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace hipforge::server {

struct StoredArtifact {
  std::string digest;  // lower-case sha256 hex
  int64_t size_bytes = 0;
};

class ArtifactWriter {
 public:
  virtual ~ArtifactWriter() = default;  // an unfinished writer discards what it wrote (as far as it can)
  // ResourceExhausted once the total would exceed the writer's limit (the writer is then aborted).
  virtual absl::Status Append(std::string_view chunk) = 0;
  // Makes the artifact readable under its digest (an identical existing artifact is kept).
  virtual absl::StatusOr<StoredArtifact> Finish() = 0;
  virtual int64_t bytes_written() const = 0;
};

class ArtifactReader {
 public:
  virtual ~ArtifactReader() = default;
  // Up to `max_bytes` next bytes (possibly fewer); empty at the end.
  virtual absl::StatusOr<std::string> Read(size_t max_bytes) = 0;
  virtual int64_t size_bytes() const = 0;
};

class ArtifactStore {
 public:
  virtual ~ArtifactStore() = default;

  // max_bytes <= 0: the store's default limit.
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> NewWriter(int64_t max_bytes = 0);
  // NotFound when absent; InvalidArgument for a malformed digest. The reader's last Read (the one reaching
  // size_bytes) fails with DataLoss when the bytes do not hash to `digest`, as does a short or long stream.
  absl::StatusOr<std::unique_ptr<ArtifactReader>> Open(const std::string& digest) const;
  // Removes artifacts whose digest is not in `keep` and that were last stored before `older_than` (younger ones
  // may belong to a job being created), and pieces of uploads abandoned before then. Returns how many went.
  virtual absl::StatusOr<int> RemoveUnreferenced(const std::set<std::string>& keep,
                                                 std::chrono::system_clock::time_point older_than) = 0;

  // Conveniences over NewWriter/Open.
  absl::StatusOr<StoredArtifact> Put(std::string_view bytes);
  absl::StatusOr<std::string> ReadAll(const std::string& digest, int64_t max_bytes) const;

 protected:
  virtual absl::StatusOr<std::unique_ptr<ArtifactWriter>> StartWriter(int64_t max_bytes) = 0;
  // The stored bytes as they are; `digest` is well formed. Open checks them.
  virtual absl::StatusOr<std::unique_ptr<ArtifactReader>> OpenStored(const std::string& digest) const = 0;
};

bool IsValidDigest(std::string_view digest);

}  // namespace hipforge::server
