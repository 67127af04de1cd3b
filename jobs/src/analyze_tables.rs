//! `analyze_tables`: periodic (every 10 minutes). Gives the planner fresh statistics for the
//! tables that changed (`domain::infra::planner_stats`), so no connection keeps a plan made when
//! a table was small: where autovacuum is off, nothing else would.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct AnalyzeTables {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for AnalyzeTables {
    const KIND: &'static str = "analyze_tables";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for AnalyzeTables {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let tables = domain::infra::planner_stats::analyze_changed(&ctx.pool).await?;
        if !tables.is_empty() {
            tracing::info!(?tables, period = %self.period, "planner statistics renewed");
        }
        Ok(())
    }
}
