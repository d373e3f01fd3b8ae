#include "server/store/connection_pool.h"

#include "absl/status/status.h"

namespace hipforge::server {

absl::StatusOr<std::unique_ptr<pqxx::connection>> OpenSchemaConnection(const std::string& database_url,
                                                                       const std::string& schema) {
  try {
    auto connection = std::make_unique<pqxx::connection>(database_url);
    pqxx::nontransaction setup(*connection);
    setup.exec("SET search_path TO " + setup.quote_name(schema));
    // Keep server-side notices (e.g. "relation already exists, skipping") out of stderr.
    setup.exec("SET client_min_messages TO warning");
    return connection;
  } catch (const std::exception& error) {
    return absl::UnavailableError(std::string("cannot connect to PostgreSQL: ") + error.what());
  }
}

ConnectionPool::Lease::~Lease() {
  if (pool_ != nullptr && connection_ != nullptr) pool_->Release(std::move(connection_), broken_);
}

ConnectionPool::ConnectionPool(std::string database_url, std::string schema, int size,
                               std::map<std::string, std::string> prepared_queries)
    : database_url_(std::move(database_url)),
      schema_(std::move(schema)),
      size_(size < 1 ? 1 : size),
      prepared_queries_(std::move(prepared_queries)) {}

absl::StatusOr<ConnectionPool::Lease> ConnectionPool::Acquire() {
  {
    std::unique_lock lock(mutex_);
    available_.wait(lock, [&] { return !idle_.empty() || open_ < size_; });
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
    ++open_;  // reserve the slot; connect outside the lock
  }
  auto connection = OpenSchemaConnection(database_url_, schema_);
  if (!connection.ok()) {
    std::lock_guard lock(mutex_);
    --open_;
    available_.notify_one();
    return connection.status();
  }
  for (const auto& [name, sql] : prepared_queries_) (*connection)->prepare(name, sql);
  return Lease(this, std::move(*connection));
}

void ConnectionPool::Release(std::unique_ptr<pqxx::connection> connection, bool broken) {
  std::lock_guard lock(mutex_);
  if (broken || !connection->is_open()) {
    --open_;
    open_ -= static_cast<int>(idle_.size());
    idle_.clear();
    available_.notify_all();
  } else {
    idle_.push_back(std::move(connection));
  }
  available_.notify_one();
}

}  // namespace hipforge::server
