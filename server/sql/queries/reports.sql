-- Reports: the document (merged per top-level section) plus queryable rows per section.
-- Each section's rows are replaced as a whole: delete_* then insert_* with the section's JSON array.

-- name: merge_report_document
INSERT INTO report_documents (job_id, document, updated_at) VALUES ($1::uuid, $2::jsonb, ts($3))
ON CONFLICT (job_id) DO UPDATE
SET document = report_documents.document || EXCLUDED.document, updated_at = EXCLUDED.updated_at

-- name: get_report_document
-- The document as stored, for a validate report that joins another platform's (Report::AddOtherPlatform).
SELECT document::text FROM report_documents WHERE job_id = $1::uuid

-- name: delete_report_files
DELETE FROM report_files WHERE job_id = $1::uuid

-- name: insert_report_files
-- $2: the translation's files as the one serializer writes them (report_json.cc), read as typed records.
INSERT INTO report_files (job_id, ordinal, path, status, fallback_reason, converted, unconverted, unsupported,
                          lines_changed, changed_by)
SELECT $1::uuid, f.ord - 1, f.path, f.status, coalesce(f.fallback_reason, ''), coalesce(f.converted, '{}'::jsonb),
       coalesce(f.unconverted, 0), coalesce(f.unsupported, 0), coalesce(f.lines_changed, 0),
       coalesce(f.changed_by, '{}')
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (path text, status text, fallback_reason text, converted jsonb,
                                                  unconverted integer, unsupported integer, lines_changed integer,
                                                  changed_by text[]))
     WITH ORDINALITY AS f(path, status, fallback_reason, converted, unconverted, unsupported, lines_changed,
                          changed_by, ord)

-- name: delete_report_findings
DELETE FROM report_findings WHERE job_id = $1::uuid

-- name: insert_report_findings
-- source_line (the CUDA line the finding points at) feeds the fingerprint column (migration 0005); inactive (in
-- code the build does not compile) keeps the finding out of job_summary's open counts (migration 0013).
INSERT INTO report_findings (job_id, ordinal, rule_id, severity, path, line, col, message, fix, auto_fixed,
                             source_line, inactive)
SELECT $1::uuid, f.ord - 1, f.rule_id, f.severity, coalesce(f.path, ''), coalesce(f.line, 0), coalesce(f.col, 0),
       coalesce(f.message, ''), coalesce(f.fix, ''), coalesce(f.auto_fixed, false), coalesce(f.source_line, ''),
       coalesce(f.inactive, false)
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (rule_id text, severity text, path text, line integer,
                                                  "column" integer, message text, fix text, auto_fixed boolean,
                                                  source_line text, inactive boolean))
     WITH ORDINALITY AS f(rule_id, severity, path, line, col, message, fix, auto_fixed, source_line, inactive, ord)

-- name: delete_report_builds
-- Kernels go with their builds (ON DELETE CASCADE).
DELETE FROM report_builds WHERE job_id = $1::uuid

-- name: insert_report_builds
INSERT INTO report_builds (job_id, ordinal, requested_arch, arch, toolchain, ok, duration_ms, errors, note,
                           log_excerpt)
SELECT $1::uuid, b.ord - 1, coalesce(b.requested_arch, ''), coalesce(b.arch, ''), coalesce(b.toolchain, ''),
       coalesce(b.ok, false), coalesce(b.duration_ms, 0), coalesce(b.errors, '[]'::jsonb), coalesce(b.note, ''),
       coalesce(b.log_excerpt, '')
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (requested_arch text, arch text, toolchain text, ok boolean,
                                                  duration_ms bigint, errors jsonb, note text, log_excerpt text))
     WITH ORDINALITY AS b(requested_arch, arch, toolchain, ok, duration_ms, errors, note, log_excerpt, ord)

-- name: insert_report_kernels
INSERT INTO report_kernels (job_id, build_ordinal, ordinal, name, vgprs, sgprs, agprs, scratch_bytes, occupancy,
                            spills, lds_bytes)
SELECT $1::uuid, b.ord - 1, k.ord - 1, k.name, k.vgprs, k.sgprs, k.agprs, k.scratch_bytes, k.occupancy, k.spills,
       k.lds_bytes
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (kernels jsonb)) WITH ORDINALITY AS b(kernels, ord),
     ROWS FROM (jsonb_to_recordset(coalesce(b.kernels, '[]'::jsonb)) AS (name text, vgprs integer, sgprs integer,
                                                                         agprs integer, scratch_bytes bigint,
                                                                         occupancy integer, spills integer,
                                                                         lds_bytes bigint))
     WITH ORDINALITY AS k(name, vgprs, sgprs, agprs, scratch_bytes, occupancy, spills, lds_bytes, ord)

-- name: delete_report_tests
DELETE FROM report_tests WHERE job_id = $1::uuid

-- name: insert_report_tests
INSERT INTO report_tests (job_id, ordinal, name, arch, status, duration_ms, output_excerpt, cuda_status)
SELECT $1::uuid, t.ord - 1, t.name, coalesce(t.arch, ''), t.status, coalesce(t.duration_ms, 0),
       coalesce(t.output_excerpt, ''), c.status
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (name text, arch text, status text, duration_ms bigint,
                                                  output_excerpt text, cuda jsonb))
     WITH ORDINALITY AS t(name, arch, status, duration_ms, output_excerpt, cuda, ord)
     LEFT JOIN LATERAL jsonb_to_record(t.cuda) AS c(status text) ON true

-- name: delete_report_parity
DELETE FROM report_parity WHERE job_id = $1::uuid

-- name: insert_report_parity
INSERT INTO report_parity (job_id, ordinal, case_name, verdict, max_abs_error, max_rel_error, mismatches)
SELECT $1::uuid, p.ord - 1, p.case_name, p.verdict, coalesce(p.max_abs_error, 0),
       coalesce(p.max_rel_error, 0), coalesce(p.mismatches, 0)
FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS ("case" text, verdict text, max_abs_error float8,
                                                  max_rel_error float8, mismatches bigint))
     WITH ORDINALITY AS p(case_name, verdict, max_abs_error, max_rel_error, mismatches, ord)

-- name: set_report_translation_totals
-- The values job_summary reads, written beside the document (migration 0016): one statement per section present.
UPDATE report_documents
SET translation_files = $2, translation_translated = $3, translation_unchanged = $4, translation_fallback = $5,
    translation_copied = $6, translation_failed = $7, translation_converted = $8, translation_unconverted = $9,
    translation_unsupported = $10, translation_lines_changed = $11, translation_cuda_files = $12,
    translation_cuda_files_translated = $13, translation_cuda_files_unchanged = $14
WHERE job_id = $1::uuid

-- name: set_report_effort
UPDATE report_documents SET effort_engineer_hours = $2::float8, effort_automatic_share = $3::float8
WHERE job_id = $1::uuid

-- name: set_report_verdict
-- $5: what was not proved, as JSON text (server/sql/README.md: arrays).
UPDATE report_documents
SET verdict_level = $2, verdict_platform = $3, verdict_why = $4,
    verdict_not_proved = ARRAY(SELECT jsonb_array_elements_text($5::jsonb))
WHERE job_id = $1::uuid

-- name: set_report_profile
-- Over the kernels with a CUDA baseline: HIP and CUDA time sums (NULL when none has one).
UPDATE report_documents SET profile_total_ns = $2::float8, profile_cuda_baseline_ns = $3::float8
WHERE job_id = $1::uuid

-- name: get_report
-- The document as stored (written by the one serializer from the typed report, with the tables' rows from the
-- same report in the same transaction) and `gate`, the migration gate as job_summary judges it now (never stored:
-- a team's gate definition can change), so the CLI's text, JSON, SARIF and JUnit show the gate the dashboard shows.
SELECT (d.document || jsonb_build_object('job_id', d.job_id::text)
  || coalesce((SELECT jsonb_build_object('gate', job_summary(j)->'gate') FROM jobs j WHERE j.id = d.job_id),
              '{}'::jsonb))::text
FROM report_documents d WHERE d.job_id = $1::uuid

-- name: list_findings
SELECT rule_id, severity, path, line, col, message, fix, auto_fixed
FROM report_findings
WHERE job_id = $1::uuid
  AND ($2::text IS NULL OR rule_id = $2::text)
  AND ($3::text IS NULL OR path = $3::text)
  AND ($4::text IS NULL OR severity = $4::text)
ORDER BY ordinal

-- name: count_findings_by_rule
SELECT rule_id, count(*) FROM report_findings WHERE job_id = $1::uuid GROUP BY rule_id ORDER BY rule_id

-- name: list_file_results
SELECT path, status, fallback_reason, unconverted, unsupported, lines_changed
FROM report_files WHERE job_id = $1::uuid ORDER BY ordinal
