-- What end users do: metered API calls (transactions + logs), product purchases, IP activity.

CREATE TABLE api_transactions (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id          bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id             bigint NOT NULL,
    api_id              bigint REFERENCES api_catalogue (id) ON DELETE SET NULL,
    service             text NOT NULL,
    pid                 text NOT NULL,
    mode                text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'sandbox')),
    -- pending until the upstream answered; a crash leaves it pending for settle_pending.
    status              text NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'success', 'failed', 'refunded')),
    status_code         integer,
    amount_type         text NOT NULL DEFAULT 'debit' CHECK (amount_type IN ('credit', 'debit')),
    amount_paise        bigint NOT NULL CHECK (amount_paise >= 0),      -- what the partner pays
    user_amount_paise   bigint NOT NULL CHECK (user_amount_paise >= 0), -- what the end user pays
    remaining_paise     bigint,                                        -- user's balance after
    partner_remaining_paise bigint,
    created_at          timestamptz NOT NULL DEFAULT now(),
    settled_at          timestamptz,
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX api_transactions_partner_idx ON api_transactions (partner_id, created_at DESC, id DESC);
CREATE INDEX api_transactions_user_idx ON api_transactions (user_id, created_at DESC, id DESC);
CREATE INDEX api_transactions_pending_idx ON api_transactions (created_at) WHERE status = 'pending';
CREATE INDEX api_transactions_created_idx ON api_transactions (created_at DESC, id DESC);

CREATE TABLE product_transactions (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id        bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id           bigint NOT NULL,
    product           text NOT NULL,
    pid               text NOT NULL DEFAULT '',
    status_code       integer NOT NULL DEFAULT 200,
    amount_type       text NOT NULL CHECK (amount_type IN ('credit', 'debit')),
    amount_paise      bigint NOT NULL CHECK (amount_paise >= 0),
    user_amount_paise bigint NOT NULL CHECK (user_amount_paise >= 0),
    remaining_paise   bigint,
    created_at        timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX product_transactions_partner_idx ON product_transactions (partner_id, created_at DESC, id DESC);
CREATE INDEX product_transactions_user_idx ON product_transactions (user_id, created_at DESC, id DESC);
CREATE INDEX product_transactions_created_idx ON product_transactions (created_at DESC, id DESC);

CREATE TABLE api_logs (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id     bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id        bigint NOT NULL,
    transaction_id bigint REFERENCES api_transactions (id) ON DELETE SET NULL,
    service        text NOT NULL,
    pid            text NOT NULL,
    vid            text NOT NULL,  -- verification id given to the caller
    vpid           text NOT NULL,  -- the upstream provider's reference
    status_code    integer NOT NULL,
    amount_paise   bigint NOT NULL DEFAULT 0 CHECK (amount_paise >= 0),
    ip             inet,
    latency_ms     integer,
    created_at     timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX api_logs_partner_idx ON api_logs (partner_id, created_at DESC, id DESC);
CREATE INDEX api_logs_user_idx ON api_logs (user_id, created_at DESC, id DESC);
CREATE INDEX api_logs_created_idx ON api_logs (created_at DESC, id DESC);

CREATE TABLE product_logs (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id   bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id      bigint NOT NULL,
    description  text NOT NULL,
    status_code  integer NOT NULL,
    amount_paise bigint NOT NULL DEFAULT 0 CHECK (amount_paise >= 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX product_logs_partner_idx ON product_logs (partner_id, created_at DESC, id DESC);
CREATE INDEX product_logs_user_idx ON product_logs (user_id, created_at DESC, id DESC);

CREATE TABLE ip_whitelist (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id bigint NOT NULL,
    user_id    bigint NOT NULL,
    ip         inet NOT NULL,
    comments   text NOT NULL CHECK (length(comments) BETWEEN 1 AND 500),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, ip),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX ip_whitelist_partner_idx ON ip_whitelist (partner_id, updated_at DESC, id DESC);

-- One row per user, IP and day; aggregate_ip_hits folds the hot counters into it.
CREATE TABLE ip_hits (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id bigint NOT NULL,
    user_id    bigint NOT NULL,
    ip         inet NOT NULL,
    day        date NOT NULL,
    hits       bigint NOT NULL DEFAULT 0 CHECK (hits >= 0),
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_seen  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, ip, day),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX ip_hits_partner_idx ON ip_hits (partner_id, last_seen DESC, id DESC);

-- Counters when REDIS_URL is unset: the gateway increments here, aggregate_ip_hits drains it.
CREATE UNLOGGED TABLE ip_hit_counters (
    partner_id bigint NOT NULL,
    user_id    bigint NOT NULL,
    ip         inet NOT NULL,
    day        date NOT NULL,
    hits       bigint NOT NULL DEFAULT 0,
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_seen  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, ip, day)
);

CREATE TABLE blocked_ips (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id bigint NOT NULL,
    user_id    bigint NOT NULL,
    ip         inet NOT NULL,
    comments   text NOT NULL CHECK (length(comments) BETWEEN 1 AND 500),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, ip),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX blocked_ips_partner_idx ON blocked_ips (partner_id, updated_at DESC);

-- Manual bank-statement verification queue (/trubank).
CREATE TABLE bank_statement_requests (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id      bigint NOT NULL,
    user_id         bigint NOT NULL,
    request_id      text NOT NULL UNIQUE,
    account_name    text NOT NULL,
    account_number  text NOT NULL,
    bank_name       text NOT NULL,
    file_key        text NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'not_verified')),
    comments        text,
    result_file_key text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX bank_statement_requests_partner_idx ON bank_statement_requests (partner_id, created_at DESC);
