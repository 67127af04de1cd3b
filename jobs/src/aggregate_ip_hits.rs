//! `aggregate_ip_hits`: periodic. Folds the hot per-IP counters into `ip_hits`.
//!
//! Postgres counters: draining and adding happen in one transaction (DELETE … RETURNING feeding
//! the upsert), so a crash either folds a batch completely or not at all: no hit is lost or
//! counted twice. Redis counters (with `REDIS_URL`): see `domain::gateway::hits`, which folds a
//! renamed hash once, recorded in the same transaction as the counts.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct AggregateIpHits {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for AggregateIpHits {
    const KIND: &'static str = "aggregate_ip_hits";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for AggregateIpHits {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let mut folded = domain::gateway::ip_hits::fold_counters(&mut conn).await?;
        if let Some(url) = &ctx.config.redis_url {
            folded += domain::gateway::hits::RedisHits::connect(url, &ctx.config.database_url)
                .await?
                .fold(&ctx.pool)
                .await?;
        }
        domain::infra::audit::record(
            &mut conn,
            &domain::infra::audit::Record {
                actor: domain::infra::audit::Actor::system(),
                action: "aggregate_ip_hits",
                entity: "job_period",
                entity_id: self.period.clone(),
                partner_id: None,
                before: None,
                after: Some(serde_json::json!({ "rows": folded })),
            },
        )
        .await?;
        Ok(())
    }
}
