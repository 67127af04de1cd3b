-- The queue engine's per-job writes, cut further (issue 26). apalis's unique index on
-- (job_type, idempotency_key) took an entry at every insert and at every update of every job
-- (queued, claimed, finished: neither update can be HOT), although only the jobs queued with a
-- key (the periodic ones, one per period) need the check: NULL keys never conflict (NULLs are
-- distinct). A partial unique index keeps the rule for keyed jobs and skips all the others.
-- Nothing reads jobs by key; a duplicate is found by the unique violation (infra::queue::push).
CREATE UNIQUE INDEX IF NOT EXISTS idx_apalis_jobs_idempotency_key
    ON apalis.jobs (job_type, idempotency_key) WHERE idempotency_key IS NOT NULL;
DROP INDEX IF EXISTS apalis.idx_jobs_idempotency_key;
