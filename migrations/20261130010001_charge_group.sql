-- One charging group in one statement (issue 21). The gateway's charging task used to apply a
-- group as BEGIN, then up to seven statements (settle, find refund wallets, lock wallets, look up
-- idempotency keys, take ids, insert transactions, entries, balances, logs), then COMMIT: nine
-- round trips, each of which, on a loaded machine, waits for the api task and the backend to be
-- scheduled again. The group's rows and rules are the same here; only the trips are gone: the
-- api sends the group once, autocommitted, and reads the outcomes back.
--
-- Items are given as parallel arrays, one element per item in arrival order (in_is_charge tells
-- a charge from a settlement). The steps are those of `domain::wallets::charge`:
--   1. settlements mark their transactions, only those still pending (first mention wins);
--   2. every wallet to debit or refund is locked in id order;
--   3. items are decided one by one in arrival order against the locked balances;
--   4. transactions, entries, refunded balances, wallets and API logs (with the answers to
--      keep) are written set-based, each statement only when it has rows, so no statement
--      trigger fires for nothing.
-- A wallet that crosses its low-balance threshold downwards needs an alert queued in the same
-- transaction (mail job and webhook, built in Rust). With in_abort_on_alert the function then
-- raises SQLSTATE KY001 before writing anything, so the autocommitted statement leaves no
-- trace, and the caller applies the group again inside a transaction of its own, with the
-- alerts. A crossing happens once per wallet until a credit re-arms it: the hot path stays one
-- round trip.
CREATE FUNCTION txn_reference(id bigint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT 'TXN' || CASE WHEN length(id::text) >= 8 THEN id::text ELSE lpad(id::text, 8, '0') END $$;

CREATE FUNCTION charge_group(
    in_is_charge bool[], in_partner bigint[], in_user bigint[], in_api bigint[], in_service text[],
    in_pid text[], in_mode text[], in_amount bigint[], in_user_amount bigint[], in_uw bigint[],
    in_pw bigint[], in_ikey text[], in_key bigint[], in_txn bigint[], in_ok bool[], in_code int[],
    in_has_log bool[], in_vid text[], in_vpid text[], in_ip text[], in_latency int[], in_keep bool[],
    in_sealed bytea[], in_abort_on_alert bool)
RETURNS TABLE (o_idx int, o_outcome text, o_txn bigint, o_user_remaining bigint,
               o_partner_remaining bigint, o_wallet bigint, o_partner bigint, o_user bigint,
               o_kind text, o_balance bigint, o_threshold bigint)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    n int := coalesce(cardinality(in_is_charge), 0);
    outc text[] := array_fill(NULL::text, ARRAY[n]);
    res_txn bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    res_ur bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    res_pr bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    -- the transactions settled by step 1, with their refund wallets
    s_id bigint[] := '{}'; s_partner bigint[]; s_user bigint[]; s_amount bigint[];
    s_uamount bigint[]; s_refund bool[]; s_uw bigint[]; s_pw bigint[];
    seen bigint[] := '{}';
    -- the locked wallets
    lock_ids bigint[];
    w_id bigint[] := '{}'; w_bal bigint[]; w_thr bigint[]; w_alerted bool[]; w_partner bigint[];
    w_user bigint[]; w_kind text[]; w_touched bool[];
    -- idempotency keys already charged
    ck_key text[] := '{}'; ck_id bigint[] := '{}';
    -- what step 4 writes
    t_i int[] := '{}'; t_id bigint[] := '{}'; t_ur bigint[] := '{}'; t_pr bigint[] := '{}';
    e_wallet bigint[] := '{}'; e_type text[] := '{}'; e_amount bigint[] := '{}';
    e_after bigint[] := '{}'; e_reason text[] := '{}'; e_ref text[] := '{}';
    e_actor text[] := '{}'; e_actor_id bigint[] := '{}';
    r_id bigint[] := '{}'; r_ua bigint[] := '{}'; r_pa bigint[] := '{}';
    l_i int[] := '{}'; l_txn bigint[] := '{}'; l_code int[] := '{}';
    seq regclass := pg_get_serial_sequence('api_transactions', 'id')::regclass;
    any_settle bool := false;
    any_key bool := false;
    i int; k int; up int; pp int; t bigint; w bigint; is_partner bool;
    after_u bigint; after_p bigint; amt bigint; wal bigint; slot int;
    low_count int := 0;
BEGIN
    FOR i IN 1..n LOOP
        IF in_is_charge[i] THEN
            any_key := any_key OR in_ikey[i] IS NOT NULL;
        ELSE
            any_settle := true;
        END IF;
    END LOOP;

    -- Step 1.
    IF any_settle THEN
        WITH x AS (
            SELECT DISTINCT ON (u.t) u.t, u.ok, u.code
              FROM unnest(in_is_charge, in_txn, in_ok, in_code) WITH ORDINALITY AS u(c, t, ok, code, i)
             WHERE NOT u.c ORDER BY u.t, u.i
        ), upd AS (
            UPDATE api_transactions a
               SET status = CASE WHEN x.ok THEN 'success' ELSE 'refunded' END, status_code = x.code, settled_at = now()
              FROM x WHERE a.id = x.t AND a.status = 'pending'
         RETURNING a.id, a.partner_id, a.user_id, a.amount_paise, a.user_amount_paise, NOT x.ok AS refund
        )
        SELECT coalesce(array_agg(id), '{}'), array_agg(partner_id), array_agg(user_id), array_agg(amount_paise),
               array_agg(user_amount_paise), array_agg(refund)
          INTO s_id, s_partner, s_user, s_amount, s_uamount, s_refund
          FROM upd;
        s_uw := array_fill(NULL::bigint, ARRAY[cardinality(s_id)]);
        s_pw := array_fill(NULL::bigint, ARRAY[cardinality(s_id)]);
        FOR k, w, is_partner IN
            SELECT x.k, wa.id, wa.user_id IS NULL
              FROM unnest(s_partner, s_user, s_refund, s_amount, s_uamount) WITH ORDINALITY AS x(p, u, r, a, ua, k)
              JOIN wallets wa ON wa.kind = 'api' AND wa.partner_id = x.p AND (wa.user_id = x.u OR wa.user_id IS NULL)
             WHERE x.r AND (x.a > 0 OR x.ua > 0)
        LOOP
            IF is_partner THEN s_pw[k] := w; ELSE s_uw[k] := w; END IF;
        END LOOP;
    END IF;

    -- Step 2.
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

    -- Step 3.
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
            IF in_user_amount[i] > 0 THEN
                w_bal[up] := w_bal[up] - in_user_amount[i];
                w_touched[up] := true;
                e_wallet := e_wallet || w_id[up]; e_type := e_type || 'debit'::text;
                e_amount := e_amount || in_user_amount[i]; e_after := e_after || w_bal[up];
                e_reason := e_reason || 'api_call'::text; e_ref := e_ref || txn_reference(t);
                e_actor := e_actor || 'user'::text; e_actor_id := e_actor_id || in_user[i];
            END IF;
            IF in_amount[i] > 0 THEN
                w_bal[pp] := w_bal[pp] - in_amount[i];
                w_touched[pp] := true;
                e_wallet := e_wallet || w_id[pp]; e_type := e_type || 'debit'::text;
                e_amount := e_amount || in_amount[i]; e_after := e_after || w_bal[pp];
                e_reason := e_reason || 'api_call'::text; e_ref := e_ref || txn_reference(t);
                e_actor := e_actor || 'user'::text; e_actor_id := e_actor_id || in_user[i];
            END IF;
            IF in_ikey[i] IS NOT NULL THEN
                ck_key := ck_key || in_ikey[i]; ck_id := ck_id || t;
            END IF;
            t_i := t_i || i; t_id := t_id || t;
            t_ur := t_ur || CASE WHEN up IS NULL THEN 0 ELSE w_bal[up] END;
            t_pr := t_pr || CASE WHEN pp IS NULL THEN 0 ELSE w_bal[pp] END;
            outc[i] := 'charged'; res_txn[i] := t;
            res_ur[i] := t_ur[cardinality(t_ur)]; res_pr[i] := t_pr[cardinality(t_pr)];
            IF in_has_log[i] THEN
                l_i := l_i || i; l_txn := l_txn || t; l_code := l_code || 200;
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
                    up := array_position(w_id, wal);
                    w_bal[up] := w_bal[up] + amt;
                    w_touched[up] := true;
                    e_wallet := e_wallet || wal; e_type := e_type || 'credit'::text;
                    e_amount := e_amount || amt; e_after := e_after || w_bal[up];
                    e_reason := e_reason || 'refund'::text; e_ref := e_ref || txn_reference(s_id[k]);
                    e_actor := e_actor || 'system'::text; e_actor_id := e_actor_id || NULL::bigint;
                    IF slot = 1 THEN after_u := w_bal[up]; ELSE after_p := w_bal[up]; END IF;
                END LOOP;
                IF after_u IS NOT NULL OR after_p IS NOT NULL THEN
                    r_id := r_id || s_id[k]; r_ua := r_ua || after_u; r_pa := r_pa || after_p;
                END IF;
                outc[i] := 'refunded';
            ELSE
                outc[i] := 'settled';
            END IF;
            IF in_has_log[i] THEN
                l_i := l_i || i; l_txn := l_txn || in_txn[i]; l_code := l_code || in_code[i];
            END IF;
        END IF;
    END LOOP;

    -- The alerts (as in `wallets::apply`: the flag always equals "below the threshold", so one
    -- alert goes out per downward crossing and a credit re-arms it).
    FOR k IN 1..coalesce(cardinality(w_id), 0) LOOP
        IF w_touched[k] AND w_thr[k] IS NOT NULL AND w_bal[k] < w_thr[k] AND NOT w_alerted[k] THEN
            low_count := low_count + 1;
        END IF;
    END LOOP;
    IF low_count > 0 AND in_abort_on_alert THEN
        RAISE EXCEPTION 'a wallet crossed its low-balance threshold' USING ERRCODE = 'KY001';
    END IF;

    -- Step 4.
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
        WITH x AS (
            SELECT u.id, u.code, in_vid[u.i] AS vid, in_vpid[u.i] AS vpid, in_ip[u.i] AS ip,
                   in_latency[u.i] AS latency, in_keep[u.i] AS keep, in_sealed[u.i] AS sealed
              FROM unnest(l_txn, l_i, l_code) AS u(id, i, code)
        ), logs AS (
            INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, ip, latency_ms)
            SELECT a.partner_id, a.user_id, a.id, a.service, a.pid, x.vid, x.vpid, x.code,
                   CASE WHEN a.status = 'success' THEN a.user_amount_paise ELSE 0 END, x.ip::inet, x.latency
              FROM x JOIN api_transactions a ON a.id = x.id
        )
        INSERT INTO api_results (transaction_id, user_id, sealed)
        SELECT a.id, a.user_id, x.sealed FROM x JOIN api_transactions a ON a.id = x.id WHERE x.keep
        ON CONFLICT (transaction_id) DO NOTHING;
    END IF;

    RETURN QUERY
        SELECT u.i::int, u.o, u.t, u.ur, u.pr, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::bigint, NULL::bigint
          FROM unnest(outc, res_txn, res_ur, res_pr) WITH ORDINALITY AS u(o, t, ur, pr, i)
         ORDER BY u.i;
    FOR k IN 1..coalesce(cardinality(w_id), 0) LOOP
        IF w_touched[k] AND w_thr[k] IS NOT NULL AND w_bal[k] < w_thr[k] AND NOT w_alerted[k] THEN
            RETURN QUERY SELECT NULL::int, 'low'::text, NULL::bigint, NULL::bigint, NULL::bigint,
                                w_id[k], w_partner[k], w_user[k], w_kind[k], w_bal[k], w_thr[k];
        END IF;
    END LOOP;
END
$fn$;
