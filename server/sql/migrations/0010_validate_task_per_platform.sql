-- A job may name AMD (gfx*) and NVIDIA (sm_*, HIP's NVIDIA platform) targets together (issue 25): its validate stage
-- is then one task per platform, each leased by its own pool, and the report holds both sections. The stage key
-- becomes (job, kind, platform); '' is the one task of a single-platform job, as before.
ALTER TABLE tasks ADD COLUMN IF NOT EXISTS platform text NOT NULL DEFAULT '';
ALTER TABLE tasks DROP CONSTRAINT IF EXISTS tasks_job_id_kind_key;
ALTER TABLE tasks ADD CONSTRAINT tasks_job_kind_platform_key UNIQUE (job_id, kind, platform);

-- Which platform a target belongs to: sm_XX is HIP's NVIDIA platform, everything else (gfx*) AMD.
CREATE OR REPLACE FUNCTION target_platform(target text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN target LIKE 'sm\_%' THEN 'nvidia' ELSE 'amd' END
$$;
