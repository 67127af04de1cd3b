//! `aggregate_ip_hits`: periodic. Folds the hot per-IP counters into `ip_hits`.
//!
//! Postgres counters: draining and adding happen in one transaction (DELETE … RETURNING feeding
//! the upsert), so a crash either folds a batch completely or not at all: no hit is lost or
//! counted twice. Redis counters (with `REDIS_URL`): see `domain::gateway::hits`, which folds a
//! renamed hash once, recorded in the same transaction as the counts.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct AggregateIpHits {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Job for AggregateIpHits {
    const KIND: &'static str = "aggregate_ip_hits";
    const MAX_ATTEMPTS: usize = 3;

    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let folded = sqlx::query(
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
        .execute(&ctx.pool)
        .await?
        .rows_affected();
        let folded = folded
            + match &ctx.config.redis_url {
                Some(url) => domain::gateway::hits::RedisHits::connect(url, &ctx.config.database_url).await?.fold(&ctx.pool).await?,
                None => 0,
            };
        sqlx::query(
            "INSERT INTO audit_log (actor_kind, action, entity, entity_id, after)
             VALUES ('system', 'aggregate_ip_hits', 'job_period', $1, jsonb_build_object('rows', $2::bigint))",
        )
        .bind(&self.period)
        .bind(folded as i64)
        .execute(&ctx.pool)
        .await?;
        Ok(())
    }
}
