#pragma once
// The one place where a store runs SQL on a pooled connection: database errors become Status here (never
// the URL), a lost connection (database restarted, postmaster killed) is dropped from the pool and the
// body tried again, and dead-locks/serialization failures, which roll the transaction back, are retried too.
// Used by the job store, the dashboard reader and the credential store.
#include <string>
#include <utility>

#include <spdlog/spdlog.h>
#include <pqxx/pqxx>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "server/store/connection_pool.h"

namespace hipforge::server {

struct StatementPolicy {
  const char* store;  // prefixes every error ("job store", "credential store", ...)
  int attempts = 2;   // tries in all when the failure is transient
};

// SQLSTATE classes 08 (connection exception) and 57P (admin/crash shutdown, cannot connect now): the database
// went away under the call, which a later call may not find (UNAVAILABLE, not INTERNAL).
inline bool IsConnectionFailure(const std::string& sqlstate) {
  return sqlstate.rfind("08", 0) == 0 || sqlstate.rfind("57P", 0) == 0;
}

// Transaction: pqxx::nontransaction for one autocommit statement, pqxx::work for several. The body returns
// StatusOr<T>; a transaction commits only when it is ok.
template <typename T, typename Transaction = pqxx::nontransaction, typename Body>
absl::StatusOr<T> RunPooled(ConnectionPool& pool, const StatementPolicy& policy, Body&& body) {
  absl::Status last_error;
  for (int attempt = 1; attempt <= policy.attempts; ++attempt) {
    auto connection = pool.Acquire();
    if (!connection.ok()) return connection.status();
    try {
      Transaction tx(**connection);
      absl::StatusOr<T> result = body(tx);
      if (result.ok()) tx.commit();
      return result;
    } catch (const pqxx::in_doubt_error& error) {
      connection->MarkBroken();  // retrying could apply the transaction twice
      return absl::UnavailableError(absl::StrCat(policy.store, ": commit outcome unknown: ", error.what()));
    } catch (const pqxx::broken_connection& error) {
      connection->MarkBroken();
      last_error = absl::UnavailableError(absl::StrCat(policy.store, ": database connection lost: ", error.what()));
    } catch (const pqxx::deadlock_detected& error) {
      last_error = absl::AbortedError(absl::StrCat(policy.store, ": dead-lock: ", error.what()));
    } catch (const pqxx::serialization_failure& error) {
      last_error = absl::AbortedError(absl::StrCat(policy.store, ": serialization failure: ", error.what()));
    } catch (const pqxx::integrity_constraint_violation& error) {
      return absl::InvalidArgumentError(absl::StrCat(policy.store, ": rejected by the database: ", error.what()));
    } catch (const pqxx::data_exception& error) {
      return absl::InvalidArgumentError(absl::StrCat(policy.store, ": invalid data: ", error.what()));
    } catch (const pqxx::sql_error& error) {
      if (!IsConnectionFailure(error.sqlstate())) {
        return absl::InternalError(absl::StrCat(policy.store, ": database error: ", error.what()));
      }
      // The server ended the session (postmaster died or shut down, still starting up): try a fresh connection.
      connection->MarkBroken();
      last_error = absl::UnavailableError(absl::StrCat(policy.store, ": database unavailable: ", error.what()));
    } catch (const std::exception& error) {
      return absl::InternalError(absl::StrCat(policy.store, ": database error: ", error.what()));
    }
    if (attempt < policy.attempts) {
      spdlog::warn("{}: attempt {} of {} failed, retrying: {}", policy.store, attempt, policy.attempts,
                   std::string(last_error.message()));
    }
  }
  return last_error;
}

}  // namespace hipforge::server
