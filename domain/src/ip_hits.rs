//! Per-IP request counts per user and day (`ip_hits`), fed by hot counters
//! (`ip_hit_counters`) that the `aggregate_ip_hits` job folds in periodically.

use sqlx::PgConnection;

use crate::Result;

/// Folds every hot counter into `ip_hits` and returns how many rows it folded. Draining and
/// adding are one statement (DELETE … RETURNING feeding the upsert), so a crash either folds a
/// batch completely or not at all: no hit is lost or counted twice.
pub async fn fold_counters(conn: &mut PgConnection) -> Result<u64> {
    Ok(sqlx::query(
        "WITH drained AS (
             DELETE FROM ip_hit_counters RETURNING partner_id, user_id, ip, day, hits, first_seen, last_seen
         )
         INSERT INTO ip_hits (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         SELECT partner_id, user_id, ip, day, hits, first_seen, last_seen FROM drained
         ON CONFLICT (user_id, ip, day) DO UPDATE
            SET hits = ip_hits.hits + EXCLUDED.hits,
                first_seen = LEAST(ip_hits.first_seen, EXCLUDED.first_seen),
                last_seen = GREATEST(ip_hits.last_seen, EXCLUDED.last_seen)",
    )
    .execute(conn)
    .await?
    .rows_affected())
}
