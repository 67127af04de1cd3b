//! `bulk_update_prices`: applies a price list to a plan slab or to a partner's customised plan,
//! in one transaction: every price changes, or none does.
//!
//! Idempotent: the payload carries an `apply_id` fixed at enqueue time, and the transaction
//! that applies the list also writes an audit row keyed by it. A retry after a crash that came
//! after the commit finds that row and does nothing, so audit rows are never doubled.

use domain::{
    catalogue::plans::{self, PriceItem, Target},
    infra::audit::Actor,
};
use serde::{Deserialize, Serialize};
use sqlx::Connection;

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BulkUpdatePrices {
    pub apply_id: String,
    pub target: Target,
    pub prices: Vec<PriceItem>,
    pub actor: Actor,
}

impl BulkUpdatePrices {
    pub fn new(target: Target, prices: Vec<PriceItem>, actor: Actor) -> Self {
        Self {
            apply_id: uuid::Uuid::new_v4().to_string(),
            target,
            prices,
            actor,
        }
    }
}

impl Task for BulkUpdatePrices {
    const KIND: &'static str = "bulk_update_prices";
    // A list that fails validation now (a service deleted since it was queued) fails again.
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for BulkUpdatePrices {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let changed = plans::apply_price_list(
            &mut tx,
            &self.apply_id,
            self.target,
            &self.prices,
            self.actor,
        )
        .await
        .map_err(|e| anyhow::anyhow!("applying {} prices: {e}", self.prices.len()))?;
        tx.commit().await?;
        match changed {
            Some(changed) => {
                tracing::info!(apply_id = %self.apply_id, changed, "price list applied")
            }
            None => tracing::debug!(apply_id = %self.apply_id, "price list applied before"),
        }
        Ok(())
    }
}
