#pragma once
// ArtifactStore in memory, for unit tests of its consumers (job and task services, the orphan collector) without
// a disk or PostgreSQL. It keeps the contract of artifact_store.h (nothing readable before Finish, size limits,
// identical bytes stored once, collection of unreferenced artifacts by age); ArtifactStoreContractTest runs the same
// checks against it, LocalArtifactStore and PostgresArtifactStore. Damage() stands in for a store that hands back
// other bytes, which the real stores can only show by editing their files or rows.
#include <map>
#include <mutex>
#include <string>

#include "common/clock.h"
#include "server/store/artifact_store.h"

namespace hipforge::server::testing {

class InMemoryArtifactStore final : public ArtifactStore {
 public:
  InMemoryArtifactStore(const Clock& clock, int64_t default_max_bytes);

  absl::StatusOr<int> RemoveUnreferenced(const std::set<std::string>& keep,
                                         std::chrono::system_clock::time_point older_than) override;

  // Flips a byte of a stored artifact (false when there is none or it is empty).
  bool Damage(const std::string& digest);
  size_t size() const;  // artifacts stored

 protected:
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> StartWriter(int64_t max_bytes) override;
  absl::StatusOr<std::unique_ptr<ArtifactReader>> OpenStored(const std::string& digest) const override;

 private:
  struct Stored {
    std::string bytes;
    std::chrono::system_clock::time_point touched_at;
  };
  friend class InMemoryArtifactWriter;
  void Keep(const std::string& digest, std::string bytes);

  const Clock& clock_;
  const int64_t default_max_bytes_;
  mutable std::mutex mutex_;
  std::map<std::string, Stored> artifacts_;
};

}  // namespace hipforge::server::testing
