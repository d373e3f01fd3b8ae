#pragma once
// Background thread that puts expired leases back in the queue (or dead-letters them), so a
// worker that died holding a task does not stall its job.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "server/store/job_store.h"

namespace hipforge::server {

class LeaseRescuer {
 public:
  LeaseRescuer(LeaseStore& store, std::chrono::milliseconds interval);
  ~LeaseRescuer();  // stops and joins

 private:
  void Loop(std::stop_token stop);

  LeaseStore& store_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: started after the fields it uses
};

}  // namespace hipforge::server
