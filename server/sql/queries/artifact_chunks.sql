-- The PostgreSQL artifact store (server/store/postgres_artifact_store.cc). Times are bigint microseconds from the
-- server clock.

-- name: put_artifact_chunk
-- Reusing a chunk another upload stored refreshes its time, so the collector cannot take it from this upload.
INSERT INTO artifact_chunks (chunk_digest, data, touched_at) VALUES ($1, $2, ts($3))
ON CONFLICT (chunk_digest) DO UPDATE SET touched_at = EXCLUDED.touched_at

-- name: touch_artifact_chunks
-- At Finish: every chunk of the upload is still there (the count says so) and young again. $1: JSON array.
-- Rows are locked in digest order, so two uploads sharing chunks wait for each other instead of dead-locking;
-- NO KEY UPDATE leaves the key-share locks of the chunk list's foreign key free.
UPDATE artifact_chunks c SET touched_at = ts($2)
FROM (SELECT chunk_digest FROM artifact_chunks
      WHERE chunk_digest IN (SELECT jsonb_array_elements_text($1::jsonb))
      ORDER BY chunk_digest FOR NO KEY UPDATE) locked
WHERE c.chunk_digest = locked.chunk_digest

-- name: put_stored_artifact
-- Returns whether the row is new: only a new artifact gets its chunk list (identical bytes were listed before).
INSERT INTO stored_artifacts (digest, size_bytes, chunk_count, touched_at) VALUES ($1, $2::bigint, $3::integer, ts($4))
ON CONFLICT (digest) DO UPDATE SET touched_at = EXCLUDED.touched_at
RETURNING (xmax = 0) AS inserted

-- name: put_stored_artifact_chunks
-- $2: the chunk digests in order, as a JSON array.
INSERT INTO stored_artifact_chunks (digest, seq, chunk_digest)
SELECT $1, (ord - 1)::integer, value FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS t(value, ord)

-- name: find_stored_artifact
SELECT size_bytes, chunk_count FROM stored_artifacts WHERE digest = $1

-- name: read_artifact_chunk
SELECT c.chunk_digest, c.data FROM stored_artifact_chunks m JOIN artifact_chunks c USING (chunk_digest)
WHERE m.digest = $1 AND m.seq = $2::integer

-- name: remove_unreferenced_artifacts
-- $1: the digests jobs refer to, as a JSON array. An upload finishing now has touched its row: it is young.
DELETE FROM stored_artifacts
WHERE touched_at < ts($2) AND digest NOT IN (SELECT jsonb_array_elements_text($1::jsonb))

-- name: remove_unreferenced_chunks
-- Chunks no artifact lists, left by removed artifacts and by uploads that never finished.
DELETE FROM artifact_chunks c
WHERE c.touched_at < ts($1) AND NOT EXISTS (SELECT 1 FROM stored_artifact_chunks m WHERE m.chunk_digest = c.chunk_digest)
