#include "server/lease_rescuer.h"

#include <spdlog/spdlog.h>

namespace hipforge::server {

LeaseRescuer::LeaseRescuer(LeaseStore& store, std::chrono::milliseconds interval)
    : store_(store), interval_(interval), thread_([this](std::stop_token stop) { Loop(stop); }) {}

LeaseRescuer::~LeaseRescuer() {
  thread_.request_stop();
  thread_.join();
}

void LeaseRescuer::Loop(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, interval_, [] { return false; });
    if (stop.stop_requested()) return;
    absl::StatusOr<int> rescued = store_.RescueExpiredLeases();
    if (!rescued.ok()) {
      spdlog::warn("[job=-] lease rescue failed: {}", rescued.status().ToString());
    } else if (*rescued > 0) {
      spdlog::info("[job=-] rescued {} expired task lease(s)", *rescued);
    }
  }
}

}  // namespace hipforge::server
