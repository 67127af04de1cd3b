-- The Redis hashes of IP hits that aggregate_ip_hits has folded into ip_hits. The key is
-- written in the same transaction as the counts, so a worker that dies after the commit but
-- before deleting the hash leaves a fold the next run recognises and does not count again.
CREATE TABLE ip_hit_folds (
    fold_key  text PRIMARY KEY,
    folded_at timestamptz NOT NULL DEFAULT now()
);
