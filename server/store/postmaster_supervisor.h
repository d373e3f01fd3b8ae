#pragma once
// Watches the embedded PostgreSQL and restarts its postmaster when it dies (OOM killer, an operator's kill -9),
// so the server recovers without a restart of its own. RPCs in between fail UNAVAILABLE (pooled_statement.h)
// and the pools reconnect once the postmaster is back. Restarts are bounded: a postmaster that cannot be
// brought back after `max_attempts` tries is left down with an error log, and the server keeps answering
// UNAVAILABLE until an operator steps in.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/status/status.h"

namespace hipforge::server {

// What the supervisor needs of the database it watches (EmbeddedPostgres; a fake in tests).
class SupervisedPostmaster {
 public:
  virtual ~SupervisedPostmaster() = default;
  virtual bool PostmasterAlive() = 0;
  virtual absl::Status RestartPostmaster() = 0;
};

struct PostmasterSupervisorOptions {
  std::chrono::milliseconds poll_interval{1000};
  int max_attempts = 5;                          // restarts tried per death before giving up
  std::chrono::milliseconds first_backoff{500};  // before attempt 2; doubles up to max_backoff
  std::chrono::milliseconds max_backoff{8000};
};

enum class SupervisionOutcome { kAlive, kRestarted, kGaveUp, kStopped };

class PostmasterSupervisor {
 public:
  // Sleeps for the duration; false when the supervisor is stopping (then nothing more is tried).
  using Sleep = std::function<bool(std::chrono::milliseconds)>;

  // Starts the watching thread.
  PostmasterSupervisor(SupervisedPostmaster& postmaster, PostmasterSupervisorOptions options);
  ~PostmasterSupervisor();  // stops and joins; a restart in progress finishes first
  PostmasterSupervisor(const PostmasterSupervisor&) = delete;
  PostmasterSupervisor& operator=(const PostmasterSupervisor&) = delete;

  // One look: alive, or dead and restarted within the bound (waiting `sleep` between attempts), or not.
  static SupervisionOutcome CheckOnce(SupervisedPostmaster& postmaster, const PostmasterSupervisorOptions& options,
                                      const Sleep& sleep);
  // Backoff before attempt `attempt` (2, 3, ...): first_backoff doubled per attempt, capped.
  static std::chrono::milliseconds BackoffBefore(int attempt, const PostmasterSupervisorOptions& options);

 private:
  void Loop(std::stop_token stop);

  SupervisedPostmaster& postmaster_;
  const PostmasterSupervisorOptions options_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: started after the fields it uses
};

}  // namespace hipforge::server
