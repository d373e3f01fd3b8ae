-- The dashboard's read side (server/http). Every query takes the caller's team as $1 and reads only that
-- team's jobs: another team's job is indistinguishable from a missing one. Results are JSON built here
-- (job_json, job_summary: migration 0005), so aggregation and pagination stay in SQL.

-- name: dashboard_job_head
-- Existence under the team, the ETag inputs and the job the repository's history compares with. The team's gate
-- definition is an ETag input too: job_summary judges every job of the team by it when read.
SELECT j.state, micros(j.updated_at), coalesce(micros(d.updated_at), 0), previous_job(j)::text, j.repository_key,
       coalesce((SELECT micros(g.updated_at) FROM team_gates g WHERE g.team = j.team), 0)
FROM jobs j LEFT JOIN report_documents d ON d.job_id = j.id
WHERE j.team = $1 AND j.id = $2::uuid

-- name: dashboard_teams
SELECT jsonb_build_object('team', $1::text, 'jobs', count(*), 'repositories', count(DISTINCT repository_key),
                          'latest_job_at', to_char(max(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text
FROM jobs WHERE team = $1

-- name: dashboard_overview
-- One row per repository (keyset on repository_key after $2, $3 rows, optional exact repository $4): its
-- latest job, the gate of its latest finished job and the finished job before that one (the portfolio's trend).
WITH repos AS (
  SELECT repository_key, count(*) AS jobs, max(seq) AS latest_seq,
         max(seq) FILTER (WHERE state IN ('succeeded', 'failed')) AS finished_seq
  FROM jobs
  WHERE team = $1 AND ($2::text IS NULL OR repository_key > $2::text)
    AND ($4::text IS NULL OR repository_key = $4::text)
  GROUP BY repository_key
  ORDER BY repository_key
  LIMIT $3::integer)
SELECT r.repository_key,
       jsonb_build_object('repository', r.repository_key, 'jobs', r.jobs, 'latest_job', job_json(l),
                          'gate_job', CASE WHEN f.id IS NULL THEN NULL
                                           ELSE job_json(f) || jsonb_build_object('summary', job_summary(f)) END,
                          'previous_gate_job', (SELECT job_json(p) || jsonb_build_object('summary', job_summary(p))
                                                FROM jobs p WHERE p.id = previous_job(f)))::text
FROM repos r JOIN jobs l ON l.seq = r.latest_seq LEFT JOIN jobs f ON f.seq = r.finished_seq
ORDER BY r.repository_key

-- name: dashboard_list_jobs
-- Newest first, keyset on seq ($7: before this seq); NULL filters match everything. Times in micros.
SELECT j.seq, (job_json(j) || jsonb_build_object('summary', job_summary(j)))::text
FROM jobs j
WHERE j.team = $1
  AND ($2::text IS NULL OR j.repository_key = $2::text)
  AND ($3::text IS NULL OR j.state = $3::text)
  AND ($4::jsonb IS NULL OR j.labels @> $4::jsonb)
  AND ($5::bigint IS NULL OR j.created_at >= ts($5::bigint))
  AND ($6::bigint IS NULL OR j.created_at < ts($6::bigint))
  AND ($7::bigint IS NULL OR j.seq < $7::bigint)
  AND ($9::text IS NULL OR j.branch = $9::text)
ORDER BY j.seq DESC
LIMIT $8::integer

-- name: dashboard_job
-- The job with its summary and the previous job of its repository, and its report document (NULL: none yet), whose
-- translation, effort and GPU sections the reader adds through the typed report (postgres_dashboard_reader.cc).
SELECT (job_json(j) || jsonb_build_object(
          'summary', job_summary(j),
          'previous_job_id', previous_job(j)::text,
          'artifact_kinds', (SELECT coalesce(jsonb_agg(role ORDER BY role), '[]'::jsonb)
                             FROM job_artifacts a WHERE a.job_id = j.id)))::text,
       d.document::text
FROM jobs j LEFT JOIN report_documents d ON d.job_id = j.id
WHERE j.team = $1 AND j.id = $2::uuid

-- name: dashboard_findings
-- Findings of job $2 in rule -> path -> line order, keyset after ($7, $8, $9, $10). $11: only those whose
-- fingerprint is absent from job $3 ('only'), present in it ('both'), or any ('any'); each row says
-- whether job $3 has it ("in_other", null without $3). $12 auto-fixed, $14 inactive (in code the build does not
-- compile): either, when null.
SELECT f.rule_id, f.path, f.line, f.ordinal,
       jsonb_build_object('rule_id', f.rule_id, 'severity', f.severity, 'path', f.path, 'line', f.line,
                          'column', f.col, 'message', f.message, 'fix', f.fix, 'auto_fixed', f.auto_fixed,
                          'inactive', f.inactive,
                          'source_line', f.source_line, 'fingerprint', f.fingerprint, 'ordinal', f.ordinal,
                          'in_other', CASE WHEN $3::uuid IS NULL THEN NULL ELSE EXISTS (
                             SELECT 1 FROM report_findings o WHERE o.job_id = $3::uuid AND o.fingerprint = f.fingerprint) END)::text
FROM report_findings f JOIN jobs j ON j.id = f.job_id AND j.team = $1
WHERE f.job_id = $2::uuid
  AND ($4::text IS NULL OR f.rule_id = $4::text)
  AND ($5::text IS NULL OR f.path = $5::text)
  AND ($6::text IS NULL OR f.severity = $6::text)
  AND ($12::boolean IS NULL OR f.auto_fixed = $12::boolean)
  AND ($14::boolean IS NULL OR f.inactive = $14::boolean)
  AND ($7::text IS NULL OR (f.rule_id, f.path, f.line, f.ordinal) > ($7::text, $8::text, $9::integer, $10::integer))
  AND ($11::text = 'any'
       OR ($11::text = 'only' AND NOT EXISTS (
             SELECT 1 FROM report_findings o WHERE o.job_id = $3::uuid AND o.fingerprint = f.fingerprint))
       OR ($11::text = 'both' AND EXISTS (
             SELECT 1 FROM report_findings o WHERE o.job_id = $3::uuid AND o.fingerprint = f.fingerprint)))
ORDER BY f.rule_id, f.path, f.line, f.ordinal
LIMIT $13::integer

-- name: dashboard_finding_rules
-- Per rule of job $2: counts, auto-fixed, inactive, open (neither: job_summary's definition), files, and (with $3)
-- how many are new against job $3.
SELECT coalesce(jsonb_agg(r ORDER BY r->>'rule_id'), '[]'::jsonb)::text FROM (
  SELECT jsonb_build_object('rule_id', f.rule_id, 'severity', min(f.severity), 'count', count(*),
                            'auto_fixed', count(*) FILTER (WHERE f.auto_fixed),
                            'inactive', count(*) FILTER (WHERE f.inactive),
                            'open', count(*) FILTER (WHERE NOT f.auto_fixed AND NOT f.inactive),
                            'files', count(DISTINCT f.path),
                            'message', min(f.message),
                            'new', CASE WHEN $3::uuid IS NULL THEN NULL ELSE count(*) FILTER (WHERE NOT EXISTS (
                               SELECT 1 FROM report_findings o WHERE o.job_id = $3::uuid AND o.fingerprint = f.fingerprint)) END) AS r
  FROM report_findings f JOIN jobs j ON j.id = f.job_id AND j.team = $1
  WHERE f.job_id = $2::uuid
  GROUP BY f.rule_id) rules

-- name: dashboard_compare
-- Per rule: findings of head $3 absent from base $2 (new), of base absent from head (fixed), in both.
WITH sides AS (
  SELECT 'head' AS side, f.rule_id, EXISTS (SELECT 1 FROM report_findings o WHERE o.job_id = $2::uuid
                                            AND o.fingerprint = f.fingerprint) AS in_other
  FROM report_findings f WHERE f.job_id = $3::uuid
  UNION ALL
  SELECT 'base', f.rule_id, EXISTS (SELECT 1 FROM report_findings o WHERE o.job_id = $3::uuid
                                    AND o.fingerprint = f.fingerprint)
  FROM report_findings f WHERE f.job_id = $2::uuid),
rules AS (
  SELECT rule_id, count(*) FILTER (WHERE side = 'head' AND NOT in_other) AS new,
         count(*) FILTER (WHERE side = 'base' AND NOT in_other) AS fixed,
         count(*) FILTER (WHERE side = 'head' AND in_other) AS unchanged
  FROM sides GROUP BY rule_id)
SELECT jsonb_build_object(
  'base', (SELECT job_json(b) || jsonb_build_object('summary', job_summary(b)) FROM jobs b WHERE b.id = $2::uuid AND b.team = $1),
  'head', (SELECT job_json(h) || jsonb_build_object('summary', job_summary(h)) FROM jobs h WHERE h.id = $3::uuid AND h.team = $1),
  'new', coalesce(sum(new), 0), 'fixed', coalesce(sum(fixed), 0), 'unchanged', coalesce(sum(unchanged), 0),
  'rules', coalesce(jsonb_agg(jsonb_build_object('rule_id', rule_id, 'new', new, 'fixed', fixed, 'unchanged', unchanged)
                              ORDER BY rule_id), '[]'::jsonb))::text
FROM rules

-- name: dashboard_builds
-- Builds of job $2 with their kernels' resources (the arch matrix).
SELECT coalesce(jsonb_agg(jsonb_build_object(
         'requested_arch', b.requested_arch, 'arch', b.arch, 'toolchain', b.toolchain, 'ok', b.ok,
         'duration_ms', b.duration_ms, 'errors', b.errors, 'note', b.note, 'log_excerpt', b.log_excerpt,
         'kernels', coalesce((SELECT jsonb_agg(jsonb_build_object(
                       'name', k.name, 'vgprs', k.vgprs, 'sgprs', k.sgprs, 'agprs', k.agprs,
                       'scratch_bytes', k.scratch_bytes, 'occupancy', k.occupancy, 'spills', k.spills,
                       'lds_bytes', k.lds_bytes) ORDER BY k.ordinal)
                     FROM report_kernels k WHERE k.job_id = b.job_id AND k.build_ordinal = b.ordinal), '[]'::jsonb))
         ORDER BY b.ordinal), '[]'::jsonb)::text
FROM report_builds b JOIN jobs j ON j.id = b.job_id AND j.team = $1
WHERE b.job_id = $2::uuid

-- name: dashboard_tests
SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('name', t.name, 'arch', t.arch, 'status', t.status,
                                             'duration_ms', t.duration_ms, 'output_excerpt', t.output_excerpt,
                                             'cuda_status', t.cuda_status))
                          ORDER BY t.ordinal), '[]'::jsonb)::text
FROM report_tests t JOIN jobs j ON j.id = t.job_id AND j.team = $1
WHERE t.job_id = $2::uuid

-- name: dashboard_report_document
-- The report document of a job of the team, for the sections the reader serves through the typed report (parity
-- keeps elements and the first mismatch's detail there; profile and effort live only there).
SELECT d.document::text
FROM report_documents d JOIN jobs j ON j.id = d.job_id AND j.team = $1
WHERE d.job_id = $2::uuid

-- name: dashboard_trends
-- The last $3 finished jobs of repository $2, oldest first, with their summaries.
SELECT coalesce(jsonb_agg(t.point ORDER BY t.seq), '[]'::jsonb)::text FROM (
  SELECT j.seq, jsonb_build_object('job_id', j.id::text, 'seq', j.seq, 'state', 'JOB_STATE_' || upper(j.state),
                                   'commit', j.commit_id, 'branch', j.branch,
                                   'created_at', to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                                   'summary', job_summary(j)) AS point
  FROM jobs j
  WHERE j.team = $1 AND j.repository_key = $2 AND j.state IN ('succeeded', 'failed')
  ORDER BY j.seq DESC
  LIMIT $3::integer) t
