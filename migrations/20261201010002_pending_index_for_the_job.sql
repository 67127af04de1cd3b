-- The pending-calls index is for settle_pending only (issue 21). Its predicate was
-- `status = 'pending'`, which the charging group's settlement also states (it settles a call
-- only while pending), so the settlement could plan a scan of this index instead of its primary
-- key lookups; a plan made while the index held a few rows was kept by the connection for good.
-- Every settled call leaves a dead entry here until a vacuum (none, with autovacuum off as on the
-- CI machines), so that scan grew with every call: 0.35 ms per group at first, 2.7 ms after
-- 85,000 calls. The predicate now also says `settled_at IS NULL` (true of every pending call:
-- a call is settled and stamped in the same write), which only settle_pending's query states.
DROP INDEX api_transactions_pending_idx;
CREATE INDEX api_transactions_pending_idx ON api_transactions (created_at)
    WHERE status = 'pending' AND settled_at IS NULL;
