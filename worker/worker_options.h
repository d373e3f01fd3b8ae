#pragma once
// How a worker runs (worker.h's Worker takes it; a task's execution, task_state.h, reads its timings).
#include <chrono>
#include <filesystem>
#include <string>

#include "common/archive.h"
#include "hipforge/v1/worker_service.pb.h"

namespace hipforge::worker {

struct WorkerOptions {
  std::string worker_id;
  v1::WorkerCapabilities capabilities;
  // Per-task temp dirs are created (and removed) below it; on start, dirs that killed workers left
  // there are removed (see scratch_dir.h).
  std::filesystem::path scratch_root;
  std::chrono::milliseconds lease_wait{std::chrono::seconds(20)};  // long-poll bound per LeaseTask
  std::chrono::milliseconds rpc_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds progress_interval{std::chrono::milliseconds(250)};  // throttle for file events
  ExtractLimits extract_limits;
  bool keep_scratch = false;  // leave task dirs behind for debugging
  // On stop, a task in flight gets this long to finish; then it is given back to the server (leasable
  // again at once, the attempt not counted) and its runner told to abandon.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(10)};
};

}  // namespace hipforge::worker
