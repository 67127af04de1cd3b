-- Platform plumbing: exports, one-time tokens, captchas, mail deliveries, the audit log.

CREATE TABLE exports (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- NULL partner_id: requested by the super admin over all partners.
    partner_id    bigint REFERENCES partners (id) ON DELETE CASCADE,
    requested_by  text NOT NULL CHECK (requested_by IN ('superadmin', 'partner')),
    kind          text NOT NULL CHECK (kind IN ('api_transactions', 'product_transactions',
                                                'api_logs', 'product_logs', 'wallet_entries')),
    user_id       bigint,
    from_date     date NOT NULL,
    to_date       date NOT NULL,
    status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    total_records bigint,
    file_keys     text[] NOT NULL DEFAULT '{}',
    job_id        text,
    error         text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    completed_at  timestamptz,
    CHECK (from_date <= to_date)
);
CREATE INDEX exports_partner_idx ON exports (partner_id, created_at DESC);

-- E-mail verification and password-reset links: only a hash of the token is stored.
CREATE TABLE one_time_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash   bytea NOT NULL UNIQUE,
    purpose      text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
    subject_kind text NOT NULL CHECK (subject_kind IN ('partner', 'superadmin', 'user')),
    subject_id   bigint NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX one_time_tokens_subject_idx ON one_time_tokens (subject_kind, subject_id, purpose);

-- Built-in captcha challenges when REDIS_URL is unset: one use, short expiry.
CREATE UNLOGGED TABLE captchas (
    id          uuid PRIMARY KEY,
    answer_hash bytea NOT NULL,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- send_mail records each delivered message so a retried job never sends it twice.
CREATE TABLE mail_deliveries (
    message_id   text PRIMARY KEY,
    recipient    text NOT NULL,
    subject      text NOT NULL,
    transport    text NOT NULL,
    delivered_at timestamptz NOT NULL DEFAULT now()
);

-- Who changed what: every money movement and price change, with before and after.
CREATE TABLE audit_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor_kind  text NOT NULL CHECK (actor_kind IN ('superadmin', 'partner', 'user', 'system')),
    actor_id    bigint,
    action      text NOT NULL,
    entity      text NOT NULL,
    entity_id   text,
    partner_id  bigint,
    before      jsonb,
    after       jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_entity_idx ON audit_log (entity, entity_id, created_at DESC);
CREATE INDEX audit_log_partner_idx ON audit_log (partner_id, created_at DESC);
