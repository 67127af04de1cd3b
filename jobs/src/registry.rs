//! The job kinds, declared once: [`platform`] lists every kind the platform's workers run and
//! every periodic schedule. The kind list (the Jobs page, `/metrics`, [`crate::runner::run_pending`]),
//! the dispatcher (a kind's payload to its handler) and the worker's schedules all come from
//! this one declaration; a new kind is one line here.
//!
//! The benchmark's `noop` is not among them: `bench jobs` registers its own kind on top
//! ([`Registry::job`]), so a production worker never takes a job it does not know.

use std::{collections::HashMap, sync::LazyLock};

use domain::infra::config::Config;
use futures::future::BoxFuture;

use crate::{
    AggregateIpHits, AnalyzeTables, BulkUpdatePrices, DeliverWebhook, ExportCsv, Job, JobContext,
    ProvisionSubdomain, PruneExports, PruneJobs, PruneResults, RunBatch, SendMail, SettlePending,
    SmtpTest,
};

/// Finished jobs are pruned hourly (at minute 17, away from the top-of-hour crowd).
pub const PRUNE_SCHEDULE: &str = "0 17 * * * *";

/// Old export files are removed hourly, at minute 47.
pub const PRUNE_EXPORTS_SCHEDULE: &str = "0 47 * * * *";

/// Kept call answers past their retention are deleted every 10 minutes: they are personal data,
/// so they should not outstay `RESULT_RETENTION_HOURS` by an hour.
pub const PRUNE_RESULTS_SCHEDULE: &str = "0 */10 * * * *";

/// Planner statistics of the changed tables are renewed every 10 minutes, half-way between two
/// prunes of the kept answers.
pub const ANALYZE_TABLES_SCHEDULE: &str = "0 5,15,25,35,45,55 * * * *";

/// Decodes a payload and runs its handler.
type Handler = for<'a> fn(&'a [u8], &'a JobContext) -> BoxFuture<'a, anyhow::Result<()>>;

/// Enqueues the run of a periodic kind for one period ([`enqueue_periodic`]).
type Enqueue = for<'a> fn(
    &'a JobContext,
    chrono::DateTime<chrono::Utc>,
) -> BoxFuture<'a, anyhow::Result<Option<String>>>;

/// A periodic kind: its cron schedule (with seconds), read from the configuration.
#[derive(Clone)]
pub struct Periodic {
    pub kind: &'static str,
    pub schedule: fn(&Config) -> String,
    pub(crate) enqueue: Enqueue,
}

/// Kinds with their handlers, in declaration order, and the periodic schedules.
#[derive(Clone, Default)]
pub struct Registry {
    kinds: Vec<&'static str>,
    handlers: HashMap<&'static str, Handler>,
    periodic: Vec<Periodic>,
}

/// A payload its kind cannot decode: it never will, so it is retried at once, without backoff,
/// until its attempts run out.
#[derive(Debug, thiserror::Error)]
#[error("decoding the {kind} payload: {error}")]
pub struct Undecodable {
    pub kind: String,
    pub error: String,
}

fn handle<'a, J: Job>(payload: &'a [u8], ctx: &'a JobContext) -> BoxFuture<'a, anyhow::Result<()>> {
    Box::pin(async move {
        let job: J = serde_json::from_slice(payload).map_err(|e| Undecodable {
            kind: J::KIND.into(),
            error: e.to_string(),
        })?;
        job.run(ctx).await
    })
}

fn enqueue<J: Job + Default>(
    ctx: &JobContext,
    at: chrono::DateTime<chrono::Utc>,
) -> BoxFuture<'_, anyhow::Result<Option<String>>> {
    Box::pin(enqueue_periodic::<J>(ctx, at))
}

/// Enqueues one run of the periodic job `J` for the period starting at `at`, unless one is
/// queued for that period already (every worker process ticks). Returns the job id when this
/// call enqueued it.
pub async fn enqueue_periodic<J: Job + Default>(
    ctx: &JobContext,
    at: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Option<String>> {
    let period = at.to_rfc3339();
    let mut value = serde_json::to_value(J::default())?;
    if let Some(obj) = value.as_object_mut() {
        obj.insert("period".into(), period.clone().into());
    }
    let job: J = serde_json::from_value(value)?;
    let mut conn = ctx.pool.acquire().await?;
    let key = format!("{}:{period}", J::KIND);
    let id = crate::enqueue_once(&mut conn, &job, &key).await?;
    if id.is_some() {
        tracing::debug!(kind = J::KIND, %period, "periodic job enqueued");
    }
    Ok(id)
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers the kind `J`: its jobs are fetched and run by `J::run`.
    pub fn job<J: Job>(mut self) -> Self {
        if self.handlers.insert(J::KIND, handle::<J>).is_none() {
            self.kinds.push(J::KIND);
        }
        self
    }

    /// Registers `J` (if it is not yet) and queues one of it per period of `schedule`.
    pub fn periodic<J: Job + Default>(mut self, schedule: fn(&Config) -> String) -> Self {
        self = self.job::<J>();
        self.periodic.push(Periodic {
            kind: J::KIND,
            schedule,
            enqueue: enqueue::<J>,
        });
        self
    }

    /// The kinds, in declaration order.
    pub fn kinds(&self) -> &[&'static str] {
        &self.kinds
    }

    pub fn periodic_kinds(&self) -> &[Periodic] {
        &self.periodic
    }

    /// Runs the handler of `kind` on `payload`.
    pub async fn dispatch(
        &self,
        kind: &str,
        payload: &[u8],
        ctx: &JobContext,
    ) -> anyhow::Result<()> {
        match self.handlers.get(kind) {
            Some(handler) => handler(payload, ctx).await,
            None => Err(Undecodable {
                kind: kind.into(),
                error: "no handler for this kind".into(),
            }
            .into()),
        }
    }
}

/// Every kind the platform runs, and its periodic jobs: the one declaration.
pub fn platform() -> Registry {
    Registry::new()
        .job::<SendMail>()
        .job::<ProvisionSubdomain>()
        .periodic::<AggregateIpHits>(|c| c.ip_hits_schedule.clone())
        .job::<BulkUpdatePrices>()
        .periodic::<SettlePending>(|c| c.gateway.settle_schedule.clone())
        .job::<SmtpTest>()
        .periodic::<PruneJobs>(|_| PRUNE_SCHEDULE.into())
        .job::<ExportCsv>()
        .periodic::<PruneExports>(|_| PRUNE_EXPORTS_SCHEDULE.into())
        .job::<RunBatch>()
        .job::<DeliverWebhook>()
        .periodic::<PruneResults>(|_| PRUNE_RESULTS_SCHEDULE.into())
        .periodic::<AnalyzeTables>(|_| ANALYZE_TABLES_SCHEDULE.into())
}

static PLATFORM: LazyLock<Registry> = LazyLock::new(platform);

/// The platform's periodic kinds with their cron schedules, for the Jobs page (last and next run).
pub fn schedules(config: &Config) -> Vec<(&'static str, String)> {
    PLATFORM
        .periodic_kinds()
        .iter()
        .map(|p| (p.kind, (p.schedule)(config)))
        .collect()
}

/// The platform's kinds ([`platform`]), for the views that list every kind.
pub fn kinds() -> &'static [&'static str] {
    PLATFORM.kinds()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_come_from_the_one_declaration() {
        assert_eq!(
            kinds(),
            [
                "send_mail",
                "provision_subdomain",
                "aggregate_ip_hits",
                "bulk_update_prices",
                "settle_pending",
                "smtp_test",
                "prune_jobs",
                "export_csv",
                "prune_exports",
                "run_batch",
                "deliver_webhook",
                "prune_results",
                "analyze_tables",
            ]
        );
        let periodic: Vec<_> = platform().periodic_kinds().iter().map(|p| p.kind).collect();
        assert_eq!(
            periodic,
            [
                "aggregate_ip_hits",
                "settle_pending",
                "prune_jobs",
                "prune_exports",
                "prune_results",
                "analyze_tables"
            ]
        );
        assert!(
            !kinds().contains(&"noop"),
            "the benchmark's kind is its own"
        );
    }

    #[test]
    fn a_kind_registered_twice_is_listed_once() {
        let r = Registry::new().job::<SendMail>().job::<SendMail>();
        assert_eq!(r.kinds(), ["send_mail"]);
    }
}
