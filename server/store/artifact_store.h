#pragma once
// Content-addressed artifact files: <root>/artifacts/ab/cdef... named by the sha256 of their bytes.
// Writers stream into a temp file in the same file system and rename it into place on Finish, so a
// reader never sees a partial artifact and a crash leaves at most a temp file behind.
#include <cstdint>
#include <filesystem>
#include <fstream>
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
  virtual ~ArtifactWriter() = default;  // an unfinished writer removes its temp file
  // ResourceExhausted once the total would exceed the writer's limit (the writer is then aborted).
  virtual absl::Status Append(std::string_view chunk) = 0;
  // Flushes, syncs and renames into place (an identical existing artifact is kept).
  virtual absl::StatusOr<StoredArtifact> Finish() = 0;
  virtual int64_t bytes_written() const = 0;
};

class ArtifactReader {
 public:
  virtual ~ArtifactReader() = default;
  // Up to `max_bytes` next bytes; empty at end of file.
  virtual absl::StatusOr<std::string> Read(size_t max_bytes) = 0;
  virtual int64_t size_bytes() const = 0;
};

class ArtifactStore {
 public:
  // `data_dir` is the server data directory; artifacts go under <data_dir>/artifacts.
  ArtifactStore(std::filesystem::path data_dir, int64_t default_max_bytes);

  absl::Status Init();  // creates the directories

  // max_bytes <= 0: the store's default limit.
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> NewWriter(int64_t max_bytes = 0);
  absl::StatusOr<StoredArtifact> Put(std::string_view bytes);
  // NotFound when absent; InvalidArgument for a malformed digest.
  absl::StatusOr<std::unique_ptr<ArtifactReader>> Open(const std::string& digest) const;
  absl::StatusOr<std::string> ReadAll(const std::string& digest, int64_t max_bytes) const;
  bool Contains(const std::string& digest) const;
  // Path of an artifact (whether or not it exists); InvalidArgument for a malformed digest.
  absl::StatusOr<std::filesystem::path> PathOf(const std::string& digest) const;

  // Removes artifact files whose digest is not in `keep`, and abandoned temp files, last modified
  // before `older_than` (younger ones may belong to an upload in flight). Returns how many went.
  int RemoveUnreferenced(const std::set<std::string>& keep, std::filesystem::file_time_type older_than);

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;  // <data_dir>/artifacts
  int64_t default_max_bytes_;
};

bool IsValidDigest(std::string_view digest);

}  // namespace hipforge::server
