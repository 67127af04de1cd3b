-- The queue engine's per-job writes, cut (issue 26). Every job is written twice: claimed
-- (status 'Running', lock_by) and finished. Neither update can be HOT (status decides the
-- partial indexes), so each one pays every index of the table and every row trigger.
--
-- apalis's foreign key from lock_by to apalis.workers ran a referential check per claimed job
-- (a query and a KEY SHARE lock on the worker's row, shared by every claim of that worker). The
-- engine does not need it: a worker registers its row before its first claim and upserts it
-- every heartbeat, and the reaper counts a job whose worker row is missing as a dead worker's
-- once its lock is older than a dead worker's silence (jobs::runner::reap).
ALTER TABLE apalis.jobs DROP CONSTRAINT IF EXISTS fk_worker_lock_by;

-- apalis's index of lock_by holds every job ever run (a done job keeps its lock_by) and took
-- an entry on both updates of every job. Everything the engine asks by lock_by is about running
-- jobs, which idx_apalis_jobs_running (lock_by WHERE status = 'Running') answers.
DROP INDEX IF EXISTS apalis.idx_apalis_jobs_lock_by;
