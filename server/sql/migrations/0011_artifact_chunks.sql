-- The PostgreSQL artifact store (--artifact-store postgres, issue 27): artifacts as content-addressed chunks, so
-- several servers without a shared disk serve every artifact. `artifacts` (0001) stays what a job refers to;
-- these tables hold the bytes. A chunk is named by the sha256 of its own bytes (identical chunks of two uploads are
-- stored once); an artifact is the ordered list of its chunks under the sha256 of all its bytes.
CREATE TABLE artifact_chunks (
  chunk_digest text PRIMARY KEY CHECK (chunk_digest ~ '^[0-9a-f]{64}$'),
  data         bytea NOT NULL,
  -- Last time an upload wrote or reused the chunk: the collector leaves younger unreferenced chunks alone,
  -- they may belong to an upload in flight.
  touched_at   timestamptz NOT NULL
);
-- Uploads are mostly zstd archives: out of line and uncompressed, PostgreSQL does not try to compress them again.
ALTER TABLE artifact_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

CREATE TABLE stored_artifacts (
  digest      text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
  size_bytes  bigint NOT NULL CHECK (size_bytes >= 0),
  chunk_count integer NOT NULL CHECK (chunk_count >= 0),
  touched_at  timestamptz NOT NULL  -- last Finish of an upload with these bytes
);

CREATE TABLE stored_artifact_chunks (
  digest       text NOT NULL REFERENCES stored_artifacts (digest) ON DELETE CASCADE,
  seq          integer NOT NULL CHECK (seq >= 0),
  chunk_digest text NOT NULL REFERENCES artifact_chunks (chunk_digest),
  PRIMARY KEY (digest, seq)
);
-- The collector asks "does any artifact use this chunk?".
CREATE INDEX stored_artifact_chunks_chunk ON stored_artifact_chunks (chunk_digest);
