-- Task queue. Times are bigint microseconds from the server clock; durations are milliseconds.

-- name: lease_task
-- Lock order everywhere in the store: task rows first, then the job row (avoids dead-locks with cancel).
-- ONE statement: pick the oldest due task this worker can run, skipping rows other workers are
-- locking, mark it running under a fresh lease token, and move the job into the matching stage.
WITH leased AS (
  UPDATE tasks t
  SET state = 'running', attempt = t.attempt + 1, lease_owner = $1, lease_token = gen_random_uuid(),
      lease_expires_at = ts($4) + $5::bigint * interval '1 millisecond', updated_at = ts($4)
  WHERE t.id = (
    SELECT c.id FROM tasks c
    WHERE c.state IN ('available', 'failed')
      AND c.run_after <= ts($4)
      AND c.kind = ANY (ARRAY(SELECT jsonb_array_elements_text($2::jsonb)))
      AND c.required_capabilities <@ ARRAY(SELECT jsonb_array_elements_text($3::jsonb))
      -- $6: the worker's toolchains [{"hip_release", "archs", "stand_in_archs"}]; a worker that registered
      -- none is matched on its capability tags alone. $7: ms a task waits before a stand-in build may take it.
      AND (c.required_toolchain IS NULL OR jsonb_array_length($6::jsonb) = 0 OR EXISTS (
            SELECT 1 FROM jsonb_array_elements($6::jsonb) tc
            WHERE ((c.required_toolchain->>'hip_release' = '' OR tc->>'hip_release' = c.required_toolchain->>'hip_release')
                   AND (tc->'archs') @> (c.required_toolchain->'targets'))
               OR (c.run_after <= ts($4) - $7::bigint * interval '1 millisecond'
                   AND (tc->'stand_in_archs') @> (c.required_toolchain->'targets'))))
      -- A stage enqueued while its job was being cancelled is never handed out.
      AND EXISTS (SELECT 1 FROM jobs j WHERE j.id = c.job_id AND j.state NOT IN ('succeeded', 'failed', 'cancelled'))
    ORDER BY c.run_after, c.created_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED)
  RETURNING t.id, t.job_id, t.kind, t.attempt, t.max_attempts, t.lease_token, t.lease_expires_at, t.payload
), stage AS (
  UPDATE jobs j
  SET state = CASE leased.kind WHEN 'translate' THEN 'translating' ELSE 'validating' END, updated_at = ts($4)
  FROM leased
  WHERE j.id = leased.job_id AND j.state IN ('queued', 'translated')
  RETURNING j.id
)
SELECT id::text, job_id::text, kind, attempt, max_attempts, lease_token::text, micros(lease_expires_at), payload::text
FROM leased

-- name: heartbeat_task
UPDATE tasks
SET lease_expires_at = ts($3) + $4::bigint * interval '1 millisecond', updated_at = ts($3)
WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'
RETURNING micros(lease_expires_at)

-- name: complete_task
-- Only the current lease holder completes; the token is kept so a duplicate can be recognised.
UPDATE tasks
SET state = 'completed', result = $3::jsonb, lease_expires_at = NULL, updated_at = ts($4)
WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'
RETURNING job_id::text, kind

-- name: task_lease_state
SELECT state, coalesce(lease_token = $2::uuid, false) FROM tasks WHERE id = $1::uuid

-- name: fail_task
-- Retry after base * 2^(attempt-1) ms (capped), or dead-letter once max_attempts leases were used.
UPDATE tasks
SET state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'failed' END,
    run_after = ts($4) + least($5::float8 * power(2, least(attempt - 1, 40)), $6::float8)
                         * interval '1 millisecond',
    last_error = $3, lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ts($4)
WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'
RETURNING job_id::text, kind, state

-- name: give_back_task
-- A worker that stops (shutdown) returns its task: leasable at once, and the attempt the lease counted
-- is taken back (the task did not fail, so it must not use up max_attempts).
UPDATE tasks
SET state = 'available', attempt = greatest(attempt - 1, 0), run_after = ts($4), last_error = $3,
    lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ts($4)
WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'
RETURNING job_id::text, kind

-- name: rescue_expired_leases
-- Expired leases: back to available (the attempt was counted at lease time) or dead when exhausted.
UPDATE tasks
SET state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'available' END,
    run_after = ts($1),
    last_error = 'lease expired (held by ' || coalesce(lease_owner, '?') || ')',
    lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ts($1)
WHERE state = 'running' AND lease_expires_at < ts($1)
RETURNING id::text, job_id::text, kind, state, last_error

-- name: list_tasks
SELECT id::text, job_id::text, kind, state, attempt, max_attempts, micros(run_after), lease_owner,
       micros(lease_expires_at), array_to_json(required_capabilities)::text, payload::text,
       coalesce(result::text, 'null'), last_error
FROM tasks WHERE job_id = $1::uuid
ORDER BY created_at, kind DESC

-- name: task_job
SELECT job_id::text FROM tasks WHERE id = $1::uuid
