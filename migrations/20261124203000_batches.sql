-- Batch verification (issue 13): a CSV of inputs for one API, run row by row through the
-- gateway's checks and charging by the `run_batch` job. Each row's state moves in the same
-- transaction as its money, so a job killed at any point resumes without charging a row twice.

CREATE TABLE batches (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id    bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES end_users (id) ON DELETE CASCADE,
    -- The key it was submitted with (POST /verify/{service}/batch); NULL from the portal.
    key_id        bigint REFERENCES api_keys (id) ON DELETE SET NULL,
    service       text NOT NULL,
    sandbox       boolean NOT NULL,
    -- The submitter's address: the IP checks and the API logs of every row use it.
    ip            inet NOT NULL,
    file_name     text NOT NULL DEFAULT '',
    columns       text[] NOT NULL,
    status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    total_rows    integer NOT NULL CHECK (total_rows > 0),
    done_rows     integer NOT NULL DEFAULT 0,
    charged_rows  integer NOT NULL DEFAULT 0,
    failed_rows   integer NOT NULL DEFAULT 0,
    charged_paise bigint NOT NULL DEFAULT 0,
    job_id        text,
    error         text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz
);
CREATE INDEX batches_user_idx ON batches (partner_id, user_id, id DESC);

CREATE TABLE batch_rows (
    batch_id       bigint NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    row_no         integer NOT NULL,
    input          jsonb NOT NULL,
    -- pending → charged (money taken, answer not yet settled) → success | failed;
    -- pending → failed when a check refuses the row (nothing charged).
    status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'charged', 'success', 'failed')),
    transaction_id bigint,
    status_code    integer,
    charged_paise  bigint NOT NULL DEFAULT 0,
    response       jsonb,
    error          text,
    PRIMARY KEY (batch_id, row_no)
);

-- A charge made at most once per key (`wallets::charge`): batch rows use `batch:{id}:{row}`.
ALTER TABLE api_transactions ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX api_transactions_idempotency_key_idx ON api_transactions (idempotency_key) WHERE idempotency_key IS NOT NULL;
