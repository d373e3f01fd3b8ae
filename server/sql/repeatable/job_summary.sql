-- job_summary(job): one job's counts, verdict and gate as jsonb, read by the dashboard and report queries. Its one
-- home: a repeatable file, applied after the versioned migrations whenever its text changes (server/sql/README.md).
-- Migrations 0005, 0008, 0009, 0012 and 0013 each re-created it whole; they stay as history, this file wins.
-- It reads typed columns only: the report's rows and the values written beside its document (migration 0016),
-- never JSON paths into the document.
CREATE OR REPLACE FUNCTION job_summary(j jobs) RETURNS jsonb LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH f AS (
    SELECT count(*) AS total, count(*) FILTER (WHERE severity = 'error') AS errors,
           count(*) FILTER (WHERE severity = 'error' AND NOT auto_fixed AND NOT inactive) AS open_errors,
           count(*) FILTER (WHERE severity = 'warning') AS warnings,
           count(*) FILTER (WHERE severity = 'warning' AND NOT auto_fixed AND NOT inactive) AS open_warnings,
           count(*) FILTER (WHERE severity = 'note') AS notes,
           count(*) FILTER (WHERE auto_fixed) AS auto_fixed,
           count(*) FILTER (WHERE inactive AND NOT auto_fixed) AS inactive
    FROM report_findings WHERE job_id = j.id),
  b AS (
    SELECT count(*) FILTER (WHERE ok) AS ok, count(*) FILTER (WHERE NOT ok) AS failed,
           coalesce(array_agg(DISTINCT coalesce(nullif(requested_arch, ''), arch)) FILTER (WHERE ok), '{}') AS ok_archs
    FROM report_builds WHERE job_id = j.id),
  t AS (
    SELECT count(*) FILTER (WHERE status = 'passed') AS passed,
           count(*) FILTER (WHERE status IN ('failed', 'timed_out')
                              AND coalesce(cuda_status, '') NOT IN ('failed', 'timed_out')) AS failed,
           count(*) FILTER (WHERE status IN ('failed', 'timed_out')
                              AND cuda_status IN ('failed', 'timed_out')) AS fail_in_cuda,
           count(*) FILTER (WHERE status = 'not_run') AS not_run
    FROM report_tests WHERE job_id = j.id),
  p AS (
    SELECT count(*) FILTER (WHERE verdict = 'match') AS match, count(*) FILTER (WHERE verdict <> 'match') AS bad
    FROM report_parity WHERE job_id = j.id),
  d AS (
    SELECT nullif(jsonb_strip_nulls(jsonb_build_object(
             'files', translation_files, 'translated', translation_translated,
             'unchanged', translation_unchanged, 'fallback', translation_fallback, 'copied', translation_copied,
             'failed', translation_failed, 'converted', translation_converted,
             'unconverted', translation_unconverted, 'unsupported', translation_unsupported,
             'lines_changed', translation_lines_changed, 'cuda_files', translation_cuda_files,
             'cuda_files_translated', translation_cuda_files_translated,
             'cuda_files_unchanged', translation_cuda_files_unchanged)), '{}'::jsonb) AS totals,
           effort_engineer_hours, effort_automatic_share,
           CASE WHEN verdict_level IS NOT NULL THEN
             jsonb_build_object('level', verdict_level, 'not_proved', to_jsonb(coalesce(verdict_not_proved, '{}')))
             || CASE WHEN verdict_platform <> '' THEN jsonb_build_object('platform', verdict_platform)
                     ELSE '{}'::jsonb END
             || CASE WHEN verdict_why <> '' THEN jsonb_build_object('why', verdict_why) ELSE '{}'::jsonb END
           END AS verdict,
           profile_total_ns / nullif(profile_cuda_baseline_ns, 0) AS kernel_time_ratio
    FROM report_documents WHERE job_id = j.id),
  g AS (
    SELECT CASE WHEN j.labels ? 'hipforge.gate' THEN 'repository' WHEN tg.conditions IS NOT NULL THEN 'team'
                ELSE 'default' END AS source,
           coalesce(string_to_array(j.labels->>'hipforge.gate', ','), tg.conditions,
                    ARRAY['builds', 'tests', 'parity', 'findings', 'warnings']) AS requires
    FROM (SELECT 1) one LEFT JOIN team_gates tg ON tg.team = j.team),
  conditions AS (
    SELECT jsonb_build_array(
      jsonb_build_object('name', 'builds', 'required', 'builds' = ANY (g.requires),
        'status', CASE WHEN b.ok + b.failed = 0 THEN 'none'
                       WHEN j.targets <@ b.ok_archs AND b.failed = 0 THEN 'passed' ELSE 'failed' END,
        'detail', CASE WHEN b.ok + b.failed = 0 THEN 'not validated (no build ran)'
                       ELSE b.ok || ' ok, ' || b.failed || ' failed' ||
                            coalesce('; not built: ' || nullif(array_to_string(ARRAY(
                              SELECT unnest(j.targets) EXCEPT SELECT unnest(b.ok_archs)), ', '), ''), '') END),
      jsonb_build_object('name', 'tests', 'required', 'tests' = ANY (g.requires),
        'status', CASE WHEN t.passed + t.failed = 0 THEN 'none' WHEN t.failed = 0 THEN 'passed' ELSE 'failed' END,
        'detail', t.passed || ' passed, ' || t.failed || ' failed' ||
                  CASE WHEN t.fail_in_cuda > 0 THEN ', ' || t.fail_in_cuda || ' failing in the CUDA original too'
                       ELSE '' END ||
                  CASE WHEN t.not_run > 0 THEN ', ' || t.not_run || ' not run' ELSE '' END),
      jsonb_build_object('name', 'parity', 'required', 'parity' = ANY (g.requires),
        'status', CASE WHEN p.match + p.bad = 0 THEN 'none' WHEN p.bad = 0 THEN 'passed' ELSE 'failed' END,
        'detail', p.match || ' match, ' || p.bad || ' mismatch or missing'),
      jsonb_build_object('name', 'findings', 'required', 'findings' = ANY (g.requires),
        'status', CASE WHEN f.open_errors = 0 THEN 'passed' ELSE 'failed' END,
        'detail', f.open_errors || ' open error finding(s)'),
      jsonb_build_object('name', 'warnings', 'required', 'warnings' = ANY (g.requires),
        'status', CASE WHEN f.open_warnings = 0 THEN 'passed' ELSE 'failed' END,
        'detail', f.open_warnings || ' open warning finding(s) (may compute wrong)')) AS list
    FROM f, b, t, p, g)
  SELECT jsonb_build_object(
    'has_report', EXISTS (SELECT 1 FROM d),
    'findings', f.total, 'errors', f.errors, 'open_errors', f.open_errors, 'warnings', f.warnings,
    'open_warnings', f.open_warnings,
    'notes', f.notes, 'auto_fixed', f.auto_fixed, 'inactive', f.inactive,
    'builds_ok', b.ok, 'builds_failed', b.failed, 'tests_passed', t.passed, 'tests_failed', t.failed,
    'parity_match', p.match, 'parity_mismatch', p.bad,
    'translation', (SELECT totals FROM d),
    'engineer_hours', (SELECT effort_engineer_hours FROM d),
    'automatic_share', (SELECT effort_automatic_share FROM d),
    'kernel_time_ratio', (SELECT kernel_time_ratio FROM d),
    'verdict', (SELECT verdict FROM d),
    'gate', jsonb_build_object(
      'status', CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(c.list) e
                                  WHERE (e->>'required')::boolean AND e->>'status' = 'failed') THEN 'failed'
                     WHEN 'builds' = ANY (g.requires) AND b.ok + b.failed = 0 THEN 'not_validated'
                     -- No test passed and no parity case matched on a GPU: nothing about behaviour was proved (the
                     -- report's verdict says "builds" and what was not proved); never "passed" when the definition
                     -- asks for tests or parity.
                     WHEN g.requires && ARRAY['tests', 'parity'] AND t.passed = 0 AND p.match = 0 THEN 'not_proved'
                     ELSE 'passed' END,
      -- Required conditions that failed, builds when none ran, and tests/parity when nothing was proved (not when
      -- a required build is missing: that one comes first).
      'blocking', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(c.list) WITH ORDINALITY AS x(e, n)
                        WHERE (e->>'required')::boolean
                          AND (e->>'status' = 'failed' OR (e->>'name' = 'builds' AND e->>'status' = 'none')
                               OR (e->>'name' IN ('tests', 'parity') AND e->>'status' = 'none'
                                   AND (b.ok > 0 OR NOT 'builds' = ANY (g.requires)) AND t.passed = 0 AND p.match = 0))
                        ORDER BY n),
      'definition', jsonb_build_object('source', g.source, 'requires', to_jsonb(g.requires)),
      'conditions', c.list))
  FROM f, b, t, p, g, conditions c
$$;
