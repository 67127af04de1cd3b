-- TruBank: end users buy a manual bank-statement verification through the product API and
-- the partner works through the queue (/trubank).

-- What the platform sells that is not a catalogue API. A product is priced by one rule
-- (domain::products): the partner pays default_price_paise, its user pays that plus the
-- partner's default margin. The row is platform configuration, not demo data: every database
-- has it, so a fresh platform can sell the product before any seed runs.
CREATE TABLE products (
    product             text PRIMARY KEY CHECK (product ~ '^[a-z][a-z0-9_]*$'),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    default_price_paise bigint NOT NULL CHECK (default_price_paise >= 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
INSERT INTO products (product, name, default_price_paise) VALUES ('trubank', 'Bank Statement Verification', 4900);

-- What the request cost, kept beside it (the ledger entries reference request_id), and the
-- time of the partner's last decision.
ALTER TABLE bank_statement_requests
    ADD COLUMN amount_paise      bigint NOT NULL DEFAULT 0 CHECK (amount_paise >= 0),
    ADD COLUMN user_amount_paise bigint NOT NULL DEFAULT 0 CHECK (user_amount_paise >= 0),
    ADD COLUMN decided_at        timestamptz,
    ADD CONSTRAINT bank_statement_requests_comments_len CHECK (comments IS NULL OR length(comments) <= 1000);

-- One upload backs one request: submitting the same file again (a client's retry) finds the
-- first request instead of charging twice.
CREATE UNIQUE INDEX bank_statement_requests_file_key ON bank_statement_requests (file_key);

-- The queue is read newest first with a unique tie-break, per partner and per user.
DROP INDEX bank_statement_requests_partner_idx;
CREATE INDEX bank_statement_requests_partner_idx ON bank_statement_requests (partner_id, created_at DESC, id DESC);
CREATE INDEX bank_statement_requests_user_idx ON bank_statement_requests (user_id, created_at DESC, id DESC);
