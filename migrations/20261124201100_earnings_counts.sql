-- The partner dashboard's earnings (issue 11): per partner, UTC day and API, the successful calls
-- and what they earned. revenue = what the partner's end users paid (user_amount_paise), cost =
-- what the partner paid (amount_paise); margin is their difference, computed when read. Kept
-- like list_counts: a statement-level trigger with transition tables adds each statement's
-- changes in its own transaction, so a period's figures are a sum over (days x APIs) counter
-- rows, never over the transactions themselves, and stay exact at ten million rows.
--
-- Only status 'success' counts. The gateway inserts a call 'pending' (nothing counted) and
-- settles it to 'success' (counted) or 'refunded' (never counted: a refunded call earns
-- nothing); a row that leaves 'success' is taken out again. service = '' holds each day's
-- total over all APIs (the chart reads one row per day).
CREATE TABLE earnings_counts (
    partner_id    bigint NOT NULL,
    day           date   NOT NULL,
    service       text   NOT NULL,
    calls         bigint NOT NULL,
    revenue_paise bigint NOT NULL,
    cost_paise    bigint NOT NULL,
    PRIMARY KEY (partner_id, day, service)
);

-- Static SQL so PL/pgSQL keeps its plans on the gateway's hot path. Rows that are not
-- 'success' on either side drop out before grouping, so an insert of pending calls or a
-- refund settles with an empty statement; an update whose rows stay what they were nets to
-- zero and writes nothing. Counters are upserted in key order (no deadlock between writers)
-- and never deleted, so a decrement always finds its row.
CREATE FUNCTION api_transactions_earnings() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO earnings_counts AS e (partner_id, day, service, calls, revenue_paise, cost_paise)
        SELECT partner_id, day, COALESCE(service, ''), sum(calls), sum(revenue), sum(cost)
          FROM (SELECT partner_id, (created_at AT TIME ZONE 'UTC')::date AS day, service,
                       1 AS calls, user_amount_paise AS revenue, amount_paise AS cost
                  FROM new_rows WHERE status = 'success') c
         GROUP BY GROUPING SETS ((partner_id, day, service), (partner_id, day))
         ORDER BY 1, 2, 3
        ON CONFLICT (partner_id, day, service) DO UPDATE
           SET calls = e.calls + EXCLUDED.calls, revenue_paise = e.revenue_paise + EXCLUDED.revenue_paise,
               cost_paise = e.cost_paise + EXCLUDED.cost_paise;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO earnings_counts AS e (partner_id, day, service, calls, revenue_paise, cost_paise)
        SELECT partner_id, day, COALESCE(service, ''), sum(calls), sum(revenue), sum(cost)
          FROM (SELECT partner_id, (created_at AT TIME ZONE 'UTC')::date AS day, service,
                       -1 AS calls, -user_amount_paise AS revenue, -amount_paise AS cost
                  FROM old_rows WHERE status = 'success') c
         GROUP BY GROUPING SETS ((partner_id, day, service), (partner_id, day))
         ORDER BY 1, 2, 3
        ON CONFLICT (partner_id, day, service) DO UPDATE
           SET calls = e.calls + EXCLUDED.calls, revenue_paise = e.revenue_paise + EXCLUDED.revenue_paise,
               cost_paise = e.cost_paise + EXCLUDED.cost_paise;
    ELSE
        INSERT INTO earnings_counts AS e (partner_id, day, service, calls, revenue_paise, cost_paise)
        SELECT partner_id, day, COALESCE(service, ''), sum(calls), sum(revenue), sum(cost)
          FROM (SELECT partner_id, (created_at AT TIME ZONE 'UTC')::date AS day, service,
                       -1 AS calls, -user_amount_paise AS revenue, -amount_paise AS cost
                  FROM old_rows WHERE status = 'success'
                UNION ALL
                SELECT partner_id, (created_at AT TIME ZONE 'UTC')::date AS day, service,
                       1 AS calls, user_amount_paise AS revenue, amount_paise AS cost
                  FROM new_rows WHERE status = 'success') c
         GROUP BY GROUPING SETS ((partner_id, day, service), (partner_id, day))
        HAVING sum(calls) <> 0 OR sum(revenue) <> 0 OR sum(cost) <> 0
         ORDER BY 1, 2, 3
        ON CONFLICT (partner_id, day, service) DO UPDATE
           SET calls = e.calls + EXCLUDED.calls, revenue_paise = e.revenue_paise + EXCLUDED.revenue_paise,
               cost_paise = e.cost_paise + EXCLUDED.cost_paise;
    END IF;
    RETURN NULL;
END
$fn$;

CREATE FUNCTION api_transactions_earnings_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM earnings_counts;
    RETURN NULL;
END
$fn$;

CREATE TRIGGER api_transactions_earnings_ins AFTER INSERT ON api_transactions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION api_transactions_earnings();
CREATE TRIGGER api_transactions_earnings_upd AFTER UPDATE ON api_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION api_transactions_earnings();
CREATE TRIGGER api_transactions_earnings_del AFTER DELETE ON api_transactions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION api_transactions_earnings();
CREATE TRIGGER api_transactions_earnings_trunc AFTER TRUNCATE ON api_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION api_transactions_earnings_truncate();

-- What is there already.
INSERT INTO earnings_counts (partner_id, day, service, calls, revenue_paise, cost_paise)
SELECT partner_id, (created_at AT TIME ZONE 'UTC')::date, COALESCE(service, ''), count(*), sum(user_amount_paise), sum(amount_paise)
  FROM api_transactions WHERE status = 'success'
 GROUP BY GROUPING SETS ((partner_id, (created_at AT TIME ZONE 'UTC')::date, service), (partner_id, (created_at AT TIME ZONE 'UTC')::date));
