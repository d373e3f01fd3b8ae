#include "server/store/postmaster_supervisor.h"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace hipforge::server {

PostmasterSupervisor::PostmasterSupervisor(SupervisedPostmaster& postmaster, PostmasterSupervisorOptions options)
    : postmaster_(postmaster), options_(options), thread_([this](std::stop_token stop) { Loop(stop); }) {}

PostmasterSupervisor::~PostmasterSupervisor() {
  thread_.request_stop();
  thread_.join();
}

std::chrono::milliseconds PostmasterSupervisor::BackoffBefore(int attempt, const PostmasterSupervisorOptions& options) {
  std::chrono::milliseconds backoff = options.first_backoff;
  for (int i = 2; i < attempt && backoff < options.max_backoff; ++i) backoff *= 2;
  return std::min(backoff, options.max_backoff);
}

SupervisionOutcome PostmasterSupervisor::CheckOnce(SupervisedPostmaster& postmaster,
                                                   const PostmasterSupervisorOptions& options, const Sleep& sleep) {
  if (postmaster.PostmasterAlive()) return SupervisionOutcome::kAlive;
  for (int attempt = 1; attempt <= options.max_attempts; ++attempt) {
    if (attempt > 1 && !sleep(BackoffBefore(attempt, options))) return SupervisionOutcome::kStopped;
    // Another start (an operator's pg_ctl) may have won the race since the last look.
    if (attempt > 1 && postmaster.PostmasterAlive()) return SupervisionOutcome::kRestarted;
    spdlog::error("[job=-] embedded postgres died; restarting (attempt {}/{})", attempt, options.max_attempts);
    const absl::Status restarted = postmaster.RestartPostmaster();
    if (restarted.ok()) {
      spdlog::info("[job=-] embedded postgres restarted (attempt {}/{})", attempt, options.max_attempts);
      return SupervisionOutcome::kRestarted;
    }
    spdlog::warn("[job=-] embedded postgres restart attempt {}/{} failed: {}", attempt, options.max_attempts,
                 restarted.ToString());
  }
  spdlog::error(
      "[job=-] embedded postgres could not be restarted after {} attempts; giving up: calls that need "
      "the database fail UNAVAILABLE until migrate-server is restarted (docs/operations.md)",
      options.max_attempts);
  return SupervisionOutcome::kGaveUp;
}

void PostmasterSupervisor::Loop(std::stop_token stop) {
  auto sleep = [&](std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, stop, duration, [] { return false; });
    return !stop.stop_requested();
  };
  while (sleep(options_.poll_interval)) {
    const SupervisionOutcome outcome = CheckOnce(postmaster_, options_, sleep);
    if (outcome == SupervisionOutcome::kGaveUp || outcome == SupervisionOutcome::kStopped) return;
  }
}

}  // namespace hipforge::server
