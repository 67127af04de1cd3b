-- The gateway's in-process cache (domain::gateway::cache) hears of every change to what it
-- keeps: each write to these tables notifies `gateway_cache` with the partner's id (or '*' for
-- what every partner reads) when its transaction commits. Notifications repeated within one
-- transaction are folded into one by Postgres.
CREATE FUNCTION gateway_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_ARGV[0] = '*' THEN
        PERFORM pg_notify('gateway_cache', '*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM pg_notify('gateway_cache', COALESCE(to_jsonb(OLD) ->> TG_ARGV[0], '*'));
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM pg_notify('gateway_cache', COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], '*'));
    END IF;
    RETURN NULL;
END $$;

-- A key's last use is written by the gateway itself, in batches: not a change of the key.
CREATE TRIGGER api_keys_gateway_cache AFTER INSERT OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER api_keys_gateway_cache_update AFTER UPDATE ON api_keys
    FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
    EXECUTE FUNCTION gateway_cache_changed('partner_id');

CREATE TRIGGER partners_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON partners
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('id');
CREATE TRIGGER end_users_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON end_users
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
-- Balances move on every call: only a wallet's appearance or removal matters here.
CREATE TRIGGER wallets_gateway_cache AFTER INSERT OR DELETE ON wallets
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');

CREATE TRIGGER blocked_ips_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON blocked_ips
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER ip_whitelist_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON ip_whitelist
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER partner_prices_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON partner_prices
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER partner_selling_prices_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON partner_selling_prices
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER user_prices_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON user_prices
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER api_visibility_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON api_visibility
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');
CREATE TRIGGER category_visibility_gateway_cache AFTER INSERT OR UPDATE OR DELETE ON category_visibility
    FOR EACH ROW EXECUTE FUNCTION gateway_cache_changed('partner_id');

-- Read by every partner's calls.
CREATE TRIGGER api_catalogue_gateway_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_catalogue
    FOR EACH STATEMENT EXECUTE FUNCTION gateway_cache_changed('*');
CREATE TRIGGER sandbox_apis_gateway_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sandbox_apis
    FOR EACH STATEMENT EXECUTE FUNCTION gateway_cache_changed('*');
CREATE TRIGGER plan_prices_gateway_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plan_prices
    FOR EACH STATEMENT EXECUTE FUNCTION gateway_cache_changed('*');
