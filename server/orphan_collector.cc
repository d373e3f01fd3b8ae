#include "server/orphan_collector.h"

#include <spdlog/spdlog.h>

namespace hipforge::server {

absl::StatusOr<int> CollectOrphanArtifacts(ArtifactRefStore& store, ArtifactStore& artifacts, const Clock& clock,
                                           std::chrono::milliseconds grace) {
  // The cut-off is taken before the referenced set is read: an artifact stored after it is young enough
  // to be kept whatever the set says.
  const auto older_than = clock.Now() - grace;
  absl::StatusOr<std::set<std::string>> referenced = store.ListReferencedArtifactDigests();
  if (!referenced.ok()) return referenced.status();
  return artifacts.RemoveUnreferenced(*referenced, older_than);
}

OrphanArtifactCollector::OrphanArtifactCollector(ArtifactRefStore& store, ArtifactStore& artifacts, const Clock& clock,
                                                 std::chrono::milliseconds grace, std::chrono::milliseconds interval)
    : store_(store),
      artifacts_(artifacts),
      clock_(clock),
      grace_(grace),
      interval_(interval),
      thread_([this](std::stop_token stop) { Loop(stop); }) {}

OrphanArtifactCollector::~OrphanArtifactCollector() {
  thread_.request_stop();
  thread_.join();
}

void OrphanArtifactCollector::Loop(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    absl::StatusOr<int> removed = CollectOrphanArtifacts(store_, artifacts_, clock_, grace_);
    if (!removed.ok()) {
      spdlog::warn("[job=-] orphan artifact collection failed: {}", removed.status().ToString());
    } else if (*removed > 0) {
      spdlog::info("[job=-] removed {} artifact(s) or upload piece(s) no job refers to", *removed);
    }
    wake_.wait_for(lock, stop, interval_, [] { return false; });
  }
}

}  // namespace hipforge::server
