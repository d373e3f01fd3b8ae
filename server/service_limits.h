#pragma once
// Limits shared by the job and task services; filled from flags/env/config by server_config.
#include <chrono>
#include <cstdint>

#include "common/archive.h"

namespace hipforge::server {

struct ServiceLimits {
  ExtractLimits upload;                          // what Submit accepts
  int64_t max_artifact_bytes = 1ll << 30;        // per artifact a worker uploads
  std::chrono::milliseconds lease_duration{std::chrono::seconds(30)};
  std::chrono::milliseconds max_lease_wait{std::chrono::seconds(30)};  // cap on LeaseTask long polls
  std::chrono::milliseconds watch_poll{std::chrono::seconds(1)};       // bound on one event wait
  int64_t chunk_bytes = 256 << 10;               // artifact download chunk size
};

}  // namespace hipforge::server
