-- charge_group runs two statements fewer on every group, and reads no catalogue for its sequence
-- (issue 21).
--
-- A group's fixed cost is what a call pays at half load, where a group holds three or four
-- calls; `perf` of a charging backend under `pgbench` (one live charge per group) showed it in
-- statement start-up (ExecutorStart: a sixth of the backend's time) and in
-- `pg_get_serial_sequence` (a catalogue lookup on every call, 1.4%). Step 2 made the wallets to
-- lock into a sorted, distinct array with a statement of its own (an Append of four `unnest`s
-- under an aggregate), then locked them with a second one that gathered seven ordered
-- `array_agg`s. Now the loop that already walks the group collects the charges' wallet ids and
-- step 1's loop the refunds' (repeats and all: `= ANY` takes each row once), and one locking
-- statement, still `ORDER BY id FOR UPDATE`, is read row by row into the arrays. The sequence is
-- named once, as a constant the plan keeps.
-- Everything else is the function as migrations 20261201010001 and 20261202010001 left it: the
-- same SET clauses, the same lock order, the same writes.
--
-- Measured with `pgbench -M prepared`, one client, alternating the two definitions three times
-- on one database: a one-call charging group 0.69 to 0.70 ms against 0.73 to 0.74; a one-call
-- charge and its settlement 1.47 to 1.51 ms against 1.54 to 1.60; four calls each way 1.88 to
-- 1.93 ms against 1.99 to 2.04.
CREATE OR REPLACE FUNCTION charge_group(in_is_charge boolean[], in_partner bigint[], in_user bigint[], in_api bigint[], in_service text[], in_pid text[], in_mode text[], in_amount bigint[], in_user_amount bigint[], in_uw bigint[], in_pw bigint[], in_ikey text[], in_key bigint[], in_txn bigint[], in_ok boolean[], in_code integer[], in_has_log boolean[], in_vid text[], in_vpid text[], in_ip text[], in_latency integer[], in_keep boolean[], in_sealed bytea[], in_abort_on_alert boolean)
 RETURNS TABLE(o_idx integer, o_outcome text, o_txn bigint, o_user_remaining bigint, o_partner_remaining bigint, o_wallet bigint, o_partner bigint, o_user bigint, o_kind text, o_balance bigint, o_threshold bigint)
 LANGUAGE plpgsql
 SET "kyc.counted_by_caller" TO 'on'
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
    w_id bigint[] := '{}'; w_bal bigint[] := '{}'; w_thr bigint[] := '{}'; w_alerted bool[] := '{}'; w_partner bigint[] := '{}';
    w_user bigint[] := '{}'; w_kind text[] := '{}'; w_touched bool[] := '{}';
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
    wr record;
    any_settle bool := false;
    any_key bool := false;
    i int; k int; p int; up int; pp int; t bigint; ref text;
    amt bigint; wal bigint; slot int; after_u bigint; after_p bigint;
BEGIN
    -- One walk of the group: whether it holds keys or settlements, and the wallets its charges
    -- debit (step 2 locks them; the ids may repeat: `= ANY` takes each row once).
    FOR i IN 1..n LOOP
        IF in_is_charge[i] THEN
            any_key := any_key OR in_ikey[i] IS NOT NULL;
            IF in_user_amount[i] > 0 AND in_uw[i] IS NOT NULL THEN lock_ids := lock_ids || in_uw[i]; END IF;
            IF in_amount[i] > 0 AND in_pw[i] IS NOT NULL THEN lock_ids := lock_ids || in_pw[i]; END IF;
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
                IF s_uw[k] IS NOT NULL THEN lock_ids := lock_ids || s_uw[k]; END IF;
            END IF;
            IF s_amount[k] > 0 THEN
                s_pw[k] := (SELECT wa.id FROM wallets wa
                             WHERE wa.partner_id = s_partner[k] AND wa.kind = 'api' AND wa.user_id IS NULL);
                IF s_pw[k] IS NOT NULL THEN lock_ids := lock_ids || s_pw[k]; END IF;
            END IF;
        END LOOP;
    END IF;

    -- Step 2: every wallet to debit or refund (collected by the walk above and by step 1),
    -- locked in id order.
    IF lock_ids IS NOT NULL THEN
        FOR wr IN SELECT id, balance_paise, low_balance_threshold_paise, low_balance_alerted, partner_id, user_id, kind
                    FROM wallets WHERE id = ANY(lock_ids) ORDER BY id FOR UPDATE LOOP
            w_id := w_id || wr.id; w_bal := w_bal || wr.balance_paise; w_thr := w_thr || wr.low_balance_threshold_paise;
            w_alerted := w_alerted || wr.low_balance_alerted; w_partner := w_partner || wr.partner_id;
            w_user := w_user || wr.user_id; w_kind := w_kind || wr.kind; w_touched := w_touched || false;
        END LOOP;
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
            t := nextval('api_transactions_id_seq'::regclass);
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
$function$;
