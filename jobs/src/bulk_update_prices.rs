//! `bulk_update_prices`: applies a price list to a plan slab or to a partner's customised plan,
//! in one transaction: every price changes, or none does.
//!
//! Idempotent: the payload carries an `apply_id` fixed at enqueue time, and the transaction
//! that applies the list also writes an audit row keyed by it. A retry after a crash that came
//! after the commit finds that row and does nothing, so audit rows are never doubled.

use domain::{
    audit::{self, Actor},
    plans::{self, PriceItem, Target},
};
use serde::{Deserialize, Serialize};
use sqlx::Connection;

use crate::{Job, JobContext};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BulkUpdatePrices {
    pub apply_id: String,
    pub target: Target,
    pub prices: Vec<PriceItem>,
    pub actor: Actor,
}

impl BulkUpdatePrices {
    pub fn new(target: Target, prices: Vec<PriceItem>, actor: Actor) -> Self {
        Self { apply_id: uuid::Uuid::new_v4().to_string(), target, prices, actor }
    }
}

impl Job for BulkUpdatePrices {
    const KIND: &'static str = "bulk_update_prices";
    // A list that fails validation now (a service deleted since it was queued) fails again.
    const MAX_ATTEMPTS: usize = 3;

    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        // Two workers holding the same job (one presumed dead) take turns here.
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(format!("bulk_update_prices:{}", self.apply_id))
            .execute(&mut *tx)
            .await?;
        let done: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM audit_log WHERE action = 'bulk_update_prices' AND entity_id = $1)")
            .bind(&self.apply_id)
            .fetch_one(&mut *tx)
            .await?;
        if done {
            return Ok(());
        }
        let changed = plans::apply_prices(&mut tx, self.target, &self.prices, self.actor)
            .await
            .map_err(|e| anyhow::anyhow!("applying {} prices: {e}", self.prices.len()))?;
        let partner_id = match self.target {
            Target::Partner(p) => Some(p),
            Target::Plan(_) => None,
        };
        audit::record(&mut tx, &audit::Record {
            actor: self.actor,
            action: "bulk_update_prices",
            entity: "price_list",
            entity_id: self.apply_id.clone(),
            partner_id,
            before: None,
            after: Some(serde_json::json!({ "target": self.target, "prices": self.prices.len(), "changed": changed })),
        })
        .await?;
        tx.commit().await?;
        tracing::info!(apply_id = %self.apply_id, changed, "price list applied");
        Ok(())
    }
}
