#pragma once
// Owns the dedicated LISTEN connection of a store and turns PostgreSQL notifications into wake-ups
// for any number of waiting threads (one connection, many waiters).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace hipforge::server {

class NotificationListener {
 public:
  enum class Channel { kWork, kEvents };

  // Starts listening before returning, so no notification sent after Start() is missed.
  static absl::StatusOr<std::unique_ptr<NotificationListener>> Start(const std::string& database_url,
                                                                     const std::string& schema);
  ~NotificationListener();

  // Returns true when a notification arrived on `channel` during the wait (or the connection was
  // re-established, which may have lost some); false on timeout.
  bool Wait(Channel channel, std::chrono::milliseconds timeout);

  // Channel names, shared with the triggers in 0001_init.sql.
  static std::string ChannelName(Channel channel, const std::string& schema);

 private:
  struct Connection;
  NotificationListener(std::string database_url, std::string schema);
  absl::Status Connect();
  void Loop();
  void Signal(Channel channel);

  const std::string database_url_;
  const std::string schema_;
  std::unique_ptr<Connection> connection_;  // used by the loop thread only after Start()
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t work_generation_ = 0;
  uint64_t event_generation_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace hipforge::server
