-- Worker processes as the operations view shows them. apalis registers one row per queue and
-- process in apalis.workers, without the process's start time or pool size; each `worker`
-- process records itself here on start, heartbeats, and marks its clean stop, so an operator
-- who scales workers up or down sees it take effect.
CREATE TABLE worker_processes (
    id            text PRIMARY KEY,          -- "{host}-{pid}", the instance name in apalis.workers ids
    host          text NOT NULL,
    pid           integer NOT NULL,
    concurrency   integer NOT NULL,          -- WORKER_CONCURRENCY: jobs at once per kind
    started_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    stopped_at    timestamptz                -- set on a clean shutdown; a crash leaves it NULL
);

-- The page lists the processes seen recently.
CREATE INDEX worker_processes_last_seen_idx ON worker_processes (last_seen_at);
