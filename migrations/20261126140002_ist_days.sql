-- One business day for the platform: India's (design.md, "Time"; issue 23). The lists' date
-- filters pick IST days (domain::infra::ist), so the counters that page and total them, and
-- the dashboard's earnings per day, count IST days too: their trigger functions are rewritten
-- with the zone (the rest of each function unchanged) and every counter is counted again.
-- Writers wait for the lock, so no statement is counted under both rules.
LOCK TABLE api_transactions, product_transactions, api_logs, product_logs, wallet_entries
    IN SHARE ROW EXCLUSIVE MODE;

DO $$
DECLARE
    f text;
    def text;
    rewritten text;
BEGIN
    FOREACH f IN ARRAY ARRAY['api_transactions_count', 'product_transactions_count', 'api_logs_count',
                             'product_logs_count', 'wallet_entries_count', 'api_transactions_earnings'] LOOP
        def := pg_get_functiondef(f::regproc);
        rewritten := replace(def, '(created_at AT TIME ZONE ''UTC'')::date', '(created_at AT TIME ZONE ''Asia/Kolkata'')::date');
        IF rewritten = def THEN
            RAISE EXCEPTION 'function % has no UTC day to rewrite', f;
        END IF;
        EXECUTE rewritten;
    END LOOP;
END
$$;

-- The counters again, as list_counts_attach counted them, on IST days.
DELETE FROM list_counts;
INSERT INTO list_counts (source, scope, user_id, label, day, n)
SELECT 'api_transactions', scope, COALESCE(user_id, 0), COALESCE(label, ''), day, count(*)
  FROM (SELECT partner_id AS scope, user_id, service AS label, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
          FROM api_transactions) r
 GROUP BY GROUPING SETS ((scope, day), (scope, user_id, day), (scope, label, day), (scope, user_id, label, day));
INSERT INTO list_counts (source, scope, user_id, label, day, n)
SELECT 'product_transactions', scope, COALESCE(user_id, 0), COALESCE(label, ''), day, count(*)
  FROM (SELECT partner_id AS scope, user_id, product AS label, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
          FROM product_transactions) r
 GROUP BY GROUPING SETS ((scope, day), (scope, user_id, day), (scope, label, day), (scope, user_id, label, day));
INSERT INTO list_counts (source, scope, user_id, label, day, n)
SELECT 'api_logs', scope, COALESCE(user_id, 0), COALESCE(label, ''), day, count(*)
  FROM (SELECT partner_id AS scope, user_id, service AS label, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
          FROM api_logs) r
 GROUP BY GROUPING SETS ((scope, day), (scope, user_id, day), (scope, label, day), (scope, user_id, label, day));
INSERT INTO list_counts (source, scope, user_id, label, day, n)
SELECT 'product_logs', scope, COALESCE(user_id, 0), '', day, count(*)
  FROM (SELECT partner_id AS scope, user_id, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
          FROM product_logs) r
 GROUP BY GROUPING SETS ((scope, day), (scope, user_id, day));
INSERT INTO list_counts (source, scope, user_id, label, day, n)
SELECT 'wallet_entries', scope, 0, COALESCE(label, ''), day, count(*)
  FROM (SELECT wallet_id AS scope, type AS label, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
          FROM wallet_entries) r
 GROUP BY GROUPING SETS ((scope, day), (scope, label, day));

DELETE FROM earnings_counts;
INSERT INTO earnings_counts (partner_id, day, service, calls, revenue_paise, cost_paise)
SELECT partner_id, day, COALESCE(service, ''), count(*), sum(user_amount_paise), sum(amount_paise)
  FROM (SELECT partner_id, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day, service, user_amount_paise, amount_paise
          FROM api_transactions WHERE status = 'success') c
 GROUP BY GROUPING SETS ((partner_id, day, service), (partner_id, day));
