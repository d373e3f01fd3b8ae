-- Job events feeding WatchJob. The insert trigger NOTIFYs hipforge_events.<schema>.

-- name: append_event
-- The job's row is locked first, so one job's events take their sequence numbers in commit order: every other
-- statement that adds an event (the state trigger: a state change, rescue, cancel) updates that row. Without it
-- an event could commit after one with a higher number, and a watch resuming after that one (another server, a
-- reconnect) would never see it.
WITH job AS (SELECT id FROM jobs WHERE id = $1::uuid FOR NO KEY UPDATE)
INSERT INTO job_events (job_id, kind, payload, created_at)
SELECT job.id, $2, $3::jsonb, ts($4) FROM job
RETURNING seq

-- name: list_events_since
SELECT seq, job_id::text, kind, payload::text, micros(created_at)
FROM job_events
WHERE job_id = $1::uuid AND seq > $2::bigint
ORDER BY seq
LIMIT $3::integer
