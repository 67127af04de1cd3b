-- Exact totals for the lists of ten million rows (issue 11): `count(*)` over a big partner's
-- rows costs about a second, so the writers keep counts in the same transaction and the lists
-- sum them (domain::paging). Statement-level triggers with transition tables keep them: they
-- fire once per statement, also for the gateway's set-based UNNEST inserts and updates, for
-- cascaded deletes and for SQL written by hand, so no writer needs to know about them.

-- Rows per list source, scope and UTC day, rolled up per user and label:
--   activity tables: scope = partner_id, user_id = the end user or 0 (all users), label = the
--   service (API) or product, or '' (all labels); product_logs have no label (a description
--   holds the PID, so it would be a counter per row).
--   wallet_entries: scope = wallet_id, user_id = 0, label = the entry type or ''.
-- A date-filtered total is a sum over days; a total over a set of users or labels a sum over
-- them. The day is the UTC date, the same as the lists' date filters (paging::day_start).
CREATE TABLE list_counts (
    source  text   NOT NULL,
    scope   bigint NOT NULL,
    user_id bigint NOT NULL,
    label   text   NOT NULL,
    day     date   NOT NULL,
    n       bigint NOT NULL,
    PRIMARY KEY (source, scope, user_id, label, day)
);

-- All-time rows per scope (the dashboards' counts: one row per partner or wallet).
CREATE TABLE list_totals (
    source text   NOT NULL,
    scope  bigint NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (source, scope)
);

-- Applies a statement's changed rows to the counts. TG_ARGV: the SQL of the scope, the user
-- ('': no user level) and the label ('': no label level), each over the table's columns.
-- Deltas are summed first, so an UPDATE that moves nothing (the gateway settling a call's
-- status) writes nothing. Rows are upserted in key order, so two statements lock shared
-- counters in the same order and cannot deadlock on them. A decrement always finds its row
-- (counters are never deleted), so one upsert serves both signs; rows that fall to 0 stay.
CREATE FUNCTION list_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
    has_user  boolean := TG_ARGV[1] <> '';
    has_label boolean := TG_ARGV[2] <> '';
    cols text := format('%s AS scope, %s AS user_id, %s AS label, (created_at AT TIME ZONE ''UTC'')::date AS day',
                        TG_ARGV[0], CASE WHEN has_user THEN TG_ARGV[1] ELSE '0::bigint' END,
                        CASE WHEN has_label THEN TG_ARGV[2] ELSE '''''::text' END);
    changed text;
    sets text := '(scope, day)';
    -- A level the table lacks is a constant: it is in no grouping set.
    user_out text := CASE WHEN has_user THEN 'COALESCE(user_id, 0)' ELSE '0::bigint' END;
    label_out text := CASE WHEN has_label THEN 'COALESCE(label, '''')' ELSE '''''::text' END;
BEGIN
    changed := CASE TG_OP
        WHEN 'INSERT' THEN format('SELECT %s, 1 AS d FROM new_rows', cols)
        WHEN 'DELETE' THEN format('SELECT %s, -1 AS d FROM old_rows', cols)
        ELSE format('SELECT %s, -1 AS d FROM old_rows UNION ALL SELECT %s, 1 AS d FROM new_rows', cols, cols)
    END;
    IF has_user THEN sets := sets || ', (scope, user_id, day)'; END IF;
    IF has_label THEN sets := sets || ', (scope, label, day)'; END IF;
    IF has_user AND has_label THEN sets := sets || ', (scope, user_id, label, day)'; END IF;

    EXECUTE format(
        'WITH changed AS (SELECT scope, user_id, label, day, sum(d) AS n FROM (%s) c GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0),
              delta AS (SELECT scope, %s AS user_id, %s AS label, day, sum(n) AS n
                          FROM changed GROUP BY GROUPING SETS (%s) HAVING sum(n) <> 0),
              counted AS (INSERT INTO list_counts AS l (source, scope, user_id, label, day, n)
                          SELECT $1, scope, user_id, label, day, n FROM delta ORDER BY scope, user_id, label, day
                          ON CONFLICT (source, scope, user_id, label, day) DO UPDATE SET n = l.n + EXCLUDED.n
                          RETURNING 1)
         INSERT INTO list_totals AS t (source, scope, n)
         SELECT $1, scope, sum(n) FROM changed GROUP BY scope HAVING sum(n) <> 0 ORDER BY scope
         ON CONFLICT (source, scope) DO UPDATE SET n = t.n + EXCLUDED.n', changed, user_out, label_out, sets)
    USING TG_TABLE_NAME;
    RETURN NULL;
END
$fn$;

CREATE FUNCTION list_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM list_counts WHERE source = TG_TABLE_NAME;
    DELETE FROM list_totals WHERE source = TG_TABLE_NAME;
    RETURN NULL;
END
$fn$;

-- The triggers of one table (one per event, each with the transition tables it has) and the
-- counts of the rows already there.
CREATE PROCEDURE list_counts_attach(tbl text, scope_sql text, user_sql text, label_sql text) LANGUAGE plpgsql AS $fn$
DECLARE
    -- A trigger's arguments are strings: '' says the table has no such level.
    args text := format('%L, %L, %L', scope_sql, COALESCE(user_sql, ''), COALESCE(label_sql, ''));
BEGIN
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply(%s)', tbl || '_count_ins', tbl, args);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply(%s)', tbl || '_count_upd', tbl, args);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_apply(%s)', tbl || '_count_del', tbl, args);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
                    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate()', tbl || '_count_trunc', tbl);
    EXECUTE format(
        'INSERT INTO list_counts (source, scope, user_id, label, day, n)
         SELECT %L, scope, %s, %s, day, count(*)
           FROM (SELECT %s AS scope, %s AS user_id, %s AS label, (created_at AT TIME ZONE ''UTC'')::date AS day FROM %I) r
          GROUP BY GROUPING SETS ((scope, day)%s%s%s)',
        tbl,
        CASE WHEN user_sql IS NOT NULL THEN 'COALESCE(user_id, 0)' ELSE '0::bigint' END,
        CASE WHEN label_sql IS NOT NULL THEN 'COALESCE(label, '''')' ELSE '''''::text' END,
        scope_sql, COALESCE(user_sql, '0::bigint'), COALESCE(label_sql, '''''::text'), tbl,
        CASE WHEN user_sql IS NOT NULL THEN ', (scope, user_id, day)' ELSE '' END,
        CASE WHEN label_sql IS NOT NULL THEN ', (scope, label, day)' ELSE '' END,
        CASE WHEN user_sql IS NOT NULL AND label_sql IS NOT NULL THEN ', (scope, user_id, label, day)' ELSE '' END);
    EXECUTE format('INSERT INTO list_totals (source, scope, n) SELECT %L, %s, count(*) FROM %I GROUP BY 1, 2', tbl, scope_sql, tbl);
END
$fn$;

CALL list_counts_attach('api_transactions', 'partner_id', 'user_id', 'service');
CALL list_counts_attach('product_transactions', 'partner_id', 'user_id', 'product');
CALL list_counts_attach('api_logs', 'partner_id', 'user_id', 'service');
CALL list_counts_attach('product_logs', 'partner_id', 'user_id', NULL);
CALL list_counts_attach('wallet_entries', 'wallet_id', NULL, 'type');
DROP PROCEDURE list_counts_attach(text, text, text, text);
