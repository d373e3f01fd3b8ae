-- Initial schema of the migrate-server store. Runs with search_path set to the store's schema.
-- Timestamps written by the server come from its injected clock; defaults here are fallbacks.

-- Exact microsecond conversions between the server clock (passed as bigint microseconds since the
-- Unix epoch) and timestamptz.
CREATE FUNCTION ts(micros bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT timestamptz '1970-01-01 00:00:00+00' + micros * interval '1 microsecond' $$;
CREATE FUNCTION micros(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (extract(epoch FROM t) * 1000000)::bigint $$;

CREATE TABLE jobs (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq           bigserial NOT NULL UNIQUE,           -- stable newest-first ordering and page tokens
  name          text NOT NULL,
  team          text NOT NULL DEFAULT '',
  labels        jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(labels) = 'object'),
  targets       text[] NOT NULL DEFAULT '{}',
  options       jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(options) = 'object'),
  validate      boolean NOT NULL DEFAULT true,
  validate_capabilities text[] NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN
                  ('queued', 'translating', 'translated', 'validating', 'succeeded', 'failed', 'cancelled')),
  input_digest  text NOT NULL CHECK (input_digest ~ '^[0-9a-f]{64}$'),
  error_message text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_team_seq ON jobs (team, seq DESC);
CREATE INDEX jobs_state_seq ON jobs (state, seq DESC);
CREATE INDEX jobs_labels ON jobs USING gin (labels jsonb_path_ops);

CREATE TABLE job_events (
  seq        bigserial PRIMARY KEY,
  job_id     uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  kind       text NOT NULL,
  payload    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_job_seq ON job_events (job_id, seq);

CREATE TABLE tasks (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  job_id           uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('translate', 'validate')),
  state            text NOT NULL DEFAULT 'available'
                     CHECK (state IN ('available', 'running', 'completed', 'failed', 'dead')),
  attempt          integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
  max_attempts     integer NOT NULL CHECK (max_attempts > 0),
  run_after        timestamptz NOT NULL,
  lease_owner      text,
  lease_token      uuid,
  lease_expires_at timestamptz,
  required_capabilities text[] NOT NULL DEFAULT '{}',
  payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
  result           jsonb,
  last_error       text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (job_id, kind),  -- one task per stage: re-enqueueing a stage is a no-op
  -- A running task always carries its lease; other states may keep the last token (duplicate detection).
  CHECK (state <> 'running' OR (lease_owner IS NOT NULL AND lease_token IS NOT NULL AND lease_expires_at IS NOT NULL))
);
-- The lease query scans only tasks that can be leased, oldest due first.
CREATE INDEX tasks_leasable ON tasks (kind, run_after) WHERE state IN ('available', 'failed');
CREATE INDEX tasks_expiring ON tasks (lease_expires_at) WHERE state = 'running';

CREATE TABLE artifacts (
  digest     text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  media_type text NOT NULL DEFAULT 'application/octet-stream',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE job_artifacts (
  job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  role   text NOT NULL,
  digest text NOT NULL REFERENCES artifacts (digest),
  PRIMARY KEY (job_id, role)
);

CREATE TABLE workers (
  id            text PRIMARY KEY,
  roles         text[] NOT NULL DEFAULT '{}',
  capabilities  jsonb NOT NULL DEFAULT '{}'::jsonb,
  registered_at timestamptz NOT NULL DEFAULT now(),
  last_seen     timestamptz NOT NULL DEFAULT now()
);

-- Reports: the full JSON document (sections without their own table: effort, totals, profile, gpu)
-- plus one table per queryable section.
CREATE TABLE report_documents (
  job_id     uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  document   jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE report_files (
  job_id          uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  ordinal         integer NOT NULL,
  path            text NOT NULL,
  status          text NOT NULL CHECK (status IN ('translated', 'unchanged', 'fallback', 'copied', 'failed')),
  fallback_reason text NOT NULL DEFAULT '',
  converted       jsonb NOT NULL DEFAULT '{}'::jsonb,
  unconverted     integer NOT NULL DEFAULT 0,
  unsupported     integer NOT NULL DEFAULT 0,
  lines_changed   integer NOT NULL DEFAULT 0,
  changed_by      text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (job_id, ordinal)
);
CREATE INDEX report_files_path ON report_files (job_id, path);

CREATE TABLE report_findings (
  job_id     uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  ordinal    integer NOT NULL,
  rule_id    text NOT NULL,
  severity   text NOT NULL CHECK (severity IN ('error', 'warning', 'note')),
  path       text NOT NULL DEFAULT '',
  line       integer NOT NULL DEFAULT 0,
  col        integer NOT NULL DEFAULT 0,
  message    text NOT NULL DEFAULT '',
  fix        text NOT NULL DEFAULT '',
  auto_fixed boolean NOT NULL DEFAULT false,
  PRIMARY KEY (job_id, ordinal)
);
CREATE INDEX report_findings_rule ON report_findings (job_id, rule_id);
CREATE INDEX report_findings_path ON report_findings (job_id, path);

CREATE TABLE report_builds (
  job_id         uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  ordinal        integer NOT NULL,
  requested_arch text NOT NULL DEFAULT '',
  arch           text NOT NULL DEFAULT '',
  toolchain      text NOT NULL DEFAULT '',
  ok             boolean NOT NULL,
  duration_ms    bigint NOT NULL DEFAULT 0,
  errors         jsonb NOT NULL DEFAULT '[]'::jsonb,
  PRIMARY KEY (job_id, ordinal)
);

CREATE TABLE report_kernels (
  job_id        uuid NOT NULL,
  build_ordinal integer NOT NULL,
  ordinal       integer NOT NULL,
  name          text NOT NULL,
  vgprs         integer, sgprs integer, agprs integer, scratch_bytes bigint,
  occupancy     integer, spills integer, lds_bytes bigint,
  PRIMARY KEY (job_id, build_ordinal, ordinal),
  FOREIGN KEY (job_id, build_ordinal) REFERENCES report_builds (job_id, ordinal) ON DELETE CASCADE
);

CREATE TABLE report_tests (
  job_id         uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  ordinal        integer NOT NULL,
  name           text NOT NULL,
  arch           text NOT NULL DEFAULT '',
  status         text NOT NULL CHECK (status IN ('passed', 'failed', 'timed_out', 'not_run')),
  duration_ms    bigint NOT NULL DEFAULT 0,
  output_excerpt text NOT NULL DEFAULT '',
  PRIMARY KEY (job_id, ordinal)
);

CREATE TABLE report_parity (
  job_id        uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  ordinal       integer NOT NULL,
  case_name     text NOT NULL,
  verdict       text NOT NULL CHECK (verdict IN ('match', 'mismatch', 'missing')),
  max_abs_error double precision NOT NULL DEFAULT 0,
  max_rel_error double precision NOT NULL DEFAULT 0,
  mismatches    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (job_id, ordinal)
);

-- Wake-ups. Channels carry the schema name so stores in different schemas (tests) do not wake each
-- other. NOTIFY is transactional: it is delivered on commit of the enqueueing transaction.
CREATE FUNCTION notify_task_available() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hipforge_work.' || TG_TABLE_SCHEMA, NEW.kind);
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_notify_insert AFTER INSERT ON tasks
  FOR EACH ROW WHEN (NEW.state = 'available') EXECUTE FUNCTION notify_task_available();
CREATE TRIGGER tasks_notify_update AFTER UPDATE OF state ON tasks
  FOR EACH ROW WHEN (NEW.state = 'available' AND OLD.state IS DISTINCT FROM 'available')
  EXECUTE FUNCTION notify_task_available();

CREATE FUNCTION notify_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hipforge_events.' || TG_TABLE_SCHEMA, NEW.job_id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER job_events_notify AFTER INSERT ON job_events
  FOR EACH ROW EXECUTE FUNCTION notify_job_event();

-- Every job state change leaves a "state" event, whichever statement made it.
-- SET search_path FROM CURRENT pins the function to this schema whatever the caller's search_path.
CREATE FUNCTION record_job_state() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM NEW.state THEN
    INSERT INTO job_events (job_id, kind, payload, created_at)
    VALUES (NEW.id, 'state', jsonb_build_object('state', NEW.state, 'error', NEW.error_message), NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER jobs_state_event AFTER INSERT OR UPDATE OF state ON jobs
  FOR EACH ROW EXECUTE FUNCTION record_job_state();
