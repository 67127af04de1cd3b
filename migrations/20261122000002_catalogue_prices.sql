-- The API catalogue the provider sells, and the price lists layered on top of it.
-- Price of a call to the partner: partner_prices (customised plan) > plan_prices (the partner's
-- slab) > api_catalogue.default_price_paise. Price to the end user: user_prices > the partner's.

CREATE TABLE api_catalogue (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    service             text NOT NULL UNIQUE CHECK (service ~ '^[a-z0-9_]{2,60}$'),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    category            text NOT NULL CHECK (length(category) BETWEEN 1 AND 100),
    description         text NOT NULL,
    pid                 text NOT NULL UNIQUE,
    method              text NOT NULL DEFAULT 'post' CHECK (method IN ('get', 'post')),
    endpoint            text NOT NULL,
    documentation_link  text NOT NULL,
    curl_code           text NOT NULL,
    -- The sample answer, also returned in sandbox mode: always a JSON object.
    response_code       jsonb NOT NULL CHECK (jsonb_typeof(response_code) = 'object'),
    param_name          text NOT NULL DEFAULT '',
    header_param_name   text NOT NULL DEFAULT '',
    required_fields     text[] NOT NULL DEFAULT '{}',
    is_hidden           boolean NOT NULL DEFAULT false,
    is_verified         boolean NOT NULL DEFAULT true,
    is_new              boolean NOT NULL DEFAULT false,
    status              boolean NOT NULL DEFAULT true,
    default_price_paise bigint NOT NULL DEFAULT 0 CHECK (default_price_paise >= 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_catalogue_category_idx ON api_catalogue (lower(category), name);

-- The sandbox (test) list: catalogue APIs callable with a sandbox key.
CREATE TABLE sandbox_apis (
    api_id     bigint PRIMARY KEY REFERENCES api_catalogue (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- What a partner on a slab pays per call.
CREATE TABLE plan_prices (
    plan        plan_type NOT NULL,
    api_id      bigint NOT NULL REFERENCES api_catalogue (id) ON DELETE CASCADE,
    price_paise bigint NOT NULL CHECK (price_paise >= 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plan, api_id)
);

-- A partner's customised plan, set by the super admin (client details, API Pricing).
CREATE TABLE partner_prices (
    partner_id  bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    api_id      bigint NOT NULL REFERENCES api_catalogue (id) ON DELETE CASCADE,
    price_paise bigint NOT NULL CHECK (price_paise >= 0),
    status      boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partner_id, api_id)
);

-- What one end user pays per call, set by the user's partner.
CREATE TABLE user_prices (
    partner_id  bigint NOT NULL,
    user_id     bigint NOT NULL,
    api_id      bigint NOT NULL REFERENCES api_catalogue (id) ON DELETE CASCADE,
    price_paise bigint NOT NULL CHECK (price_paise >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, api_id),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);

-- Visibility: shown unless a row says false. user_id NULL is the partner-wide setting.
CREATE TABLE api_visibility (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id    bigint,
    api_id     bigint NOT NULL REFERENCES api_catalogue (id) ON DELETE CASCADE,
    visible    boolean NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX api_visibility_scope_idx ON api_visibility (partner_id, COALESCE(user_id, 0), api_id);

CREATE TABLE category_visibility (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partner_id bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    user_id    bigint,
    category   text NOT NULL,
    visible    boolean NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (partner_id, user_id) REFERENCES end_users (partner_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX category_visibility_scope_idx
    ON category_visibility (partner_id, COALESCE(user_id, 0), lower(category));
