-- Every attempt of every job (issue 25): the Jobs page shows a job's attempts with their time,
-- duration and error, and draws the throughput per minute from them. apalis's row keeps only
-- the last result, so the database records each attempt as the attempt is counted on the job's
-- row: whichever engine, process or recovery path counts it, in the same statement, so the
-- history commits (or not) with the job's state. Pruned with the jobs (prune_jobs).
CREATE TABLE job_attempts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- No foreign key: apalis owns apalis.jobs, and pruning removes both in their own time.
    job_id      text NOT NULL,
    kind        text NOT NULL,
    -- 1 for the first run; a retried or revived job goes on counting.
    attempt     integer NOT NULL,
    -- When the job was locked to run (claimed), and when the attempt was counted.
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    duration_ms double precision NOT NULL,
    -- done; retrying (failed, runs again after its backoff); failed (failed, no attempt
    -- left); lost (its worker stopped beating, back to the queue).
    outcome     text NOT NULL CHECK (outcome IN ('done', 'retrying', 'failed', 'lost')),
    error       text,
    -- Who held the job (apalis.jobs.lock_by).
    worker      text NOT NULL DEFAULT ''
);
CREATE INDEX job_attempts_job_idx ON job_attempts (job_id, id);
-- The throughput chart reads the last hour.
CREATE INDEX job_attempts_finished_idx ON job_attempts (finished_at);

-- Statement-level, with transition tables: a batch of completions is one insert.
CREATE FUNCTION job_attempts_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO job_attempts (job_id, kind, attempt, started_at, finished_at, duration_ms, outcome, error, worker)
    SELECT n.id, n.job_type, n.attempts,
           COALESCE(o.lock_at, clock_timestamp()), clock_timestamp(),
           GREATEST(EXTRACT(EPOCH FROM clock_timestamp() - COALESCE(o.lock_at, clock_timestamp())) * 1000, 0),
           CASE WHEN n.status = 'Done' THEN 'done'
                WHEN n.status IN ('Pending', 'Queued', 'Running') THEN 'lost'
                WHEN n.attempts >= n.max_attempts THEN 'failed'
                ELSE 'retrying' END,
           CASE WHEN n.status <> 'Done' THEN COALESCE(n.last_result ->> 'Err', (n.last_result -> 'Err')::text) END,
           COALESCE(o.lock_by, '')
      FROM job_attempts_new n JOIN job_attempts_old o ON o.id = n.id
     WHERE n.attempts > o.attempts;
    RETURN NULL;
END
$$;

CREATE TRIGGER job_attempts_recorded
    AFTER UPDATE ON apalis.jobs
    REFERENCING OLD TABLE AS job_attempts_old NEW TABLE AS job_attempts_new
    FOR EACH STATEMENT EXECUTE FUNCTION job_attempts_record();
