-- Exports hold what their screen shows (issue 23): the wallet-transactions screen filters by
-- wallet and type, and the API logs screens by status code, beside the dates; an export now
-- carries those filters too (NULL: not filtered), as it already carried e-mail, PID and services.
ALTER TABLE exports
    ADD COLUMN wallet      text CHECK (wallet IN ('api', 'product')),
    ADD COLUMN entry_type  text CHECK (entry_type IN ('credit', 'debit')),
    ADD COLUMN status_code integer CHECK (status_code BETWEEN 100 AND 599);
