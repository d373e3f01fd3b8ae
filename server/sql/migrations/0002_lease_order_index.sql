-- The lease query orders due tasks by (run_after, created_at) and stops at the first one it can
-- lock. An index in that order lets it read one entry instead of sorting every due task: measured
-- with 1,500 due tasks, 11.8 ms -> 0.6 ms per lease (bench/queue). Kind and capabilities are
-- checked on the few rows read.
DROP INDEX IF EXISTS tasks_leasable;
CREATE INDEX tasks_due ON tasks (run_after, created_at) WHERE state IN ('available', 'failed');
