//! `settle_pending`: periodic. Refunds gateway transactions that a crash left pending: an api
//! process that died between the debit and the settlement (or whose settlement failed) leaves
//! the call `pending` with both wallets debited. Older than `SETTLE_PENDING_AFTER_SECS` (well
//! above the upstream timeout, so no live call is still waiting for its answer), it is refunded
//! through the same grouped path as every charge (`domain::wallets::charge`), so a transaction
//! the gateway settles at the same moment is settled once, by whichever commits first.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};
use domain::wallets::charge::{self, Item, Settle};

/// The status code recorded on a transaction settled here: nobody saw the upstream's answer.
pub const CRASH_STATUS: i32 = 504;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SettlePending {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for SettlePending {
    const KIND: &'static str = "settle_pending";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for SettlePending {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut refunded = 0usize;
        loop {
            let ids = charge::stale_pending(
                &ctx.pool,
                ctx.config.gateway.settle_after,
                charge::MAX_BATCH,
            )
            .await?;
            if ids.is_empty() {
                break;
            }
            let items: Vec<Item> = ids
                .iter()
                .map(|&transaction_id| {
                    Item::Settle(Settle {
                        transaction_id,
                        success: false,
                        status_code: CRASH_STATUS,
                        log: None,
                        charged_under: None,
                    })
                })
                .collect();
            let outcomes = charge::commit_batch(&ctx.pool, &items).await?;
            refunded += outcomes
                .iter()
                .filter(|o| matches!(o, charge::Outcome::Settled { refunded: true }))
                .count();
        }
        crate::bookkeeping::settle_refunds(refunded as u64);
        if refunded > 0 {
            tracing::warn!(refunded, period = %self.period, "settled pending gateway transactions left by a crash");
        }
        Ok(())
    }
}
