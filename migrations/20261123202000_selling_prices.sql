-- What a partner sells at (design.md, "Money"): a user's own price wins; else the partner's
-- selling price for the API; else the partner's cost plus its default margin. The margin is kept
-- in basis points (1/100 of a percent) so a margin like 12.5% is exact and the rounding of the
-- resulting price is the one integer formula in domain::pricing.
ALTER TABLE partners ADD COLUMN default_margin_bps integer NOT NULL DEFAULT 0
    CHECK (default_margin_bps BETWEEN 0 AND 100000);

CREATE TABLE partner_selling_prices (
    partner_id  bigint NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    api_id      bigint NOT NULL REFERENCES api_catalogue (id) ON DELETE CASCADE,
    price_paise bigint NOT NULL CHECK (price_paise >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partner_id, api_id)
);
