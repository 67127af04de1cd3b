-- The charging group counts its own rows, and its plans no longer depend on the tables' size
-- when they were made (issue 21).
--
-- 1. Plans. PL/pgSQL keeps each statement's plan for the life of the connection, and the
--    charging task's connection lives as long as the api process. A plan made while a table was
--    nearly empty (a fresh platform; and with autovacuum off, as on the CI machines, nothing
--    ever analyses the table to make it plan again) read the API logs' transactions back with a
--    sequential scan of `api_transactions`: measured at 9 ms per group after 35,000 calls and
--    growing with every call, which turned half-load latency from 15 ms into 120 ms over a
--    benchmark. Now the logs are written from what the settlement's UPDATE returned and from
--    the group's own arrays, with no read of `api_transactions` at all, and the function runs
--    with sequential scans, hash and merge joins priced out (its own SET clause, so nothing
--    else in the session sees it): each statement here touches a handful of rows by key, which
--    an index lookup per row does best at any table size.
--
-- 2. Counts. The statement-level counting triggers (`list_counts`, `list_totals`,
--    `earnings_counts`) each cost 0.1 to 0.5 ms per statement on the hot path, four or five
--    statements per group. Inside charge_group they stand aside (a WHEN on the setting
--    `kyc.counted_by_caller`, which only this function's SET clause turns on) and the group adds
--    the same counts itself in three upserts, from the rows it already holds in arrays. Every
--    other writer (the console, the batch job's other statements, hand-written SQL, deletes)
--    is still counted by the triggers. The counters are upserted in key order, as the triggers
--    do, after the wallets are locked: every group takes its locks in the same order.
--
-- The rest is charge_group as migration 20261130010001 made it, with the user's and the
-- partner's debits written once over two slots and the low-balance crossings found once.

CREATE OR REPLACE TRIGGER api_transactions_count_ins AFTER INSERT ON api_transactions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION api_transactions_count();
CREATE OR REPLACE TRIGGER api_transactions_count_upd AFTER UPDATE ON api_transactions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION api_transactions_count();
CREATE OR REPLACE TRIGGER api_transactions_earnings_ins AFTER INSERT ON api_transactions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION api_transactions_earnings();
CREATE OR REPLACE TRIGGER api_transactions_earnings_upd AFTER UPDATE ON api_transactions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION api_transactions_earnings();
CREATE OR REPLACE TRIGGER wallet_entries_count_ins AFTER INSERT ON wallet_entries
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION wallet_entries_count();
CREATE OR REPLACE TRIGGER api_logs_count_ins AFTER INSERT ON api_logs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('kyc.counted_by_caller', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION api_logs_count();

CREATE OR REPLACE FUNCTION charge_group(
    in_is_charge bool[], in_partner bigint[], in_user bigint[], in_api bigint[], in_service text[],
    in_pid text[], in_mode text[], in_amount bigint[], in_user_amount bigint[], in_uw bigint[],
    in_pw bigint[], in_ikey text[], in_key bigint[], in_txn bigint[], in_ok bool[], in_code int[],
    in_has_log bool[], in_vid text[], in_vpid text[], in_ip text[], in_latency int[], in_keep bool[],
    in_sealed bytea[], in_abort_on_alert bool)
RETURNS TABLE (o_idx int, o_outcome text, o_txn bigint, o_user_remaining bigint,
               o_partner_remaining bigint, o_wallet bigint, o_partner bigint, o_user bigint,
               o_kind text, o_balance bigint, o_threshold bigint)
LANGUAGE plpgsql
SET kyc.counted_by_caller = 'on'
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
#variable_conflict use_column
DECLARE
    n int := coalesce(cardinality(in_is_charge), 0);
    -- every row this statement inserts has created_at = now(): one IST day for the group
    today date := (now() AT TIME ZONE 'Asia/Kolkata')::date;
    outc text[] := array_fill(NULL::text, ARRAY[n]);
    res_txn bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    res_ur bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    res_pr bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    -- the transactions settled by step 1, with what their logs and counts need
    s_id bigint[] := '{}'; s_partner bigint[]; s_user bigint[]; s_amount bigint[];
    s_uamount bigint[]; s_refund bool[]; s_service text[]; s_pid text[]; s_day date[];
    s_uw bigint[]; s_pw bigint[];
    seen bigint[] := '{}';
    -- the locked wallets
    lock_ids bigint[];
    w_id bigint[] := '{}'; w_bal bigint[]; w_thr bigint[]; w_alerted bool[]; w_partner bigint[];
    w_user bigint[]; w_kind text[]; w_touched bool[];
    low int[] := '{}';
    -- idempotency keys already charged
    ck_key text[] := '{}'; ck_id bigint[] := '{}';
    -- what step 4 writes
    t_i int[] := '{}'; t_id bigint[] := '{}'; t_ur bigint[] := '{}'; t_pr bigint[] := '{}';
    e_wallet bigint[] := '{}'; e_type text[] := '{}'; e_amount bigint[] := '{}';
    e_after bigint[] := '{}'; e_reason text[] := '{}'; e_ref text[] := '{}';
    e_actor text[] := '{}'; e_actor_id bigint[] := '{}';
    r_id bigint[] := '{}'; r_ua bigint[] := '{}'; r_pa bigint[] := '{}';
    l_i int[] := '{}'; l_txn bigint[] := '{}'; l_code int[] := '{}'; l_partner bigint[] := '{}';
    l_user bigint[] := '{}'; l_service text[] := '{}'; l_pid text[] := '{}'; l_amount bigint[] := '{}';
    -- successful calls for the earnings: partner, day, service, user amount, partner amount
    g_partner bigint[] := '{}'; g_day date[] := '{}'; g_service text[] := '{}';
    g_revenue bigint[] := '{}'; g_cost bigint[] := '{}';
    seq regclass := pg_get_serial_sequence('api_transactions', 'id')::regclass;
    any_settle bool := false;
    any_key bool := false;
    i int; k int; p int; up int; pp int; t bigint; ref text;
    amt bigint; wal bigint; slot int; after_u bigint; after_p bigint;
BEGIN
    FOR i IN 1..n LOOP
        IF in_is_charge[i] THEN
            any_key := any_key OR in_ikey[i] IS NOT NULL;
        ELSE
            any_settle := true;
        END IF;
    END LOOP;

    -- Step 1: settlements mark their transactions, only those still pending; the first mention
    -- of a transaction in the group decides it.
    IF any_settle THEN
        WITH x AS (
            SELECT DISTINCT ON (u.t) u.t, u.ok, u.code
              FROM unnest(in_is_charge, in_txn, in_ok, in_code) WITH ORDINALITY AS u(c, t, ok, code, i)
             WHERE NOT u.c ORDER BY u.t, u.i
        ), upd AS (
            UPDATE api_transactions a
               SET status = CASE WHEN x.ok THEN 'success' ELSE 'refunded' END, status_code = x.code, settled_at = now()
              FROM x WHERE a.id = x.t AND a.status = 'pending'
         RETURNING a.id, a.partner_id, a.user_id, a.amount_paise, a.user_amount_paise, NOT x.ok AS refund,
                   a.service, a.pid, (a.created_at AT TIME ZONE 'Asia/Kolkata')::date AS day
        )
        SELECT coalesce(array_agg(id), '{}'), array_agg(partner_id), array_agg(user_id), array_agg(amount_paise),
               array_agg(user_amount_paise), array_agg(refund), array_agg(service), array_agg(pid), array_agg(day)
          INTO s_id, s_partner, s_user, s_amount, s_uamount, s_refund, s_service, s_pid, s_day
          FROM upd;
        s_uw := array_fill(NULL::bigint, ARRAY[cardinality(s_id)]);
        s_pw := array_fill(NULL::bigint, ARRAY[cardinality(s_id)]);
        -- The wallets to refund: each by its own unique index.
        FOR k IN 1..cardinality(s_id) LOOP
            CONTINUE WHEN NOT s_refund[k];
            IF s_uamount[k] > 0 THEN
                s_uw[k] := (SELECT wa.id FROM wallets wa
                             WHERE wa.user_id = s_user[k] AND wa.kind = 'api' AND wa.partner_id = s_partner[k]);
            END IF;
            IF s_amount[k] > 0 THEN
                s_pw[k] := (SELECT wa.id FROM wallets wa
                             WHERE wa.partner_id = s_partner[k] AND wa.kind = 'api' AND wa.user_id IS NULL);
            END IF;
        END LOOP;
    END IF;

    -- Step 2: every wallet to debit or refund, locked in id order.
    SELECT array_agg(DISTINCT z.w ORDER BY z.w) INTO lock_ids FROM (
        SELECT u.uw AS w FROM unnest(in_is_charge, in_uw, in_user_amount) AS u(c, uw, ua) WHERE u.c AND u.ua > 0
        UNION ALL
        SELECT u.pw FROM unnest(in_is_charge, in_pw, in_amount) AS u(c, pw, a) WHERE u.c AND u.a > 0
        UNION ALL
        SELECT unnest(s_uw)
        UNION ALL
        SELECT unnest(s_pw)
    ) z WHERE z.w IS NOT NULL;
    IF lock_ids IS NOT NULL THEN
        SELECT coalesce(array_agg(l.id ORDER BY l.id), '{}'), array_agg(l.balance_paise ORDER BY l.id),
               array_agg(l.low_balance_threshold_paise ORDER BY l.id), array_agg(l.low_balance_alerted ORDER BY l.id),
               array_agg(l.partner_id ORDER BY l.id), array_agg(l.user_id ORDER BY l.id), array_agg(l.kind ORDER BY l.id)
          INTO w_id, w_bal, w_thr, w_alerted, w_partner, w_user, w_kind
          FROM (SELECT id, balance_paise, low_balance_threshold_paise, low_balance_alerted, partner_id, user_id, kind
                  FROM wallets WHERE id = ANY(lock_ids) ORDER BY id FOR UPDATE) l;
        w_touched := array_fill(false, ARRAY[cardinality(w_id)]);
    END IF;

    -- Keys already charged: looked up after the locks (a concurrent charge with the same key
    -- debits the same wallets, so it has committed or waits behind us); the unique index is the
    -- last guard, for a free call that locks nothing.
    IF any_key THEN
        SELECT coalesce(array_agg(a.idempotency_key), '{}'), coalesce(array_agg(a.id), '{}') INTO ck_key, ck_id
          FROM api_transactions a WHERE a.idempotency_key = ANY(in_ikey);
    END IF;

    -- Step 3: each item in arrival order against the locked balances.
    FOR i IN 1..n LOOP
        IF in_is_charge[i] THEN
            k := array_position(ck_key, in_ikey[i]);
            IF in_ikey[i] IS NOT NULL AND k IS NOT NULL THEN
                outc[i] := 'duplicate'; res_txn[i] := ck_id[k];
                CONTINUE;
            END IF;
            up := array_position(w_id, in_uw[i]);
            pp := array_position(w_id, in_pw[i]);
            IF NOT ((in_user_amount[i] = 0 OR (up IS NOT NULL AND w_bal[up] >= in_user_amount[i]))
                AND (in_amount[i] = 0 OR (pp IS NOT NULL AND w_bal[pp] >= in_amount[i]))) THEN
                outc[i] := 'insufficient';
                CONTINUE;
            END IF;
            t := nextval(seq);
            ref := txn_reference(t);
            -- slot 1: the user's wallet at the user price; slot 2: the partner's at its price
            FOR slot IN 1..2 LOOP
                IF slot = 1 THEN amt := in_user_amount[i]; p := up; ELSE amt := in_amount[i]; p := pp; END IF;
                CONTINUE WHEN amt = 0;
                w_bal[p] := w_bal[p] - amt;
                w_touched[p] := true;
                e_wallet := e_wallet || w_id[p]; e_type := e_type || 'debit'::text;
                e_amount := e_amount || amt; e_after := e_after || w_bal[p];
                e_reason := e_reason || 'api_call'::text; e_ref := e_ref || ref;
                e_actor := e_actor || 'user'::text; e_actor_id := e_actor_id || in_user[i];
            END LOOP;
            IF in_ikey[i] IS NOT NULL THEN
                ck_key := ck_key || in_ikey[i]; ck_id := ck_id || t;
            END IF;
            t_i := t_i || i; t_id := t_id || t;
            t_ur := t_ur || CASE WHEN up IS NULL THEN 0 ELSE w_bal[up] END;
            t_pr := t_pr || CASE WHEN pp IS NULL THEN 0 ELSE w_bal[pp] END;
            outc[i] := 'charged'; res_txn[i] := t;
            res_ur[i] := t_ur[cardinality(t_ur)]; res_pr[i] := t_pr[cardinality(t_pr)];
            -- charged and settled in one write (a sandbox call's sample answer)
            IF in_has_log[i] THEN
                l_i := l_i || i; l_txn := l_txn || t; l_code := l_code || 200;
                l_partner := l_partner || in_partner[i]; l_user := l_user || in_user[i];
                l_service := l_service || in_service[i]; l_pid := l_pid || in_pid[i];
                l_amount := l_amount || in_user_amount[i];
                g_partner := g_partner || in_partner[i]; g_day := g_day || today;
                g_service := g_service || in_service[i]; g_revenue := g_revenue || in_user_amount[i];
                g_cost := g_cost || in_amount[i];
            END IF;
        ELSE
            k := array_position(s_id, in_txn[i]);
            IF in_txn[i] = ANY(seen) OR k IS NULL THEN
                outc[i] := 'already_settled';
                seen := seen || in_txn[i];
                CONTINUE;
            END IF;
            seen := seen || in_txn[i];
            IF s_refund[k] THEN
                after_u := NULL; after_p := NULL;
                FOR slot IN 1..2 LOOP
                    IF slot = 1 THEN amt := s_uamount[k]; wal := s_uw[k]; ELSE amt := s_amount[k]; wal := s_pw[k]; END IF;
                    CONTINUE WHEN amt = 0;
                    IF wal IS NULL THEN
                        RAISE EXCEPTION 'transaction % has no wallet to refund', s_id[k];
                    END IF;
                    p := array_position(w_id, wal);
                    w_bal[p] := w_bal[p] + amt;
                    w_touched[p] := true;
                    e_wallet := e_wallet || wal; e_type := e_type || 'credit'::text;
                    e_amount := e_amount || amt; e_after := e_after || w_bal[p];
                    e_reason := e_reason || 'refund'::text; e_ref := e_ref || txn_reference(s_id[k]);
                    e_actor := e_actor || 'system'::text; e_actor_id := e_actor_id || NULL::bigint;
                    IF slot = 1 THEN after_u := w_bal[p]; ELSE after_p := w_bal[p]; END IF;
                END LOOP;
                IF after_u IS NOT NULL OR after_p IS NOT NULL THEN
                    r_id := r_id || s_id[k]; r_ua := r_ua || after_u; r_pa := r_pa || after_p;
                END IF;
                outc[i] := 'refunded';
            ELSE
                outc[i] := 'settled';
                g_partner := g_partner || s_partner[k]; g_day := g_day || s_day[k];
                g_service := g_service || s_service[k]; g_revenue := g_revenue || s_uamount[k];
                g_cost := g_cost || s_amount[k];
            END IF;
            IF in_has_log[i] THEN
                l_i := l_i || i; l_txn := l_txn || in_txn[i]; l_code := l_code || in_code[i];
                l_partner := l_partner || s_partner[k]; l_user := l_user || s_user[k];
                l_service := l_service || s_service[k]; l_pid := l_pid || s_pid[k];
                l_amount := l_amount || CASE WHEN s_refund[k] THEN 0 ELSE s_uamount[k] END;
            END IF;
        END IF;
    END LOOP;

    -- The low-balance crossings (as in `wallets::apply`: the flag always equals "below the
    -- threshold", so one alert goes out per downward crossing and a credit re-arms it).
    FOR k IN 1..coalesce(cardinality(w_id), 0) LOOP
        IF w_touched[k] AND w_thr[k] IS NOT NULL AND w_bal[k] < w_thr[k] AND NOT w_alerted[k] THEN
            low := low || k;
        END IF;
    END LOOP;
    IF cardinality(low) > 0 AND in_abort_on_alert THEN
        RAISE EXCEPTION 'a wallet crossed its low-balance threshold' USING ERRCODE = 'KY001';
    END IF;

    -- Step 4: the writes, each statement only when it has rows.
    IF cardinality(t_id) > 0 THEN
        INSERT INTO api_transactions (id, partner_id, user_id, api_id, service, pid, mode, amount_paise, user_amount_paise,
                                      remaining_paise, partner_remaining_paise, idempotency_key, status, status_code, settled_at, key_id)
        OVERRIDING SYSTEM VALUE
        SELECT x.id, in_partner[x.i], in_user[x.i], in_api[x.i], in_service[x.i], in_pid[x.i], in_mode[x.i],
               in_amount[x.i], in_user_amount[x.i], x.ur, x.pr, in_ikey[x.i],
               CASE WHEN in_has_log[x.i] THEN 'success' ELSE 'pending' END, CASE WHEN in_has_log[x.i] THEN 200 END,
               CASE WHEN in_has_log[x.i] THEN now() END, in_key[x.i]
          FROM unnest(t_id, t_i, t_ur, t_pr) AS x(id, i, ur, pr);
    END IF;
    IF cardinality(e_wallet) > 0 THEN
        INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind, actor_id)
        SELECT * FROM unnest(e_wallet, e_type, e_amount, e_after, e_reason, e_ref, e_actor, e_actor_id);
    END IF;
    IF cardinality(r_id) > 0 THEN
        UPDATE api_transactions a
           SET remaining_paise = COALESCE(x.ua, a.remaining_paise),
               partner_remaining_paise = COALESCE(x.pa, a.partner_remaining_paise)
          FROM unnest(r_id, r_ua, r_pa) AS x(id, ua, pa)
         WHERE a.id = x.id;
    END IF;
    IF true = ANY(w_touched) THEN
        UPDATE wallets wa
           SET balance_paise = x.b, low_balance_alerted = (x.thr IS NOT NULL AND x.b < x.thr), updated_at = now()
          FROM unnest(w_id, w_bal, w_thr, w_touched) AS x(id, b, thr, touched)
         WHERE wa.id = x.id AND x.touched;
    END IF;
    IF cardinality(l_i) > 0 THEN
        INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, ip, latency_ms)
        SELECT u.partner, u.usr, u.txn, u.service, u.pid, in_vid[u.i], in_vpid[u.i], u.code, u.amount,
               in_ip[u.i]::inet, in_latency[u.i]
          FROM unnest(l_i, l_txn, l_code, l_partner, l_user, l_service, l_pid, l_amount)
               AS u(i, txn, code, partner, usr, service, pid, amount);
        IF EXISTS (SELECT 1 FROM unnest(l_i) AS u(i) WHERE in_keep[u.i]) THEN
            INSERT INTO api_results (transaction_id, user_id, sealed)
            SELECT u.txn, u.usr, in_sealed[u.i]
              FROM unnest(l_i, l_txn, l_user) AS u(i, txn, usr)
             WHERE in_keep[u.i]
            ON CONFLICT (transaction_id) DO NOTHING;
        END IF;
    END IF;

    -- The counts the triggers stood aside for (migration 20261124154000: a row counts for its
    -- scope, for its user and for its label, each per day; wallet entries have no user level).
    IF cardinality(t_id) + cardinality(e_wallet) + cardinality(l_i) > 0 THEN
        WITH r AS (
            SELECT 'api_transactions'::text AS source, in_partner[x.i] AS scope, in_user[x.i] AS usr,
                   in_service[x.i] AS label
              FROM unnest(t_i) AS x(i)
            UNION ALL
            SELECT 'wallet_entries', x.w, NULL, x.typ FROM unnest(e_wallet, e_type) AS x(w, typ)
            UNION ALL
            SELECT 'api_logs', x.p, x.u, x.s FROM unnest(l_partner, l_user, l_service) AS x(p, u, s)
        ), delta AS (
            SELECT r.source, r.scope, lv.usr, lv.label, count(*) AS rows_n
              FROM r CROSS JOIN LATERAL (
                       SELECT DISTINCT v.usr, v.label
                         FROM (VALUES (0::bigint, ''::text), (r.usr, ''), (0, r.label), (r.usr, r.label)) AS v(usr, label)
                        WHERE v.usr IS NOT NULL) AS lv
             GROUP BY 1, 2, 3, 4
        ), counted AS (
            INSERT INTO list_counts AS c (source, scope, user_id, label, day, n)
            SELECT d.source, d.scope, d.usr, d.label, today, d.rows_n FROM delta d ORDER BY 1, 2, 3, 4
            ON CONFLICT (source, scope, user_id, label, day) DO UPDATE SET n = c.n + EXCLUDED.n
            RETURNING 1
        )
        INSERT INTO list_totals AS c (source, scope, n)
        SELECT d.source, d.scope, d.rows_n FROM delta d WHERE d.usr = 0 AND d.label = '' ORDER BY 1, 2
        ON CONFLICT (source, scope) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    IF cardinality(g_partner) > 0 THEN
        INSERT INTO earnings_counts AS e (partner_id, day, service, calls, revenue_paise, cost_paise)
        SELECT g.p, g.d, sv.service, count(*), sum(g.rev), sum(g.cost)
          FROM unnest(g_partner, g_day, g_service, g_revenue, g_cost) AS g(p, d, s, rev, cost)
               CROSS JOIN LATERAL (SELECT DISTINCT v.service FROM (VALUES (g.s), (''::text)) AS v(service)) AS sv
         GROUP BY 1, 2, 3
         ORDER BY 1, 2, 3
        ON CONFLICT (partner_id, day, service) DO UPDATE
           SET calls = e.calls + EXCLUDED.calls, revenue_paise = e.revenue_paise + EXCLUDED.revenue_paise,
               cost_paise = e.cost_paise + EXCLUDED.cost_paise;
    END IF;

    RETURN QUERY
        SELECT u.i::int, u.o, u.t, u.ur, u.pr, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::bigint, NULL::bigint
          FROM unnest(outc, res_txn, res_ur, res_pr) WITH ORDINALITY AS u(o, t, ur, pr, i)
         ORDER BY u.i;
    RETURN QUERY
        SELECT NULL::int, 'low'::text, NULL::bigint, NULL::bigint, NULL::bigint,
               w_id[lw.j], w_partner[lw.j], w_user[lw.j], w_kind[lw.j], w_bal[lw.j], w_thr[lw.j]
          FROM unnest(low) AS lw(j);
END
$fn$;
