#include "server/store/postgres_artifact_store.h"

#include <algorithm>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"
#include "server/store/connection_pool.h"
#include "server/store/pooled_statement.h"
#include "server/store/sql_catalog.h"

namespace hipforge::server {
namespace {

constexpr StatementPolicy kPolicy{.store = "artifact store"};

int64_t ToMicros(std::chrono::system_clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
}

class PostgresArtifactWriter final : public ArtifactWriter {
 public:
  PostgresArtifactWriter(ConnectionPool& pool, const Clock& clock, int64_t chunk_bytes, int64_t max_bytes)
      : pool_(pool), clock_(clock), chunk_bytes_(chunk_bytes), max_bytes_(max_bytes) {
    buffer_.reserve(static_cast<size_t>(chunk_bytes_));
  }

  absl::Status Append(std::string_view data) override {
    if (closed_) return absl::FailedPreconditionError("artifact writer is closed");
    if (bytes_written_ + static_cast<int64_t>(data.size()) > max_bytes_) {
      closed_ = true;  // what went out already is unreferenced: the collector takes it after the grace period
      return absl::ResourceExhaustedError(absl::StrCat("artifact exceeds the limit of ", max_bytes_, " bytes"));
    }
    hasher_.Update(data);
    bytes_written_ += static_cast<int64_t>(data.size());
    while (!data.empty()) {
      const size_t take = std::min(data.size(), static_cast<size_t>(chunk_bytes_) - buffer_.size());
      buffer_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (static_cast<int64_t>(buffer_.size()) == chunk_bytes_) {
        if (absl::Status flushed = Flush(); !flushed.ok()) return flushed;
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<StoredArtifact> Finish() override {
    if (closed_) return absl::FailedPreconditionError("artifact writer is closed");
    if (!buffer_.empty()) {
      if (absl::Status flushed = Flush(); !flushed.ok()) return flushed;
    }
    closed_ = true;
    StoredArtifact stored{hasher_.HexDigest(), bytes_written_};
    const std::string chunks_json = nlohmann::json(chunks_).dump();
    const size_t distinct = std::set<std::string>(chunks_.begin(), chunks_.end()).size();
    const int64_t now = ToMicros(clock_.Now());
    return RunPooled<StoredArtifact, pqxx::work>(pool_, kPolicy, [&](pqxx::work& tx) -> absl::StatusOr<StoredArtifact> {
      // Row locks on the chunks keep the collector off them until this commits.
      const pqxx::result touched = tx.exec_prepared("touch_artifact_chunks", chunks_json, now);
      if (touched.affected_rows() != distinct) {
        return absl::AbortedError(absl::StrCat("artifact ", stored.digest, ": ", distinct - touched.affected_rows(),
                                               " chunk(s) were collected during the upload (older than the grace "
                                               "period); upload again"));
      }
      const pqxx::row row = tx.exec_prepared1("put_stored_artifact", stored.digest, stored.size_bytes,
                                              static_cast<int>(chunks_.size()), now);
      if (row[0].as<bool>()) tx.exec_prepared("put_stored_artifact_chunks", stored.digest, chunks_json);
      return stored;
    });
  }

  int64_t bytes_written() const override { return bytes_written_; }

 private:
  absl::Status Flush() {
    std::string digest = Sha256Hex(buffer_);
    const int64_t now = ToMicros(clock_.Now());
    absl::StatusOr<bool> put = RunPooled<bool>(pool_, kPolicy, [&](pqxx::nontransaction& tx) -> absl::StatusOr<bool> {
      tx.exec_prepared("put_artifact_chunk", digest, pqxx::binarystring(buffer_.data(), buffer_.size()), now);
      return true;
    });
    if (!put.ok()) {
      closed_ = true;
      return put.status();
    }
    chunks_.push_back(std::move(digest));
    buffer_.clear();
    return absl::OkStatus();
  }

  ConnectionPool& pool_;
  const Clock& clock_;
  const int64_t chunk_bytes_;
  const int64_t max_bytes_;
  std::string buffer_;  // the chunk being filled: at most chunk_bytes_
  std::vector<std::string> chunks_;
  int64_t bytes_written_ = 0;
  bool closed_ = false;
  Sha256Hasher hasher_;
};

class PostgresArtifactReader final : public ArtifactReader {
 public:
  PostgresArtifactReader(ConnectionPool& pool, std::string digest, int64_t size, int chunk_count)
      : pool_(pool), digest_(std::move(digest)), size_(size), chunk_count_(chunk_count) {}

  absl::StatusOr<std::string> Read(size_t max_bytes) override {
    std::string out;
    while (out.size() < max_bytes) {
      if (offset_ == chunk_.size()) {
        if (next_seq_ == chunk_count_) break;
        if (absl::Status loaded = LoadChunk(next_seq_++); !loaded.ok()) return loaded;
        offset_ = 0;
        continue;
      }
      const size_t take = std::min(max_bytes - out.size(), chunk_.size() - offset_);
      out.append(chunk_, offset_, take);
      offset_ += take;
    }
    return out;
  }

  int64_t size_bytes() const override { return size_; }

 private:
  absl::Status LoadChunk(int seq) {
    absl::StatusOr<std::string> data =
        RunPooled<std::string>(pool_, kPolicy, [&](pqxx::nontransaction& tx) -> absl::StatusOr<std::string> {
          const pqxx::result rows = tx.exec_prepared("read_artifact_chunk", digest_, seq);
          const std::string damaged = absl::StrCat("artifact ", digest_, " is damaged in the store: chunk ", seq);
          if (rows.empty()) return absl::DataLossError(absl::StrCat(damaged, " is missing"));
          std::string bytes = pqxx::binarystring(rows[0][1]).str();
          if (Sha256Hex(bytes) != rows[0][0].as<std::string>()) {
            return absl::DataLossError(absl::StrCat(damaged, " does not match its digest"));
          }
          return bytes;
        });
    if (!data.ok()) return data.status();
    chunk_ = *std::move(data);
    return absl::OkStatus();
  }

  ConnectionPool& pool_;
  const std::string digest_;
  const int64_t size_;
  const int chunk_count_;
  int next_seq_ = 0;
  std::string chunk_;  // the current chunk: at most one in memory
  size_t offset_ = 0;
};

class PostgresArtifactStore final : public ArtifactStore {
 public:
  PostgresArtifactStore(const PostgresArtifactStoreOptions& options, const Clock& clock,
                        std::map<std::string, std::string> queries)
      : options_(options),
        clock_(clock),
        pool_(options.database_url, options.schema, options.pool_size, std::move(queries)) {}

  absl::StatusOr<int> RemoveUnreferenced(const std::set<std::string>& keep,
                                         std::chrono::system_clock::time_point older_than) override {
    const std::string keep_json = nlohmann::json(keep).dump();
    return RunPooled<int>(pool_, kPolicy, [&](pqxx::nontransaction& tx) -> absl::StatusOr<int> {
      const int64_t cutoff = ToMicros(older_than);
      const pqxx::result artifacts = tx.exec_prepared("remove_unreferenced_artifacts", keep_json, cutoff);
      const pqxx::result chunks = tx.exec_prepared("remove_unreferenced_chunks", cutoff);
      return static_cast<int>(artifacts.affected_rows() + chunks.affected_rows());
    });
  }

 protected:
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> StartWriter(int64_t max_bytes) override {
    return std::unique_ptr<ArtifactWriter>(std::make_unique<PostgresArtifactWriter>(
        pool_, clock_, options_.chunk_bytes, max_bytes > 0 ? max_bytes : options_.default_max_bytes));
  }

  absl::StatusOr<std::unique_ptr<ArtifactReader>> OpenStored(const std::string& digest) const override {
    using Found = std::pair<int64_t, int>;
    auto find = [&](pqxx::nontransaction& tx) -> absl::StatusOr<Found> {
      const pqxx::result rows = tx.exec_prepared("find_stored_artifact", digest);
      if (rows.empty()) return absl::NotFoundError("no artifact " + digest);
      return Found{rows[0][0].as<int64_t>(), rows[0][1].as<int>()};
    };
    absl::StatusOr<Found> found = RunPooled<Found>(pool_, kPolicy, find);
    if (!found.ok()) return found.status();
    return std::unique_ptr<ArtifactReader>(
        std::make_unique<PostgresArtifactReader>(pool_, digest, found->first, found->second));
  }

 private:
  const PostgresArtifactStoreOptions options_;
  const Clock& clock_;
  mutable ConnectionPool pool_;  // readers borrow connections from a const store
};

}  // namespace

absl::StatusOr<std::unique_ptr<ArtifactStore>> OpenPostgresArtifactStore(const PostgresArtifactStoreOptions& options,
                                                                         const Clock& clock) {
  if (options.chunk_bytes <= 0) return absl::InvalidArgumentError("artifact chunk size must be positive");
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  return std::unique_ptr<ArtifactStore>(new PostgresArtifactStore(options, clock, *std::move(queries)));
}

}  // namespace hipforge::server
