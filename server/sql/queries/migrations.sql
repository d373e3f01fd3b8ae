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

-- name: create_schema_repeatables
-- server/sql/repeatable/*.sql applied to this schema, by the sha256 of the text that was applied.
CREATE TABLE IF NOT EXISTS schema_repeatables (
  name       text PRIMARY KEY,
  sha256     text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)

-- name: applied_repeatables
SELECT name, sha256 FROM schema_repeatables

-- name: record_repeatable
INSERT INTO schema_repeatables (name, sha256) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = now()
