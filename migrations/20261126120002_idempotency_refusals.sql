-- Idempotency-Key on the gateway's POSTs (domain::gateway::idempotency): one row per end user
-- and key; status_code NULL while the first request runs. Pruned after 24 hours.
CREATE TABLE idempotency_keys (
    partner_id  bigint NOT NULL,
    user_id     bigint NOT NULL,
    key         text NOT NULL,
    fingerprint bytea NOT NULL,
    status_code integer,
    headers     jsonb,
    body        bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- A refused call of a known key is logged too (status 402, 403, 404, 422 or 429, nothing
-- charged, no transaction): why it was refused.
ALTER TABLE api_logs ADD COLUMN reason text;
