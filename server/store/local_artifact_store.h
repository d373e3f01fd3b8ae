#pragma once
// The default artifact store: files <data_dir>/artifacts/ab/cdef... named by the sha256 of their bytes.
// Writers stream into a temp file in the same file system and rename it into place on Finish, so a reader
// never sees a partial artifact and a crash leaves at most a temp file behind. One server owns the directory
// (several servers without a shared disk use PostgresArtifactStore).
#include <filesystem>

#include "server/store/artifact_store.h"

namespace hipforge::server {

class LocalArtifactStore final : public ArtifactStore {
 public:
  // `data_dir` is the server data directory; artifacts go under <data_dir>/artifacts.
  LocalArtifactStore(std::filesystem::path data_dir, int64_t default_max_bytes);

  absl::Status Init();  // creates the directories

  absl::StatusOr<int> RemoveUnreferenced(const std::set<std::string>& keep,
                                         std::chrono::system_clock::time_point older_than) override;

  bool Contains(const std::string& digest) const;
  // Path of an artifact (whether or not it exists); InvalidArgument for a malformed digest.
  absl::StatusOr<std::filesystem::path> PathOf(const std::string& digest) const;
  const std::filesystem::path& root() const { return root_; }

 protected:
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> StartWriter(int64_t max_bytes) override;
  absl::StatusOr<std::unique_ptr<ArtifactReader>> OpenStored(const std::string& digest) const override;

 private:
  std::filesystem::path root_;  // <data_dir>/artifacts
  int64_t default_max_bytes_;
};

}  // namespace hipforge::server
