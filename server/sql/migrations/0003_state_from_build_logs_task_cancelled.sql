-- WatchJob's StateChange names the state a job left: the "state" event records it as "from"
-- (absent for the insert, where there is no previous state).
CREATE OR REPLACE FUNCTION record_job_state() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO job_events (job_id, kind, payload, created_at)
    VALUES (NEW.id, 'state', jsonb_build_object('state', NEW.state, 'error', NEW.error_message), NEW.updated_at);
  ELSIF OLD.state IS DISTINCT FROM NEW.state THEN
    INSERT INTO job_events (job_id, kind, payload, created_at)
    VALUES (NEW.id, 'state',
            jsonb_build_object('state', NEW.state, 'from', OLD.state, 'error', NEW.error_message), NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;

-- A build's note (e.g. "gfx942 not supported by the toolchain; built gfx940") and, for a failed build,
-- the tail of the failing step's output: a failure with no parsed compiler error must still say why.
ALTER TABLE report_builds ADD COLUMN note text NOT NULL DEFAULT '';
ALTER TABLE report_builds ADD COLUMN log_excerpt text NOT NULL DEFAULT '';

-- A cancelled job's open tasks end 'cancelled' (not 'dead', which means out of attempts), so the
-- task list says what happened.
ALTER TABLE tasks DROP CONSTRAINT tasks_state_check;
ALTER TABLE tasks ADD CONSTRAINT tasks_state_check
  CHECK (state IN ('available', 'running', 'completed', 'failed', 'dead', 'cancelled'));
