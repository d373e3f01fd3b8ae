#pragma once
// Limits shared by the job and task services; filled from flags/env/config by server_config.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "common/archive.h"

namespace hipforge::server {

// Bounds on the text fields of a job spec, checked at Submit before anything is stored: the store
// indexes team and name (an 8 MB team once failed the insert after the upload was kept), and every
// field must be UTF-8 without control characters (a NUL was silently cut by the driver).
struct SpecLimits {
  size_t max_name_bytes = 200;
  size_t max_team_bytes = 128;
  size_t max_labels = 64;
  size_t max_label_value_bytes = 256;
  size_t max_targets = 16;
  size_t max_options_json_bytes = 64 << 10;  // the job options as stored (extra args included)
};

struct ServiceLimits {
  ExtractLimits upload;  // what Submit accepts
  SpecLimits spec;
  // Artifact files no job refers to (an upload whose job was never created, a Complete that lost
  // its lease) are removed once they are this old; younger ones may belong to a Submit in flight.
  std::chrono::milliseconds orphan_artifact_grace{std::chrono::hours(1)};
  std::chrono::milliseconds orphan_scan_interval{std::chrono::minutes(10)};
  int64_t max_artifact_bytes = 1ll << 30;  // per artifact a worker uploads
  std::chrono::milliseconds lease_duration{std::chrono::seconds(30)};
  std::chrono::milliseconds max_lease_wait{std::chrono::seconds(30)};  // cap on LeaseTask long polls
  std::chrono::milliseconds watch_poll{std::chrono::seconds(1)};       // bound on one event wait
  int64_t chunk_bytes = 256 << 10;                                     // artifact download chunk size
};

}  // namespace hipforge::server
