-- The queue engine of issue 26 (jobs::runner), over apalis's table.
--
-- An operator pauses a kind: the fetcher takes no new job of a kind listed here (its running
-- jobs finish). Read by the fetch statement itself, so a pause holds from the next fetch on in
-- every worker process, with no cache to go stale.
CREATE TABLE job_kind_pauses (
    kind      text PRIMARY KEY,
    paused_at timestamptz NOT NULL DEFAULT now(),
    paused_by text NOT NULL
);

-- What each worker process runs, written with every heartbeat: the kinds it takes and when its
-- fetcher last reached the queue. A process that beats but whose fetcher has been failing for
-- two beats is not healthy (the Jobs page and /metrics say so).
ALTER TABLE worker_processes
    ADD COLUMN queues text[] NOT NULL DEFAULT '{}',
    ADD COLUMN fetched_at timestamptz,
    ADD COLUMN fetch_batch integer NOT NULL DEFAULT 0;

COMMENT ON COLUMN worker_processes.concurrency IS 'WORKER_CONCURRENCY: jobs run at once by the process, all kinds together';
