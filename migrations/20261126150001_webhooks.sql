-- Webhooks (Standard Webhooks): endpoints of partners (user_id NULL) and of end users, the
-- events that happened (an outbox written in the transaction of the change), one delivery per
-- event and subscribed endpoint, and every attempt of a delivery.

CREATE TABLE webhook_endpoints (
    id                    bigserial PRIMARY KEY,
    partner_id            bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    -- NULL: the partner's own endpoint; else the end user's.
    user_id               bigint REFERENCES end_users (id) ON DELETE CASCADE,
    url                   text NOT NULL,
    events                text[] NOT NULL,
    enabled               boolean NOT NULL DEFAULT true,
    -- The whsec_ secret sealed with ENCRYPTION_KEY: it is needed in clear to sign.
    secret_enc            bytea NOT NULL,
    -- A rolled secret still signs until previous_secret_until, so receivers can switch over.
    previous_secret_enc   bytea,
    previous_secret_until timestamptz,
    -- The first failed attempt since the last success: 5 days of failure disable the endpoint.
    failing_since         timestamptz,
    disabled_reason       text,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
-- Emitting an event looks up the owner's endpoints.
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (partner_id, user_id);

CREATE TABLE webhook_events (
    -- 'evt_' + ULID: the webhook-id header, unique per event and stable across attempts.
    id         text PRIMARY KEY,
    partner_id bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id    bigint REFERENCES end_users (id) ON DELETE CASCADE,
    type       text NOT NULL,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
    id              bigserial PRIMARY KEY,
    event_id        text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id     bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempt_count   integer NOT NULL DEFAULT 0,
    -- attempt_count when the current schedule began (0, or the count at a replay): the next
    -- delay is the schedule's entry number attempt_count - round_start.
    round_start     integer NOT NULL DEFAULT 0,
    -- Raised by each replay: a job queued for an earlier schedule finds it moved and stops.
    generation      integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
-- The delivery log of an endpoint, newest first.
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    id               bigserial PRIMARY KEY,
    delivery_id      bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempted_at     timestamptz NOT NULL DEFAULT now(),
    -- NULL when no answer came (refused address, connection error, timeout).
    status_code      integer,
    latency_ms       integer NOT NULL,
    -- The answer's first 1 KB, or why there was none.
    response_excerpt text NOT NULL DEFAULT ''
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
