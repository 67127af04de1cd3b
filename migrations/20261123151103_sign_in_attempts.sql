-- Sign-in attempts per account (partner or super admin, by e-mail, known or not), counted in a
-- 15-minute window, so neither one address nor many can try many passwords on one account.
-- In Postgres, so the count holds across api processes. A success deletes the row.
CREATE TABLE sign_in_attempts (
    account      text PRIMARY KEY,
    attempts     integer NOT NULL,
    window_start timestamptz NOT NULL DEFAULT now()
);
-- Old windows are swept by age.
CREATE INDEX sign_in_attempts_window_idx ON sign_in_attempts (window_start);
