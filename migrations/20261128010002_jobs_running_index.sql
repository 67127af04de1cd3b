-- The completer records finished jobs with `WHERE id = … AND lock_by = <worker> AND status =
-- 'Running'`. Postgres chose apalis's `lock_by` index for it, which holds every job the worker
-- ever ran (finished jobs keep their `lock_by`), with every row version: a worker that had run
-- 30,000 jobs read 30,500 rows to finish 500, and on a busy table each batch took seconds (one
-- worker alone ran 1,300 jobs/s in some runs, 10,000 in others). This index holds the running
-- jobs only (at most a worker's slots each), so finishing them, giving lost ones back and
-- finding the dead workers' jobs read those rows and no others.
CREATE INDEX IF NOT EXISTS idx_apalis_jobs_running ON apalis.jobs (lock_by) WHERE status = 'Running';
