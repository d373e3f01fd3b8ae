-- The report values job_summary reads (translation totals, effort hours and share, the verdict, the kernel time
-- sums behind kernel_time_ratio) as typed columns, written when a report is stored (server/store/
-- postgres_reports.cc, from the typed report: common/report/report.h) instead of read with JSON paths into the
-- document on every summary. NULL: the section was never stored. The document stays (GetReport and the
-- dashboard's sections read it through the typed report). Rows stored before this migration are filled from
-- their documents here, once.
ALTER TABLE report_documents
  ADD COLUMN translation_files integer,
  ADD COLUMN translation_translated integer,
  ADD COLUMN translation_unchanged integer,
  ADD COLUMN translation_fallback integer,
  ADD COLUMN translation_copied integer,
  ADD COLUMN translation_failed integer,
  ADD COLUMN translation_converted integer,
  ADD COLUMN translation_unconverted integer,
  ADD COLUMN translation_unsupported integer,
  ADD COLUMN translation_lines_changed integer,
  ADD COLUMN translation_cuda_files integer,
  ADD COLUMN translation_cuda_files_translated integer,
  ADD COLUMN translation_cuda_files_unchanged integer,
  ADD COLUMN effort_engineer_hours float8,
  ADD COLUMN effort_automatic_share float8,
  ADD COLUMN verdict_level text,
  ADD COLUMN verdict_platform text,
  ADD COLUMN verdict_why text,
  ADD COLUMN verdict_not_proved text[],
  -- Over the profiled kernels with a CUDA baseline (> 0): their HIP and CUDA times; NULL when none has one.
  ADD COLUMN profile_total_ns float8,
  ADD COLUMN profile_cuda_baseline_ns float8;

-- The backfill: what job_summary read from the document until now, read once more.
UPDATE report_documents d
SET translation_files = (t->>'files')::integer,
    translation_translated = (t->>'translated')::integer,
    translation_unchanged = (t->>'unchanged')::integer,
    translation_fallback = (t->>'fallback')::integer,
    translation_copied = (t->>'copied')::integer,
    translation_failed = (t->>'failed')::integer,
    translation_converted = (t->>'converted')::integer,
    translation_unconverted = (t->>'unconverted')::integer,
    translation_unsupported = (t->>'unsupported')::integer,
    translation_lines_changed = (t->>'lines_changed')::integer,
    translation_cuda_files = (t->>'cuda_files')::integer,
    translation_cuda_files_translated = (t->>'cuda_files_translated')::integer,
    translation_cuda_files_unchanged = (t->>'cuda_files_unchanged')::integer
FROM (SELECT job_id, document->'translation'->'totals' AS t FROM report_documents) totals
WHERE totals.job_id = d.job_id AND jsonb_typeof(totals.t) = 'object';

UPDATE report_documents
SET effort_engineer_hours = (document->'effort'->>'engineer_hours')::float8,
    effort_automatic_share = (document->'effort'->>'automatic_share')::float8
WHERE jsonb_typeof(document->'effort') = 'object';

UPDATE report_documents
SET verdict_level = document->'verdict'->>'level',
    verdict_platform = coalesce(document->'verdict'->>'platform', ''),
    verdict_why = coalesce(document->'verdict'->>'why', ''),
    verdict_not_proved = ARRAY(SELECT jsonb_array_elements_text(CASE
                               WHEN jsonb_typeof(document->'verdict'->'not_proved') = 'array'
                               THEN document->'verdict'->'not_proved' ELSE '[]'::jsonb END))
WHERE jsonb_typeof(document->'verdict') = 'object';

UPDATE report_documents d
SET profile_total_ns = k.total_ns, profile_cuda_baseline_ns = k.cuda_baseline_ns
FROM (SELECT r.job_id, sum(x.total_ns) AS total_ns, sum(x.cuda_baseline_ns) AS cuda_baseline_ns
      FROM report_documents r,
           jsonb_to_recordset(CASE WHEN jsonb_typeof(r.document->'profile') = 'array' THEN r.document->'profile'
                                   ELSE '[]'::jsonb END) AS x(total_ns float8, cuda_baseline_ns float8)
      WHERE x.cuda_baseline_ns > 0
      GROUP BY r.job_id) k
WHERE k.job_id = d.job_id;
