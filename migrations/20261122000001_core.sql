-- Core schema of the platform. Money is integer paise (bigint) everywhere; balances can never go
-- negative (CHECK), and every balance change is an append-only ledger row (wallet_entries).
-- Ids are bigint identities: partners and end users see them as their "User Id".

CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE super_admins (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email         citext NOT NULL UNIQUE,
    password_hash text   NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Plan slabs: a fixed, small set, so a CHECK rather than a table.
CREATE DOMAIN plan_type AS text CHECK (VALUE IN ('default', 'standard', 'premium', 'pro'));

CREATE TABLE partners (
    -- Partner ids start at 1001 so they read as account numbers, not row counters.
    id                 bigint GENERATED ALWAYS AS IDENTITY (START WITH 1001) PRIMARY KEY,
    first_name         text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
    last_name          text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
    email              citext NOT NULL UNIQUE,
    phone_number       text NOT NULL CHECK (phone_number ~ '^[0-9+ -]{6,20}$'),
    user_name          citext NOT NULL UNIQUE CHECK (user_name ~ '^[A-Za-z0-9_.-]{3,40}$'),
    password_hash      text NOT NULL,
    email_verified_at  timestamptz,
    is_active          boolean NOT NULL DEFAULT true,
    plan               plan_type NOT NULL DEFAULT 'default',
    billing_cycle      text CHECK (billing_cycle IN ('monthly', 'yearly')),
    plan_selected_at   timestamptz,
    -- The branded site: {subdomain}.{PLATFORM_DOMAIN}; claimed by the provision_subdomain job.
    subdomain          citext UNIQUE CHECK (subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
    subdomain_status   text NOT NULL DEFAULT 'none'
                       CHECK (subdomain_status IN ('none', 'pending', 'active', 'failed')),
    title              text,
    description        text,
    logo_key           text,
    favicon_key        text,
    theme_primary      text NOT NULL DEFAULT '#6091E2' CHECK (theme_primary ~ '^#[0-9A-Fa-f]{6}$'),
    theme_secondary    text NOT NULL DEFAULT '#9462E7' CHECK (theme_secondary ~ '^#[0-9A-Fa-f]{6}$'),
    theme_tertiary     text NOT NULL DEFAULT '#00FFFB' CHECK (theme_tertiary ~ '^#[0-9A-Fa-f]{6}$'),
    branding_done      boolean NOT NULL DEFAULT false,
    smtp_done          boolean NOT NULL DEFAULT false,
    documentation_link text,
    -- Settings the super admin toggles on the client-details screen.
    api_base_url       text,
    old_base_url       text,
    base_url_status    boolean NOT NULL DEFAULT false,
    sandbox_enabled    boolean NOT NULL DEFAULT true,
    batch_processing   boolean NOT NULL DEFAULT false,
    restrict_all_apis  boolean NOT NULL DEFAULT false,
    -- Settings the partner toggles on My Account.
    server_security    boolean NOT NULL DEFAULT false,
    landing_page       boolean NOT NULL DEFAULT true,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
-- The clients list filters on these and pages by newest first.
CREATE INDEX partners_created_idx ON partners (created_at DESC, id DESC);
CREATE INDEX partners_first_name_idx ON partners (lower(first_name));
CREATE INDEX partners_last_name_idx ON partners (lower(last_name));
CREATE INDEX partners_phone_idx ON partners (phone_number);

-- A partner's own outgoing mail server; the password is AES-256-GCM ciphertext, never plain.
CREATE TABLE partner_smtp (
    partner_id     bigint PRIMARY KEY REFERENCES partners (id) ON DELETE CASCADE,
    host           text NOT NULL,
    port           integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
    username       text NOT NULL,
    password_enc   bytea NOT NULL,
    from_address   text NOT NULL,
    company_name   text NOT NULL,
    secure         boolean NOT NULL DEFAULT true,
    active         boolean NOT NULL DEFAULT true,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE partner_signup_settings (
    partner_id        bigint PRIMARY KEY REFERENCES partners (id) ON DELETE CASCADE,
    forgot_password   boolean NOT NULL DEFAULT true,
    terms             boolean NOT NULL DEFAULT true,
    create_account    boolean NOT NULL DEFAULT true,
    login_with_google boolean NOT NULL DEFAULT false,
    terms_text        text NOT NULL DEFAULT '',
    copyright         text NOT NULL DEFAULT '',
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- Card payment provider (its secret encrypted at rest) and the QR alternative.
CREATE TABLE partner_payment_settings (
    partner_id                   bigint PRIMARY KEY REFERENCES partners (id) ON DELETE CASCADE,
    key_id                       text,
    key_secret_enc               bytea,
    name                         text,
    description                  text,
    logo_key                     text,
    minimum_api_amount_paise     bigint CHECK (minimum_api_amount_paise >= 0),
    minimum_product_amount_paise bigint CHECK (minimum_product_amount_paise >= 0),
    theme_color                  text,
    currency                     text NOT NULL DEFAULT 'INR',
    qr_key                       text,
    qr_description               text,
    updated_at                   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE partner_contact_details (
    partner_id   bigint PRIMARY KEY REFERENCES partners (id) ON DELETE CASCADE,
    phone_number text NOT NULL,
    email        text NOT NULL,
    address      text NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- End users belong to exactly one partner; every partner-scoped query filters on partner_id.
CREATE TABLE end_users (
    id             bigint GENERATED ALWAYS AS IDENTITY (START WITH 500001) PRIMARY KEY,
    partner_id     bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    first_name     text NOT NULL CHECK (first_name ~ '^[A-Za-z ]{1,100}$'),
    last_name      text NOT NULL CHECK (last_name ~ '^[A-Za-z ]{1,100}$'),
    email          citext NOT NULL,
    phone_number   text NOT NULL CHECK (phone_number ~ '^[0-9]{6,15}$'),
    password_hash  text NOT NULL,
    is_active      boolean NOT NULL DEFAULT true,
    full_access    boolean NOT NULL DEFAULT false,
    address_name   text,
    address1       text,
    address2       text,
    address3       text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (partner_id, email),
    -- Lets child tables carry (partner_id, user_id) and have the pair checked by a foreign key,
    -- so a row can never name a user of another partner.
    UNIQUE (partner_id, id)
);
CREATE INDEX end_users_partner_created_idx ON end_users (partner_id, created_at DESC, id DESC);

-- Gateway keys: only a SHA-256 of the secret is kept; the prefix finds the row.
CREATE TABLE api_keys (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id  bigint NOT NULL,
    user_id     bigint NOT NULL,
    prefix      text NOT NULL UNIQUE,
    key_hash    bytea NOT NULL,
    mode        text NOT NULL CHECK (mode IN ('live', 'sandbox')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz,
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);
