-- End-user API keys and the settings the metered gateway honours (issue 9).

-- The gateway finds a key by the SHA-256 of the whole key, so the hash is unique and indexed.
-- The prefix (the first 16 characters) is only shown in lists: seven random base62 characters
-- may collide one day, and that must not make a key creation fail, so it is no longer unique.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_prefix_key;
CREATE UNIQUE INDEX api_keys_hash_idx ON api_keys (key_hash);
ALTER TABLE api_keys
    ADD CONSTRAINT api_keys_hash_len CHECK (octet_length(key_hash) = 32),
    -- Written by the gateway, at most once a minute per key.
    ADD COLUMN last_used_at timestamptz,
    -- NULL: never. The portal's key roll sets it on the old key.
    ADD COLUMN expires_at timestamptz;
COMMENT ON TABLE api_keys IS
    'A key is usable when revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()).';

-- Visibility has three scopes: the super admin's per-client setting ('admin', user_id NULL),
-- the partner's My APIs setting ('partner', user_id NULL) and the per-user one ('partner',
-- user_id set). An API is callable only when no row of any scope says hidden.
ALTER TABLE api_visibility
    ADD COLUMN scope text NOT NULL DEFAULT 'partner' CHECK (scope IN ('partner', 'admin')),
    ADD CONSTRAINT api_visibility_admin_client_wide CHECK (scope = 'partner' OR user_id IS NULL);
DROP INDEX api_visibility_scope_idx;
CREATE UNIQUE INDEX api_visibility_scope_idx ON api_visibility (partner_id, scope, (COALESCE(user_id, 0)), api_id);

ALTER TABLE category_visibility
    ADD COLUMN scope text NOT NULL DEFAULT 'partner' CHECK (scope IN ('partner', 'admin')),
    ADD CONSTRAINT category_visibility_admin_client_wide CHECK (scope = 'partner' OR user_id IS NULL),
    ADD CONSTRAINT category_visibility_category_len CHECK (length(category) BETWEEN 1 AND 100);
DROP INDEX category_visibility_scope_idx;
CREATE UNIQUE INDEX category_visibility_scope_idx
    ON category_visibility (partner_id, scope, (COALESCE(user_id, 0)), (lower(category)));

-- 'Test api' on the client-details screen: when on, every call of the partner's users answers
-- the catalogue's sample response and never reaches the upstream. A new partner is live: the
-- old default (on) would have answered samples to every paying call of every new partner.
ALTER TABLE partners ALTER COLUMN sandbox_enabled SET DEFAULT false;
UPDATE partners SET sandbox_enabled = false;
COMMENT ON COLUMN partners.sandbox_enabled IS 'Test api: the whole partner answers sample responses, no upstream call.';
