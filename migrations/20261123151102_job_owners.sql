-- Which partner caused a job, so `GET /api/v1/jobs/{id}` shows a partner its own jobs only
-- (not another partner's, nor the platform's mail jobs with their errors). Written in the
-- transaction that enqueues the job. No row: a platform job, seen by the super admin alone.
-- No foreign key to apalis.jobs: the queue's schema belongs to apalis.
CREATE TABLE job_owners (
    job_id     text PRIMARY KEY,
    partner_id bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_owners_partner_idx ON job_owners (partner_id);
