-- Queries of the migration runner. The runner sets search_path to the store's schema first.

-- name: lock_migrations
-- Serialises concurrent servers (and tests) migrating the same schema; released at commit.
SELECT pg_advisory_xact_lock(hashtext('hipforge.migrations.' || $1::text))

-- name: create_schema_migrations
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)

-- name: applied_migrations
SELECT version FROM schema_migrations ORDER BY version

-- name: record_migration
INSERT INTO schema_migrations (version, name) VALUES ($1, $2)
