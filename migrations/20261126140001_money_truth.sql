-- What the lists and files say about money is the ledger's truth (issue 23).

-- A refunded call nets to ₹0, so the balance its row shows is the one after its refund, not
-- the one between the debit and the refund (the charger writes it from now on). Rows of
-- calls refunded before are set from their refund entries (reference `TXN` + the call's id).
UPDATE api_transactions t
   SET partner_remaining_paise = e.balance_after_paise
  FROM wallet_entries e JOIN wallets w ON w.id = e.wallet_id AND w.kind = 'api'
 WHERE e.reason = 'refund'
   AND t.status = 'refunded'
   AND t.id = CASE WHEN e.reference ~ '^TXN[0-9]{1,18}$' THEN substring(e.reference FROM 4)::bigint END
   AND w.partner_id = t.partner_id
   AND w.user_id IS NULL;
UPDATE api_transactions t
   SET remaining_paise = e.balance_after_paise
  FROM wallet_entries e JOIN wallets w ON w.id = e.wallet_id AND w.kind = 'api'
 WHERE e.reason = 'refund'
   AND t.status = 'refunded'
   AND t.id = CASE WHEN e.reference ~ '^TXN[0-9]{1,18}$' THEN substring(e.reference FROM 4)::bigint END
   AND w.partner_id = t.partner_id
   AND w.user_id = t.user_id;

-- A purchase debits the partner's product wallet too; My Transactions' Product tab shows the
-- partner's balance after it (it showed 'NA' with nothing to read).
ALTER TABLE product_transactions ADD COLUMN partner_remaining_paise bigint;
UPDATE product_transactions t
   SET partner_remaining_paise = e.balance_after_paise
  FROM wallet_entries e JOIN wallets w ON w.id = e.wallet_id AND w.kind = 'product'
 WHERE e.reason = 'product' AND e.type = 'debit' AND e.reference = t.pid AND t.pid <> ''
   AND w.partner_id = t.partner_id AND w.user_id IS NULL;

-- An export holds what its screen shows: the screen's filter panel, the side of the money it
-- shows (the users' or the partner's), and, for one user's transactions on User Detail, the
-- wallet's ledger (manual credits and debits and refunds as rows) rather than the calls alone.
ALTER TABLE exports
    ADD COLUMN ledger   boolean NOT NULL DEFAULT false,
    ADD COLUMN side     text NOT NULL DEFAULT 'user' CHECK (side IN ('user', 'partner')),
    ADD COLUMN email    text,
    ADD COLUMN pid      text,
    ADD COLUMN services text;
