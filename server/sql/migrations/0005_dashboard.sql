-- The dashboard's read side (server/sql/queries/dashboard.sql): repository identity on jobs, stable finding
-- fingerprints (new vs fixed between a repository's jobs) and the indexes its queries need.

-- Where a job's tree comes from. `repository_key` is what history groups by: the repository when the
-- submitter named one, else the job name (submissions without git still form a history by name).
ALTER TABLE jobs ADD COLUMN repository text NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN branch text NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN commit_id text NOT NULL DEFAULT '' CHECK (commit_id ~ '^[0-9a-f]{0,64}$');
ALTER TABLE jobs ADD COLUMN repository_key text GENERATED ALWAYS AS
  (CASE WHEN repository <> '' THEN repository ELSE name END) STORED;
-- Overview (latest job per repository), repository history and trends, all scoped by team.
CREATE INDEX jobs_team_repository_seq ON jobs (team, repository_key, seq DESC);
-- Job list filtered by creation time.
CREATE INDEX jobs_team_created ON jobs (team, created_at DESC);

-- A finding's fingerprint: rule + path + the normalised source line (whitespace collapsed), so the same
-- problem keeps its identity when lines above it move. Without the line's text (older reports) the line
-- number stands in.
CREATE FUNCTION finding_fingerprint(rule_id text, path text, source_line text, line integer) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT md5(rule_id || chr(31) || path || chr(31) ||
             CASE WHEN btrim(source_line) <> '' THEN regexp_replace(btrim(source_line), '\s+', ' ', 'g')
                  ELSE '#' || line::text END)
$$;
ALTER TABLE report_findings ADD COLUMN source_line text NOT NULL DEFAULT '';
ALTER TABLE report_findings ADD COLUMN fingerprint text GENERATED ALWAYS AS
  (finding_fingerprint(rule_id, path, source_line, line)) STORED;
-- Findings pages (keyset on rule, path, line, ordinal) and the new/fixed anti-joins.
CREATE INDEX report_findings_page ON report_findings (job_id, rule_id, path, line, ordinal);
CREATE INDEX report_findings_fingerprint ON report_findings (job_id, fingerprint);
DROP INDEX IF EXISTS report_findings_rule;  -- a prefix of report_findings_page

-- A job as the API's JSON: the hipforge.v1.Job message through protobuf's JSON mapping with the proto field
-- names (enum names, RFC 3339 UTC timestamps).
CREATE FUNCTION job_json(j jobs) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT jsonb_build_object(
    'id', j.id::text,
    'spec', jsonb_build_object('name', j.name, 'team', j.team, 'labels', j.labels, 'targets', to_jsonb(j.targets),
                               'repository', j.repository, 'branch', j.branch, 'commit', j.commit_id,
                               'options', jsonb_build_object('translate_only', NOT j.validate)),
    'state', 'JOB_STATE_' || upper(j.state),
    'error', j.error_message,
    'created_at', to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'updated_at', to_char(j.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;

-- The job a repository's history compares with: its latest finished job before `j`.
CREATE FUNCTION previous_job(j jobs) RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT p.id FROM jobs p
  WHERE p.team = j.team AND p.repository_key = j.repository_key AND p.seq < j.seq
    AND p.state IN ('succeeded', 'failed')
  ORDER BY p.seq DESC LIMIT 1
$$;

-- Counts of a job's report and its migration gate: every requested arch builds, tests pass, parity
-- matches, no open (not auto-fixed) error finding. A condition is passed, failed, or none (nothing
-- measured); the gate is failed when a condition failed, not_validated when no build ran, else passed.
CREATE FUNCTION job_summary(j jobs) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH f AS (
    SELECT count(*) AS total, count(*) FILTER (WHERE severity = 'error') AS errors,
           count(*) FILTER (WHERE severity = 'error' AND NOT auto_fixed) AS open_errors,
           count(*) FILTER (WHERE severity = 'warning') AS warnings, count(*) FILTER (WHERE severity = 'note') AS notes,
           count(*) FILTER (WHERE auto_fixed) AS auto_fixed
    FROM report_findings WHERE job_id = j.id),
  b AS (
    SELECT count(*) FILTER (WHERE ok) AS ok, count(*) FILTER (WHERE NOT ok) AS failed,
           coalesce(array_agg(DISTINCT coalesce(nullif(requested_arch, ''), arch)) FILTER (WHERE ok), '{}') AS ok_archs
    FROM report_builds WHERE job_id = j.id),
  t AS (
    SELECT count(*) FILTER (WHERE status = 'passed') AS passed,
           count(*) FILTER (WHERE status IN ('failed', 'timed_out')) AS failed,
           count(*) FILTER (WHERE status = 'not_run') AS not_run
    FROM report_tests WHERE job_id = j.id),
  p AS (
    SELECT count(*) FILTER (WHERE verdict = 'match') AS match, count(*) FILTER (WHERE verdict <> 'match') AS bad
    FROM report_parity WHERE job_id = j.id),
  d AS (SELECT document FROM report_documents WHERE job_id = j.id),
  k AS (
    SELECT sum(x.total_ns) / nullif(sum(x.cuda_baseline_ns), 0) AS ratio
    FROM d, jsonb_to_recordset(CASE WHEN jsonb_typeof(d.document->'profile') = 'array' THEN d.document->'profile'
                                    ELSE '[]'::jsonb END) AS x(total_ns float8, cuda_baseline_ns float8)
    WHERE x.cuda_baseline_ns > 0),
  conditions AS (
    SELECT jsonb_build_array(
      jsonb_build_object('name', 'builds',
        'status', CASE WHEN b.ok + b.failed = 0 THEN 'none'
                       WHEN j.targets <@ b.ok_archs AND b.failed = 0 THEN 'passed' ELSE 'failed' END,
        'detail', CASE WHEN b.ok + b.failed = 0 THEN 'not validated (no build ran)'
                       ELSE b.ok || ' ok, ' || b.failed || ' failed' ||
                            coalesce('; not built: ' || nullif(array_to_string(ARRAY(
                              SELECT unnest(j.targets) EXCEPT SELECT unnest(b.ok_archs)), ', '), ''), '') END),
      jsonb_build_object('name', 'tests',
        'status', CASE WHEN t.passed + t.failed = 0 THEN 'none' WHEN t.failed = 0 THEN 'passed' ELSE 'failed' END,
        'detail', t.passed || ' passed, ' || t.failed || ' failed' ||
                  CASE WHEN t.not_run > 0 THEN ', ' || t.not_run || ' not run' ELSE '' END),
      jsonb_build_object('name', 'parity',
        'status', CASE WHEN p.match + p.bad = 0 THEN 'none' WHEN p.bad = 0 THEN 'passed' ELSE 'failed' END,
        'detail', p.match || ' match, ' || p.bad || ' mismatch or missing'),
      jsonb_build_object('name', 'findings',
        'status', CASE WHEN f.open_errors = 0 THEN 'passed' ELSE 'failed' END,
        'detail', f.open_errors || ' open error finding(s)')) AS list
    FROM f, b, t, p)
  SELECT jsonb_build_object(
    'has_report', EXISTS (SELECT 1 FROM d),
    'findings', f.total, 'errors', f.errors, 'open_errors', f.open_errors, 'warnings', f.warnings,
    'notes', f.notes, 'auto_fixed', f.auto_fixed,
    'builds_ok', b.ok, 'builds_failed', b.failed, 'tests_passed', t.passed, 'tests_failed', t.failed,
    'parity_match', p.match, 'parity_mismatch', p.bad,
    'translation', (SELECT d.document->'translation'->'totals' FROM d),
    'engineer_hours', (SELECT (d.document->'effort'->>'engineer_hours')::float8 FROM d),
    'automatic_share', (SELECT (d.document->'effort'->>'automatic_share')::float8 FROM d),
    'kernel_time_ratio', (SELECT ratio FROM k),
    'gate', jsonb_build_object(
      'status', CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(c.list) e WHERE e->>'status' = 'failed') THEN 'failed'
                     WHEN b.ok + b.failed = 0 THEN 'not_validated' ELSE 'passed' END,
      'blocking', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(c.list) e
                        WHERE e->>'status' = 'failed' OR (e->>'name' = 'builds' AND e->>'status' = 'none')),
      'conditions', c.list))
  FROM f, b, t, p, conditions c
$$;
