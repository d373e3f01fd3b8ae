#pragma once
// A fixed-size pool of libpqxx connections, each pinned to the store's schema (search_path) and with
// every named query of server/sql defined as a prepared statement (prepared lazily on first use).
// pqxx connections are not thread-safe; a connection is used by one thread at a time through a Lease.
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "absl/status/statusor.h"

namespace hipforge::server {

// Opens a connection with search_path set to `schema` (created beforehand by the migration runner).
absl::StatusOr<std::unique_ptr<pqxx::connection>> OpenSchemaConnection(const std::string& database_url,
                                                                       const std::string& schema);

class ConnectionPool {
 public:
  class Lease {
   public:
    Lease(ConnectionPool* pool, std::unique_ptr<pqxx::connection> connection)
        : pool_(pool), connection_(std::move(connection)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    pqxx::connection& operator*() { return *connection_; }
    pqxx::connection* operator->() { return connection_.get(); }
    // The connection failed: drop it instead of returning it to the pool, and the idle ones with it (after a
    // database restart they are all dead; each would otherwise fail one more call before being dropped).
    void MarkBroken() { broken_ = true; }

   private:
    ConnectionPool* pool_;
    std::unique_ptr<pqxx::connection> connection_;
    bool broken_ = false;
  };

  ConnectionPool(std::string database_url, std::string schema, int size,
                 std::map<std::string, std::string> prepared_queries);
  // Waits for a free connection; opens one when fewer than `size` exist.
  absl::StatusOr<Lease> Acquire();

 private:
  void Release(std::unique_ptr<pqxx::connection> connection, bool broken);

  const std::string database_url_;
  const std::string schema_;
  const int size_;
  const std::map<std::string, std::string> prepared_queries_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;
  int open_ = 0;  // connections that exist (idle or leased)
};

}  // namespace hipforge::server
