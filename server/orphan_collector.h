#pragma once
// Background thread that removes artifacts no job refers to: uploads whose job was never
// created (the server died between storing and the insert, or the insert failed) and artifacts of a
// Complete that lost its lease. Runs once at start, then every interval.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "server/store/artifact_store.h"
#include "server/store/job_store.h"

namespace hipforge::server {

// One pass: artifacts older than `grace` that no job refers to are removed. Returns how many.
absl::StatusOr<int> CollectOrphanArtifacts(ArtifactRefStore& store, ArtifactStore& artifacts, const Clock& clock,
                                           std::chrono::milliseconds grace);

class OrphanArtifactCollector {
 public:
  OrphanArtifactCollector(ArtifactRefStore& store, ArtifactStore& artifacts, const Clock& clock,
                          std::chrono::milliseconds grace, std::chrono::milliseconds interval);
  ~OrphanArtifactCollector();  // stops and joins

 private:
  void Loop(std::stop_token stop);

  ArtifactRefStore& store_;
  ArtifactStore& artifacts_;
  const Clock& clock_;
  std::chrono::milliseconds grace_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: started after the fields it uses
};

}  // namespace hipforge::server
