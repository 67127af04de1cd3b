-- Wallets and their append-only ledger. A partner has two wallets (api, product) funded by the
-- super admin; each end user has two funded by its partner. The balance is a cached sum of the
-- entries, kept in step in the same transaction, and can never go below zero.

CREATE TABLE wallets (
    id                          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id                  bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id                     bigint,           -- NULL: the partner's own wallet
    kind                        text NOT NULL CHECK (kind IN ('api', 'product')),
    balance_paise               bigint NOT NULL DEFAULT 0 CHECK (balance_paise >= 0),
    -- Low-balance alert: one mail per downward crossing; re-armed when a credit lifts it again.
    low_balance_threshold_paise bigint CHECK (low_balance_threshold_paise >= 0),
    low_balance_alerted         boolean NOT NULL DEFAULT false,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX wallets_partner_kind_idx ON wallets (partner_id, kind) WHERE user_id IS NULL;
CREATE UNIQUE INDEX wallets_user_kind_idx ON wallets (user_id, kind) WHERE user_id IS NOT NULL;

CREATE TABLE wallet_entries (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    wallet_id           bigint NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    type                text NOT NULL CHECK (type IN ('credit', 'debit')),
    amount_paise        bigint NOT NULL CHECK (amount_paise > 0),
    balance_after_paise bigint NOT NULL CHECK (balance_after_paise >= 0),
    -- manual (an admin moved money), api_call, refund (a failed call reversed), product
    reason              text NOT NULL CHECK (reason IN ('manual', 'api_call', 'refund', 'product')),
    reference           text,
    -- Same key on the same wallet returns the first entry; request_hash tells a replay from misuse.
    idempotency_key     text CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    request_hash        text,
    actor_kind          text NOT NULL CHECK (actor_kind IN ('superadmin', 'partner', 'user', 'system')),
    actor_id            bigint,
    created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wallet_entries_idempotency_idx ON wallet_entries (wallet_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
-- Ledger lists page newest first per wallet.
CREATE INDEX wallet_entries_wallet_idx ON wallet_entries (wallet_id, created_at DESC, id DESC);
CREATE INDEX wallet_entries_created_idx ON wallet_entries (created_at DESC, id DESC);
