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
INSERT INTO report_files (job_id, ordinal, path, status, fallback_reason, converted, unconverted, unsupported,
                          lines_changed, changed_by)
SELECT $1::uuid, f.ord - 1, f.v->>'path', f.v->>'status', coalesce(f.v->>'fallback_reason', ''),
       coalesce(f.v->'converted', '{}'::jsonb), coalesce((f.v->>'unconverted')::integer, 0),
       coalesce((f.v->>'unsupported')::integer, 0), coalesce((f.v->>'lines_changed')::integer, 0),
       ARRAY(SELECT jsonb_array_elements_text(coalesce(f.v->'changed_by', '[]'::jsonb)))
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS f(v, ord)

-- name: delete_report_findings
DELETE FROM report_findings WHERE job_id = $1::uuid

-- name: insert_report_findings
-- source_line (the CUDA line the finding points at) feeds the fingerprint column (migration 0005); inactive (in
-- code the build does not compile) keeps the finding out of job_summary's open counts (migration 0013).
INSERT INTO report_findings (job_id, ordinal, rule_id, severity, path, line, col, message, fix, auto_fixed,
                             source_line, inactive)
SELECT $1::uuid, f.ord - 1, f.v->>'rule_id', f.v->>'severity', coalesce(f.v->>'path', ''),
       coalesce((f.v->>'line')::integer, 0), coalesce((f.v->>'column')::integer, 0),
       coalesce(f.v->>'message', ''), coalesce(f.v->>'fix', ''), coalesce((f.v->>'auto_fixed')::boolean, false),
       coalesce(f.v->>'source_line', ''), coalesce((f.v->>'inactive')::boolean, false)
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS f(v, ord)

-- name: delete_report_builds
-- Kernels go with their builds (ON DELETE CASCADE).
DELETE FROM report_builds WHERE job_id = $1::uuid

-- name: insert_report_builds
INSERT INTO report_builds (job_id, ordinal, requested_arch, arch, toolchain, ok, duration_ms, errors, note,
                           log_excerpt)
SELECT $1::uuid, b.ord - 1, coalesce(b.v->>'requested_arch', ''), coalesce(b.v->>'arch', ''),
       coalesce(b.v->>'toolchain', ''), coalesce((b.v->>'ok')::boolean, false),
       coalesce((b.v->>'duration_ms')::bigint, 0), coalesce(b.v->'errors', '[]'::jsonb),
       coalesce(b.v->>'note', ''), coalesce(b.v->>'log_excerpt', '')
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS b(v, ord)

-- name: insert_report_kernels
INSERT INTO report_kernels (job_id, build_ordinal, ordinal, name, vgprs, sgprs, agprs, scratch_bytes, occupancy,
                            spills, lds_bytes)
SELECT $1::uuid, b.ord - 1, k.ord - 1, k.v->>'name', (k.v->>'vgprs')::integer, (k.v->>'sgprs')::integer,
       (k.v->>'agprs')::integer, (k.v->>'scratch_bytes')::bigint, (k.v->>'occupancy')::integer,
       (k.v->>'spills')::integer, (k.v->>'lds_bytes')::bigint
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS b(v, ord),
     jsonb_array_elements(coalesce(b.v->'kernels', '[]'::jsonb)) WITH ORDINALITY AS k(v, ord)

-- name: delete_report_tests
DELETE FROM report_tests WHERE job_id = $1::uuid

-- name: insert_report_tests
INSERT INTO report_tests (job_id, ordinal, name, arch, status, duration_ms, output_excerpt, cuda_status)
SELECT $1::uuid, t.ord - 1, t.v->>'name', coalesce(t.v->>'arch', ''), t.v->>'status',
       coalesce((t.v->>'duration_ms')::bigint, 0), coalesce(t.v->>'output_excerpt', ''), t.v->'cuda'->>'status'
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(v, ord)

-- name: delete_report_parity
DELETE FROM report_parity WHERE job_id = $1::uuid

-- name: insert_report_parity
INSERT INTO report_parity (job_id, ordinal, case_name, verdict, max_abs_error, max_rel_error, mismatches)
SELECT $1::uuid, p.ord - 1, p.v->>'case', p.v->>'verdict', coalesce((p.v->>'max_abs_error')::float8, 0),
       coalesce((p.v->>'max_rel_error')::float8, 0), coalesce((p.v->>'mismatches')::bigint, 0)
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS p(v, ord)

-- name: get_report
-- The document with its tabular sections rebuilt from the tables (the tables are the source of truth for their
-- columns; fields without a column, e.g. a file's kind and left_for_person, come from the document's entry).
-- Each section's document entries are unnested once and joined by ordinal: a lookup `document->...->ordinal` per
-- row read (and detoasted) the whole document for every row (20,000 files: > 30 s).
-- `gate` is the migration gate as job_summary judges it now (never stored: a team's gate definition can change),
-- so the CLI's text, JSON, SARIF and JUnit show the gate the dashboard shows.
SELECT (d.document || jsonb_build_object('job_id', d.job_id::text)
  || coalesce((SELECT jsonb_build_object('gate', job_summary(j)->'gate') FROM jobs j WHERE j.id = d.job_id),
              '{}'::jsonb)
  || CASE WHEN d.document ? 'translation' THEN jsonb_build_object('translation',
       coalesce(d.document->'translation', '{}'::jsonb) || jsonb_build_object('files', coalesce(
         (SELECT jsonb_agg(coalesce(e.v, '{}'::jsonb)
                           || jsonb_build_object('path', f.path, 'status', f.status, 'fallback_reason', f.fallback_reason,
                                              'converted', f.converted, 'unconverted', f.unconverted,
                                              'unsupported', f.unsupported, 'lines_changed', f.lines_changed,
                                              'changed_by', to_jsonb(f.changed_by)) ORDER BY f.ordinal)
          FROM report_files f
          LEFT JOIN jsonb_array_elements(CASE WHEN jsonb_typeof(d.document->'translation'->'files') = 'array'
                                              THEN d.document->'translation'->'files' ELSE '[]'::jsonb END)
                    WITH ORDINALITY AS e(v, ord) ON e.ord - 1 = f.ordinal
          WHERE f.job_id = d.job_id), '[]'::jsonb)))
     ELSE '{}'::jsonb END
  || CASE WHEN d.document ? 'findings' THEN jsonb_build_object('findings', coalesce(
       (SELECT jsonb_agg(coalesce(e.v, '{}'::jsonb)
                         || jsonb_build_object('rule_id', f.rule_id, 'severity', f.severity, 'path', f.path,
                                            'line', f.line, 'column', f.col, 'message', f.message, 'fix', f.fix,
                                            'auto_fixed', f.auto_fixed)
                         || CASE WHEN f.source_line <> '' THEN jsonb_build_object('source_line', f.source_line)
                                 ELSE '{}'::jsonb END ORDER BY f.ordinal)
        FROM report_findings f
        LEFT JOIN jsonb_array_elements(CASE WHEN jsonb_typeof(d.document->'findings') = 'array'
                                            THEN d.document->'findings' ELSE '[]'::jsonb END)
                  WITH ORDINALITY AS e(v, ord) ON e.ord - 1 = f.ordinal
        WHERE f.job_id = d.job_id), '[]'::jsonb))
     ELSE '{}'::jsonb END
  || CASE WHEN d.document ? 'builds' THEN jsonb_build_object('builds', coalesce(
       (SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('requested_arch', b.requested_arch, 'arch', b.arch,
                                            'toolchain', b.toolchain, 'ok', b.ok, 'duration_ms', b.duration_ms,
                                            'errors', b.errors, 'note', nullif(b.note, ''),
                                            'log_excerpt', nullif(b.log_excerpt, ''), 'kernels', coalesce(
          (SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                    'name', k.name, 'vgprs', k.vgprs, 'sgprs', k.sgprs, 'agprs', k.agprs,
                    'scratch_bytes', k.scratch_bytes, 'occupancy', k.occupancy, 'spills', k.spills,
                    'lds_bytes', k.lds_bytes)) ORDER BY k.ordinal)
           FROM report_kernels k WHERE k.job_id = b.job_id AND k.build_ordinal = b.ordinal), '[]'::jsonb)))
          ORDER BY b.ordinal)
        FROM report_builds b WHERE b.job_id = d.job_id), '[]'::jsonb))
     ELSE '{}'::jsonb END
  || CASE WHEN d.document ? 'tests' THEN jsonb_build_object('tests', coalesce(
       (SELECT jsonb_agg(coalesce(e.v, '{}'::jsonb)
                         || jsonb_build_object('name', t.name, 'arch', t.arch, 'status', t.status,
                                            'duration_ms', t.duration_ms, 'output_excerpt', t.output_excerpt)
                         ORDER BY t.ordinal)
        FROM report_tests t
        LEFT JOIN jsonb_array_elements(CASE WHEN jsonb_typeof(d.document->'tests') = 'array'
                                            THEN d.document->'tests' ELSE '[]'::jsonb END)
                  WITH ORDINALITY AS e(v, ord) ON e.ord - 1 = t.ordinal
        WHERE t.job_id = d.job_id), '[]'::jsonb))
     ELSE '{}'::jsonb END
  || CASE WHEN d.document ? 'parity' THEN jsonb_build_object('parity', coalesce(
       (SELECT jsonb_agg(coalesce(e.v, '{}'::jsonb)
                         || jsonb_build_object('case', p.case_name, 'verdict', p.verdict,
                                            'max_abs_error', p.max_abs_error, 'max_rel_error', p.max_rel_error,
                                            'mismatches', p.mismatches) ORDER BY p.ordinal)
        FROM report_parity p
        LEFT JOIN jsonb_array_elements(CASE WHEN jsonb_typeof(d.document->'parity') = 'array'
                                            THEN d.document->'parity' ELSE '[]'::jsonb END)
                  WITH ORDINALITY AS e(v, ord) ON e.ord - 1 = p.ordinal
        WHERE p.job_id = d.job_id), '[]'::jsonb))
     ELSE '{}'::jsonb END)::text
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
