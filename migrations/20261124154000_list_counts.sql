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

-- Each counted table gets a trigger function of its own, written below by list_counts_attach
-- with the table's columns in it, so its SQL is static and PL/pgSQL keeps its plans (dynamic SQL
-- would be parsed and planned on every statement of the gateway's hot path). It applies a
-- statement's changed rows to the counts: deltas are summed first, and an UPDATE whose rows
-- keep their scope, user, label and time (the gateway settling a call's status) stops after
-- one join of the old and new rows. Counters are upserted in key order, so two statements lock
-- shared counters in the same order and cannot deadlock on them. A decrement always finds its
-- row (counters are never deleted), so one upsert serves both signs; rows that fall to 0 stay.
CREATE FUNCTION list_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM list_counts WHERE source = TG_TABLE_NAME;
    DELETE FROM list_totals WHERE source = TG_TABLE_NAME;
    RETURN NULL;
END
$fn$;

-- tbl's trigger function and triggers (one per event, each with the transition tables it has)
-- and the counts of the rows already there. scope_sql, user_sql and label_sql are columns of
-- tbl; NULL: the table has no such level.
CREATE PROCEDURE list_counts_attach(tbl text, scope_sql text, user_sql text, label_sql text) LANGUAGE plpgsql AS $fn$
DECLARE
    -- A level the table lacks is a constant, in no grouping set.
    user_in text := COALESCE(user_sql, '0::bigint');
    label_in text := COALESCE(label_sql, '''''::text');
    user_out text := CASE WHEN user_sql IS NULL THEN '0::bigint' ELSE 'COALESCE(user_id, 0)' END;
    label_out text := CASE WHEN label_sql IS NULL THEN '''''::text' ELSE 'COALESCE(label, '''')' END;
    sets text := '(scope, day)'
        || CASE WHEN user_sql IS NOT NULL THEN ', (scope, user_id, day)' ELSE '' END
        || CASE WHEN label_sql IS NOT NULL THEN ', (scope, label, day)' ELSE '' END
        || CASE WHEN user_sql IS NOT NULL AND label_sql IS NOT NULL THEN ', (scope, user_id, label, day)' ELSE '' END;
    cols text := format('%s AS scope, %s AS user_id, %s AS label, (created_at AT TIME ZONE ''UTC'')::date AS day', scope_sql, user_in, label_in);
    -- The columns a row is counted by.
    keyed text[] := array_remove(ARRAY[scope_sql, user_sql, label_sql, 'created_at'], NULL);
    apply text;
BEGIN
    -- %1$s: the changed rows, each with its delta d.
    apply := format(
        'WITH changed AS (SELECT scope, user_id, label, day, sum(d) AS n FROM (%%1$s) c GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0),
              delta AS (SELECT scope, %1$s AS user_id, %2$s AS label, day, sum(n) AS n
                          FROM changed GROUP BY GROUPING SETS (%3$s) HAVING sum(n) <> 0),
              counted AS (INSERT INTO list_counts AS l (source, scope, user_id, label, day, n)
                          SELECT %4$L, scope, user_id, label, day, n FROM delta ORDER BY scope, user_id, label, day
                          ON CONFLICT (source, scope, user_id, label, day) DO UPDATE SET n = l.n + EXCLUDED.n
                          RETURNING 1)
         INSERT INTO list_totals AS t (source, scope, n)
         SELECT %4$L, scope, sum(n) FROM changed GROUP BY scope HAVING sum(n) <> 0 ORDER BY scope
         ON CONFLICT (source, scope) DO UPDATE SET n = t.n + EXCLUDED.n;',
        user_out, label_out, sets, tbl);
    EXECUTE format(
        'CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L',
        tbl || '_count',
        format(
'BEGIN
    IF TG_OP = ''INSERT'' THEN
        %s
    ELSIF TG_OP = ''DELETE'' THEN
        %s
    ELSIF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE (%s) IS DISTINCT FROM (%s)) THEN
        %s
    END IF;
    RETURN NULL;
END',
            format(apply, format('SELECT %s, 1 AS d FROM new_rows', cols)),
            format(apply, format('SELECT %s, -1 AS d FROM old_rows', cols)),
            -- (o.a, o.b, …) against (n.a, n.b, …).
            'o.' || array_to_string(keyed, ', o.'), 'n.' || array_to_string(keyed, ', n.'),
            format(apply, format('SELECT %s, -1 AS d FROM old_rows UNION ALL SELECT %s, 1 AS d FROM new_rows', cols, cols))));
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_count_ins', tbl, tbl || '_count');
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_count_upd', tbl, tbl || '_count');
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_count_del', tbl, tbl || '_count');
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
                    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate()', tbl || '_count_trunc', tbl);
    EXECUTE format(
        'INSERT INTO list_counts (source, scope, user_id, label, day, n)
         SELECT %L, scope, %s, %s, day, count(*) FROM (SELECT %s FROM %I) r GROUP BY GROUPING SETS (%s)',
        tbl, user_out, label_out, cols, tbl, sets);
    EXECUTE format('INSERT INTO list_totals (source, scope, n) SELECT %L, %s, count(*) FROM %I GROUP BY 1, 2', tbl, scope_sql, tbl);
END
$fn$;

CALL list_counts_attach('api_transactions', 'partner_id', 'user_id', 'service');
CALL list_counts_attach('product_transactions', 'partner_id', 'user_id', 'product');
CALL list_counts_attach('api_logs', 'partner_id', 'user_id', 'service');
CALL list_counts_attach('product_logs', 'partner_id', 'user_id', NULL);
CALL list_counts_attach('wallet_entries', 'wallet_id', NULL, 'type');
DROP PROCEDURE list_counts_attach(text, text, text, text);
