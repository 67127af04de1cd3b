-- The gateway's call tables check each new row's partner twice (issue 21): once by
-- (partner_id) -> partners and once by (partner_id, user_id) -> end_users, whose partner_id in
-- turn references partners with ON DELETE CASCADE. user_id is NOT NULL on both tables, so the
-- composite key is always checked and a row can never name a partner that does not exist;
-- deleting a partner still removes its calls, through its end users. The single-column keys
-- only cost a lookup and a row lock in partners per inserted row: two per metered call.
ALTER TABLE api_transactions DROP CONSTRAINT api_transactions_partner_id_fkey;
ALTER TABLE api_logs DROP CONSTRAINT api_logs_partner_id_fkey;
