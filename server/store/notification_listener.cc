#include "server/store/notification_listener.h"

#include <functional>

#include <pqxx/pqxx>

#include "absl/status/status.h"
#include "spdlog/spdlog.h"

namespace hipforge::server {
namespace {

class Receiver final : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection& connection, const std::string& channel, std::function<void()> on_notify)
      : pqxx::notification_receiver(connection, channel), on_notify_(std::move(on_notify)) {}
  void operator()(const std::string& /*payload*/, int /*backend_pid*/) override { on_notify_(); }

 private:
  std::function<void()> on_notify_;
};

}  // namespace

struct NotificationListener::Connection {
  std::unique_ptr<pqxx::connection> connection;
  std::unique_ptr<Receiver> work;
  std::unique_ptr<Receiver> events;
};

std::string NotificationListener::ChannelName(Channel channel, const std::string& schema) {
  return (channel == Channel::kWork ? "hipforge_work." : "hipforge_events.") + schema;
}

NotificationListener::NotificationListener(std::string database_url, std::string schema)
    : database_url_(std::move(database_url)), schema_(std::move(schema)) {}

absl::StatusOr<std::unique_ptr<NotificationListener>> NotificationListener::Start(const std::string& database_url,
                                                                                  const std::string& schema) {
  std::unique_ptr<NotificationListener> listener(new NotificationListener(database_url, schema));
  if (auto status = listener->Connect(); !status.ok()) return status;
  listener->thread_ = std::thread([raw = listener.get()] { raw->Loop(); });
  return listener;
}

absl::Status NotificationListener::Connect() {
  try {
    auto fresh = std::make_unique<Connection>();
    fresh->connection = std::make_unique<pqxx::connection>(database_url_);
    // Constructing a receiver issues LISTEN on the connection.
    fresh->work = std::make_unique<Receiver>(*fresh->connection, ChannelName(Channel::kWork, schema_),
                                             [this] { Signal(Channel::kWork); });
    fresh->events = std::make_unique<Receiver>(*fresh->connection, ChannelName(Channel::kEvents, schema_),
                                               [this] { Signal(Channel::kEvents); });
    connection_ = std::move(fresh);
    return absl::OkStatus();
  } catch (const std::exception& error) {
    return absl::UnavailableError(std::string("LISTEN connection failed: ") + error.what());
  }
}

NotificationListener::~NotificationListener() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  }
  if (connection_) {
    // Receivers must go before their connection.
    connection_->work.reset();
    connection_->events.reset();
  }
}

void NotificationListener::Signal(Channel channel) {
  std::lock_guard lock(mutex_);
  if (channel == Channel::kWork) {
    ++work_generation_;
  } else {
    ++event_generation_;
  }
  changed_.notify_all();
}

void NotificationListener::Loop() {
  // Short waits so the destructor is not held up; await_notification sleeps in select().
  constexpr long kPollMicros = 100'000;
  while (!stopping_) {
    if (!connection_) {
      if (auto status = Connect(); !status.ok()) {
        spdlog::warn("store: {}; retrying", std::string(status.message()));
        std::this_thread::sleep_for(std::chrono::seconds(1));
        continue;
      }
      // Notifications sent while disconnected are lost: wake everyone so they re-check.
      Signal(Channel::kWork);
      Signal(Channel::kEvents);
    }
    try {
      connection_->connection->await_notification(0, kPollMicros);
    } catch (const std::exception& error) {
      spdlog::warn("store: LISTEN connection lost: {}", error.what());
      connection_->work.release();  // NOLINT: the broken connection cannot UNLISTEN; leak the receivers
      connection_->events.release();
      connection_.reset();
    }
  }
}

bool NotificationListener::Wait(Channel channel, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const uint64_t& generation = channel == Channel::kWork ? work_generation_ : event_generation_;
  const uint64_t seen = generation;
  return changed_.wait_for(lock, timeout, [&] { return generation != seen || stopping_.load(); }) && generation != seen;
}

}  // namespace hipforge::server
