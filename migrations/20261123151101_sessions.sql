-- Sessions that can be ended. A token names its session (`sid`); the api accepts it only while
-- the row is live, so logout, a password change or reset, deactivation and deletion end a
-- token at once instead of at its expiry. One table for every kind of principal, so the end
-- users' portal signs in the same way.
CREATE TABLE sessions (
    id             uuid PRIMARY KEY,
    principal_kind text NOT NULL CHECK (principal_kind IN ('partner', 'superadmin', 'user')),
    principal_id   bigint NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    -- Set once; a revoked session never comes back (reactivating a partner needs a new sign-in).
    revoked_at     timestamptz
);
-- "End every session of this principal" (password change, deactivation) reads the live ones.
CREATE INDEX sessions_principal_idx ON sessions (principal_kind, principal_id) WHERE revoked_at IS NULL;
-- Expired rows are deleted by age.
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Deactivation and deletion end the principal's sessions in the database itself, so no code
-- path that sets is_active or deletes a row (today's or a later one) can forget to.
CREATE FUNCTION end_sessions_of_principal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE sessions SET revoked_at = now()
     WHERE principal_kind = TG_ARGV[0] AND principal_id = OLD.id AND revoked_at IS NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER partners_end_sessions_on_deactivate AFTER UPDATE OF is_active ON partners
    FOR EACH ROW WHEN (OLD.is_active AND NOT NEW.is_active) EXECUTE FUNCTION end_sessions_of_principal('partner');
CREATE TRIGGER partners_end_sessions_on_delete AFTER DELETE ON partners
    FOR EACH ROW EXECUTE FUNCTION end_sessions_of_principal('partner');
CREATE TRIGGER end_users_end_sessions_on_deactivate AFTER UPDATE OF is_active ON end_users
    FOR EACH ROW WHEN (OLD.is_active AND NOT NEW.is_active) EXECUTE FUNCTION end_sessions_of_principal('user');
CREATE TRIGGER end_users_end_sessions_on_delete AFTER DELETE ON end_users
    FOR EACH ROW EXECUTE FUNCTION end_sessions_of_principal('user');
CREATE TRIGGER super_admins_end_sessions_on_delete AFTER DELETE ON super_admins
    FOR EACH ROW EXECUTE FUNCTION end_sessions_of_principal('superadmin');
