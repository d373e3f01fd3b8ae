-- Jobs, their artifacts and their task enqueueing. Times are bigint microseconds from the server clock.

-- name: insert_job
-- No row when the team already has a job of this submit request id ($14, '' for none): the submission was sent
-- again after its answer was lost (get_team_job_by_request finds the job). A concurrent insert of the same id
-- is waited for, then counts as there.
INSERT INTO jobs (name, team, labels, targets, options, validate, validate_capabilities, input_digest,
                  created_at, updated_at, repository, branch, commit_id, input_files, submit_request_id)
VALUES ($1, $2, $3::jsonb, ARRAY(SELECT jsonb_array_elements_text($4::jsonb)), $5::jsonb, $6::boolean,
        ARRAY(SELECT jsonb_array_elements_text($7::jsonb)), $8, ts($9), ts($9), $10, $11, $12, $13::integer,
        NULLIF($14, ''))
ON CONFLICT (team, submit_request_id) WHERE submit_request_id IS NOT NULL DO NOTHING
RETURNING id::text, name, team, labels::text, array_to_json(targets)::text, options::text, validate,
          array_to_json(validate_capabilities)::text, state, input_digest, error_message,
          micros(created_at), micros(updated_at), seq, repository, branch, commit_id, input_files

-- name: get_team_job_by_request
SELECT id::text, name, team, labels::text, array_to_json(targets)::text, options::text, validate,
       array_to_json(validate_capabilities)::text, state, input_digest, error_message,
       micros(created_at), micros(updated_at), seq, repository, branch, commit_id, input_files
FROM jobs WHERE team = $1 AND submit_request_id = $2

-- name: get_job
SELECT id::text, name, team, labels::text, array_to_json(targets)::text, options::text, validate,
       array_to_json(validate_capabilities)::text, state, input_digest, error_message,
       micros(created_at), micros(updated_at), seq, repository, branch, commit_id, input_files
FROM jobs WHERE id = $1::uuid

-- name: lock_job
-- Serialises state-machine steps of one job (completion racing cancel).
SELECT state, validate, cardinality(targets), array_to_json(validate_capabilities)::text
FROM jobs WHERE id = $1::uuid FOR UPDATE

-- name: list_jobs
-- Keyset pagination on seq (newest first); NULL filters match everything.
SELECT id::text, name, team, labels::text, array_to_json(targets)::text, options::text, validate,
       array_to_json(validate_capabilities)::text, state, input_digest, error_message,
       micros(created_at), micros(updated_at), seq, repository, branch, commit_id, input_files
FROM jobs
WHERE ($1::text IS NULL OR team = $1::text)
  AND ($2::text IS NULL OR state = $2::text)
  AND ($3::jsonb IS NULL OR labels @> $3::jsonb)
  AND ($4::bigint IS NULL OR seq < $4::bigint)
ORDER BY seq DESC
LIMIT $5::integer

-- name: set_job_state
-- Terminal states are final: a late step never resurrects a finished job.
UPDATE jobs SET state = $2, error_message = $3, updated_at = ts($4)
WHERE id = $1::uuid AND state NOT IN ('succeeded', 'failed', 'cancelled')
RETURNING state

-- name: cancel_job
UPDATE jobs SET state = 'cancelled', error_message = $2, updated_at = ts($3)
WHERE id = $1::uuid AND state NOT IN ('succeeded', 'failed', 'cancelled')
RETURNING id::text

-- name: kill_open_tasks
-- Cancels a job's unfinished tasks and voids their leases (late completions are then rejected; a
-- heartbeat tells the worker holding one to stop).
UPDATE tasks
SET state = 'cancelled', last_error = $2, lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL,
    updated_at = ts($3)
WHERE job_id = $1::uuid AND state IN ('available', 'running', 'failed')

-- name: enqueue_task
-- The payload carries what a worker needs to start without another round trip; $6: the previous stage's hints
-- for this one (JSON object or NULL). ON CONFLICT: a stage is enqueued at most once per job. The insert
-- trigger sends the NOTIFY that wakes idle workers. $7: the platform of a validate task of a job whose targets
-- span two ('amd': its gfx targets, 'nvidia': its sm_ targets); '' for every other task (all targets).
INSERT INTO tasks (job_id, kind, max_attempts, run_after, required_capabilities, required_toolchain, payload,
                   created_at, updated_at, platform)
SELECT j.id, $2, $3::integer, ts($4), ARRAY(SELECT jsonb_array_elements_text($5::jsonb)),
       -- A validate task needs a toolchain with the job's targets (processor names) and HIP release.
       CASE WHEN $2 = 'validate' THEN jsonb_build_object(
         'targets', coalesce((SELECT jsonb_agg(DISTINCT split_part(t, ':', 1)) FROM unnest(j.targets) t
                              WHERE target_platform(t) = $7 OR $7 = ''), '[]'::jsonb),
         'hip_release', coalesce(substring(j.options->>'hip_version' from '^[0-9]+\.[0-9]+'), '')) END,
       jsonb_strip_nulls(jsonb_build_object(
         'input_digest', j.input_digest, 'options', j.options, 'platform', nullif($7, ''),
         'targets', to_jsonb(ARRAY(SELECT t FROM unnest(j.targets) t WHERE target_platform(t) = $7 OR $7 = '')),
         'job_name', j.name, 'team', j.team,
         'translated_digest', (SELECT digest FROM job_artifacts a WHERE a.job_id = j.id AND a.role = 'translated_tree'),
         'hints', $6::jsonb)),
       ts($4), ts($4), $7
FROM jobs j WHERE j.id = $1::uuid
ON CONFLICT (job_id, kind, platform) DO NOTHING

-- name: job_platforms
-- The platforms a job's targets span, in a stable order ('amd', 'nvidia'): one validate task each when two.
SELECT DISTINCT target_platform(t) AS platform FROM jobs j, unnest(j.targets) t WHERE j.id = $1::uuid ORDER BY 1

-- name: open_sibling_tasks
-- Tasks of the job other than $2 that have not finished: the job succeeds when its last validate task completes.
SELECT count(*) FROM tasks WHERE job_id = $1::uuid AND id <> $2::uuid AND state NOT IN ('completed', 'dead')

-- name: upsert_artifact
INSERT INTO artifacts (digest, size_bytes, media_type, created_at) VALUES ($1, $2::bigint, $3, ts($4))
ON CONFLICT (digest) DO NOTHING

-- name: attach_artifact
INSERT INTO job_artifacts (job_id, role, digest) VALUES ($1::uuid, $2, $3)
ON CONFLICT (job_id, role) DO UPDATE SET digest = EXCLUDED.digest

-- name: list_referenced_digests
SELECT DISTINCT digest FROM job_artifacts

-- name: list_artifacts
SELECT ja.role, a.digest, a.size_bytes, a.media_type
FROM job_artifacts ja JOIN artifacts a USING (digest)
WHERE ja.job_id = $1::uuid
ORDER BY ja.role

-- name: get_team_job
-- Tenancy: a team sees only its own jobs; another team's id reads as absent (no existence oracle).
SELECT id::text, name, team, labels::text, array_to_json(targets)::text, options::text, validate,
       array_to_json(validate_capabilities)::text, state, input_digest, error_message,
       micros(created_at), micros(updated_at), seq, repository, branch, commit_id, input_files
FROM jobs WHERE id = $1::uuid AND team = $2::text

-- name: find_team_job_ids
-- A short id ($2: lowercase hex digits of the id without dashes) to the team's jobs that start with it. A range
-- on the primary key (the prefix padded with 0s up to padded with fs) keeps it an index scan; LIMIT $3 (2 tells
-- one match from an ambiguous prefix).
SELECT id::text FROM jobs
WHERE team = $1::text AND id BETWEEN rpad($2::text, 32, '0')::uuid AND rpad($2::text, 32, 'f')::uuid
ORDER BY id
LIMIT $3::integer
