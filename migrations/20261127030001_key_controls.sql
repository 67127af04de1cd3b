-- Issue 24: what an end user may set on each of its API keys, which the gateway enforces from
-- its in-process cache. The update trigger of 20261126120001_gateway_cache already notifies on
-- any change to an api_keys row but its last use, so a change to these columns reaches every
-- api process within a second without a trigger of its own.
ALTER TABLE api_keys
    -- Shown in lists; the clear key is never shown again, so the name is how a user tells keys
    -- apart. Empty for keys made before names existed.
    ADD COLUMN name text NOT NULL DEFAULT '' CHECK (length(name) <= 100),
    -- Addresses or networks the key may be used from; empty: anywhere. inet (not cidr) so that
    -- one address and a network share a type and `<<=` matches both.
    ADD COLUMN allowed_ips inet[] NOT NULL DEFAULT '{}' CHECK (cardinality(allowed_ips) <= 50),
    -- Catalogue services the key may call; empty: every API the user may call. Service keys,
    -- not ids, since the gateway matches the path's service.
    ADD COLUMN allowed_services text[] NOT NULL DEFAULT '{}' CHECK (cardinality(allowed_services) <= 200);

-- Which key made a metered call, for the usage per key in the portal. No foreign key: it would
-- cost a lookup and a row lock on the key per call on the hot path, and a key's rows only go with
-- its user, whose transactions go with it. NULL: the portal's Try-it console, or a call made
-- before this column.
ALTER TABLE api_transactions ADD COLUMN key_id bigint;
-- The usage per key reads the last 30 days of one key's calls.
CREATE INDEX api_transactions_key_idx ON api_transactions (key_id, created_at) WHERE key_id IS NOT NULL;

-- What a call answered (`GET /verify/transactions/{id}`), sealed with ENCRYPTION_KEY since it is
-- the verified person's data, kept RESULT_RETENTION_HOURS and then deleted by `prune_results`.
-- A table of its own rather than a column of api_logs: deleting old answers here leaves the big
-- log table untouched.
CREATE TABLE api_results (
    transaction_id bigint PRIMARY KEY REFERENCES api_transactions (id) ON DELETE CASCADE,
    -- The owner, so a read is scoped without a join.
    user_id        bigint NOT NULL,
    -- nonce || AES-256-GCM ciphertext of the answer's body; NULL when it was too large to keep.
    sealed         bytea,
    created_at     timestamptz NOT NULL DEFAULT now()
);
-- The prune deletes by age.
CREATE INDEX api_results_created_idx ON api_results (created_at);
