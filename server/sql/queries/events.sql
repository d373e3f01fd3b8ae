-- Job events feeding WatchJob. The insert trigger NOTIFYs hipforge_events.<schema>.

-- name: append_event
INSERT INTO job_events (job_id, kind, payload, created_at) VALUES ($1::uuid, $2, $3::jsonb, ts($4))
RETURNING seq

-- name: list_events_since
SELECT seq, job_id::text, kind, payload::text, micros(created_at)
FROM job_events
WHERE job_id = $1::uuid AND seq > $2::bigint
ORDER BY seq
LIMIT $3::integer
