-- A live call's charge no longer waits for the WAL flush; every answer still does (issue 21).
--
-- A live call waited for two flushes in series: its charge's commit, then its settlement's.
-- Nobody is answered on the charge's commit: the caller goes on to the upstream and is answered
-- after its settlement, whose commit flushes the WAL up to itself, and so the charge before it.
-- So a group made only of live charges commits with `synchronous_commit = off` (for that
-- transaction alone: `set_config(..., true)` outside any function's own SET clause lasts until
-- the commit); a group with anything answered on its commit (a settlement, a refund, a sandbox
-- call charged and settled at once) waits for its flush as before. Measured with
-- `bench gateway-latency 2300,2300,2300` (the README, "Stop 31"): the settling groups 0.99 to
-- 1.48 ms instead of 1.29 to 1.94 (their flushes no longer queue behind the charges'), the calls'
-- p50 lower in most rounds. This wrapper costs a group no more than the noise of pgbench
-- (a four-charge group: 0.78 to 0.84 ms through it, 0.69 to 0.80 with the setting made on the
-- session, 0.91 to 0.95 waiting for the flush).
--
-- What a crash of Postgres can now lose is a charge whose upstream call was made, with no
-- answer sent for it yet (that caller is not charged, as when a settlement fails; the business
-- bears the upstream call). Its id can be handed out again after the crash (a sequence's advance
-- is only as durable as the commit that made it), so a settlement must never reach a newer
-- call's row by that id: every group from a charging task names the server incarnation it
-- believes it talks to (`in_expected`), and `charge_group_unflushed` refuses the whole group
-- (SQLSTATE KY002, nothing written) if the server's differs. The task then reads the incarnation
-- again and leaves to `settle_pending` the settlements of charges made under another one. The
-- incarnation changes with every start of Postgres and every crash recovery (which resets the
-- cumulative statistics, and with them the background writer's `stats_reset`); a hand-made
-- `pg_stat_reset_shared('bgwriter')` only makes the calls in flight at that moment settle by the
-- job. The check runs in the group's own transaction, so it holds through PgBouncer as well.

-- Two scalar functions: the same read through the `pg_stat_archiver` view cost 65 µs a group
-- (pgbench, one statement per transaction), these about 5.
CREATE FUNCTION server_incarnation() RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT pg_postmaster_start_time()::text || ' / '
        || coalesce(pg_stat_get_bgwriter_stat_reset_time()::text, '-')
$$;

CREATE FUNCTION charge_group_unflushed(
    in_is_charge bool[], in_partner bigint[], in_user bigint[], in_api bigint[], in_service text[],
    in_pid text[], in_mode text[], in_amount bigint[], in_user_amount bigint[], in_uw bigint[],
    in_pw bigint[], in_ikey text[], in_key bigint[], in_txn bigint[], in_ok bool[], in_code int[],
    in_has_log bool[], in_vid text[], in_vpid text[], in_ip text[], in_latency int[], in_keep bool[],
    in_sealed bytea[], in_abort_on_alert bool, in_expected text)
RETURNS TABLE (o_idx int, o_outcome text, o_txn bigint, o_user_remaining bigint,
               o_partner_remaining bigint, o_wallet bigint, o_partner bigint, o_user bigint,
               o_kind text, o_balance bigint, o_threshold bigint)
LANGUAGE plpgsql
AS $fn$
BEGIN
    IF in_expected IS NOT NULL AND in_expected IS DISTINCT FROM server_incarnation() THEN
        RAISE EXCEPTION 'the server restarted since this charging connection last looked'
            USING ERRCODE = 'KY002';
    END IF;
    IF coalesce(cardinality(in_is_charge), 0) > 0
       AND NOT (false = ANY (in_is_charge)) AND NOT (true = ANY (in_has_log)) THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    RETURN QUERY SELECT * FROM charge_group(
        in_is_charge, in_partner, in_user, in_api, in_service, in_pid, in_mode, in_amount,
        in_user_amount, in_uw, in_pw, in_ikey, in_key, in_txn, in_ok, in_code, in_has_log, in_vid,
        in_vpid, in_ip, in_latency, in_keep, in_sealed, in_abort_on_alert);
END
$fn$;
