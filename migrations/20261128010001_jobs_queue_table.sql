-- The queue table is claimed from the head of its fetch index, in due order. Every claimed and
-- finished job leaves dead entries there until a vacuum removes them, and a claim walks over
-- all of them before it finds a live one: at thousands of jobs a second, Postgres's default
-- (vacuum once a fifth of the table is dead) lets the walk grow to tens of thousands of entries
-- and the claims slow down with it. Vacuum it after every few thousand dead rows instead, and
-- without the cost-based pauses, which only stretch a vacuum of this small, hot table.
ALTER TABLE apalis.jobs SET (
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_insert_scale_factor = 0,
    autovacuum_vacuum_insert_threshold = 10000,
    autovacuum_analyze_scale_factor = 0,
    autovacuum_analyze_threshold = 10000,
    autovacuum_vacuum_cost_delay = 0
);

-- Two of apalis's indexes repeat others (its own later migration dropped their siblings but
-- not these): `unique_job_id` is the primary key again, `lidx` is `idx_apalis_jobs_lock_by`
-- again. A claim and a finish each change indexed columns, so every index takes an entry per
-- job twice: these two only cost writes. Nothing names them.
DROP INDEX IF EXISTS apalis.unique_job_id;
DROP INDEX IF EXISTS apalis.lidx;
