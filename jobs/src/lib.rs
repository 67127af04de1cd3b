//! Background jobs: one typed payload per kind with its handler beside it, enqueued into the
//! queue table `apalis.jobs` (apalis-postgres's schema), normally inside the caller's
//! transaction, and run by our own engine (`runner`) over the kinds `registry` declares.
//!
//! Every handler is idempotent: a retry after a crash must not send a second mail or double a
//! count. Failures are retried with exponential backoff (see `runner`), up to `MAX_ATTEMPTS`.

pub mod aggregate_ip_hits;
pub mod analyze_tables;
pub mod bookkeeping;
pub mod browse;
pub mod bulk_update_prices;
pub mod deliver_webhook;
pub mod export_csv;
pub mod metrics;
pub mod overview;
pub mod provision_subdomain;
pub mod prune_exports;
pub mod prune_jobs;
pub mod prune_results;
pub mod registry;
pub mod run_batch;
pub mod runner;
pub mod send_mail;
pub mod settle_pending;
pub mod smtp_test;
pub mod state;
pub mod workers;

use std::{future::Future, sync::Arc};

use domain::{PgConnection, PgPool, infra::config::Config, infra::queue, mail::Mailer};
use serde::de::DeserializeOwned;

pub use domain::infra::queue::Task;

pub use aggregate_ip_hits::AggregateIpHits;
pub use analyze_tables::AnalyzeTables;
pub use bulk_update_prices::BulkUpdatePrices;
pub use deliver_webhook::DeliverWebhook;
pub use export_csv::ExportCsv;
pub use provision_subdomain::ProvisionSubdomain;
pub use prune_exports::PruneExports;
pub use prune_jobs::PruneJobs;
pub use prune_results::PruneResults;
pub use run_batch::RunBatch;
pub use send_mail::SendMail;
pub use settle_pending::SettlePending;
pub use smtp_test::SmtpTest;

/// What every handler may use.
#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    /// Where exports and other generated files go.
    pub storage: domain::infra::storage::Storage,
    /// Upstream calls of batch rows.
    pub http: reqwest::Client,
}

impl JobContext {
    pub fn new(pool: PgPool, config: Arc<Config>) -> anyhow::Result<Self> {
        let mailer = Mailer::new(&config.mail, &config.mail_from)?;
        let storage = domain::infra::storage::Storage::new(&config);
        let http = domain::gateway::call::http_client(&config);
        Ok(Self {
            pool,
            config,
            mailer,
            storage,
            http,
        })
    }
}

/// A kind of background job: a payload the queue stores ([`Task`]: its kind and attempts) with
/// its handler. The payload carries ids and small values, never secrets.
pub trait Job: Task + DeserializeOwned + Send + Sync + Unpin + 'static {
    fn run(self, ctx: &JobContext) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// Enqueues `job` on `conn` (pass a transaction to commit the job with the write that needs
/// it) and returns the job id.
pub async fn enqueue<J: Job>(conn: &mut PgConnection, job: &J) -> Result<String, EnqueueError> {
    Ok(queue::push(conn, job, None)
        .await?
        .expect("no idempotency key, always inserted"))
}

/// Enqueues `job` unless a job of the same kind with the same key exists: `Ok(None)` then.
pub async fn enqueue_once<J: Job>(
    conn: &mut PgConnection,
    job: &J,
    key: &str,
) -> Result<Option<String>, EnqueueError> {
    queue::push(conn, job, Some(key)).await
}

/// Enqueue on a pool connection of its own.
pub async fn enqueue_now<J: Job>(pool: &PgPool, job: &J) -> Result<String, EnqueueError> {
    let mut conn = pool.acquire().await?;
    enqueue(&mut conn, job).await
}

/// The queue's errors are the domain's (`domain::infra::queue::push`).
pub type EnqueueError = domain::Error;

/// Runs the job queue's own migrations (schema `apalis`). They share `_sqlx_migrations` with
/// ours, hence `ignore_missing`.
pub async fn migrate_queue(pool: &PgPool) -> anyhow::Result<()> {
    let mut m = apalis_postgres::PostgresStorage::migrations();
    m.set_ignore_missing(true);
    m.run(pool).await?;
    Ok(())
}

/// All migrations, queue first: `api migrate` and the test set-up run this.
pub async fn migrate_all(pool: &PgPool) -> anyhow::Result<()> {
    migrate_queue(pool).await?;
    domain::infra::db::migrator().run(pool).await?;
    Ok(())
}
