#pragma once
// Artifacts as content-addressed chunks in the coordinator's PostgreSQL (--artifact-store postgres): every server
// on the same database reads every artifact, with no shared disk. Writers keep one chunk in memory and store each
// full chunk in its own statement; Finish lists the chunks under the artifact's digest in one transaction, so an
// artifact is readable whole or not at all. Readers fetch one chunk at a time and check each against its own
// digest (the whole artifact is checked by ArtifactStore::Open). SQL: server/sql/queries/artifact_chunks.sql,
// tables from migration 0011 (the job store applies migrations; open it first).
#include <memory>
#include <string>

#include "common/clock.h"
#include "server/store/artifact_store.h"

namespace hipforge::server {

struct PostgresArtifactStoreOptions {
  std::string database_url;
  std::string schema = "hipforge";
  int pool_size = 4;              // connections of this store (each upload or download holds one per statement)
  int64_t chunk_bytes = 1 << 20;  // what a writer holds in memory and one row stores
  int64_t default_max_bytes = 1LL << 30;
};

// `clock` stamps chunks and artifacts for the collector's grace period; it must outlive the store.
absl::StatusOr<std::unique_ptr<ArtifactStore>> OpenPostgresArtifactStore(const PostgresArtifactStoreOptions& options,
                                                                         const Clock& clock);

}  // namespace hipforge::server
