//! Background jobs: one typed payload per kind with its handler beside it, enqueued into the
//! apalis-postgres queue (table `apalis.jobs`), normally inside the caller's transaction.
//!
//! Every handler is idempotent: a retry after a crash must not send a second mail or double a
//! count. Failures are retried with exponential backoff (see `runner`), up to `MAX_ATTEMPTS`.

pub mod aggregate_ip_hits;
pub mod bulk_update_prices;
pub mod provision_subdomain;
pub mod runner;
pub mod send_mail;
pub mod settle_pending;
pub mod smtp_test;
pub mod state;
pub mod wallets;

use std::{future::Future, sync::Arc};

use apalis::prelude::{TaskBuilder, TaskId};
use domain::{PgConnection, PgPool, config::Config, mail::Mailer};
use serde::{Serialize, de::DeserializeOwned};
use sqlx::Connection;

pub use aggregate_ip_hits::AggregateIpHits;
pub use bulk_update_prices::BulkUpdatePrices;
pub use provision_subdomain::ProvisionSubdomain;
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
    pub storage: domain::storage::Storage,
}

impl JobContext {
    pub fn new(pool: PgPool, config: Arc<Config>) -> anyhow::Result<Self> {
        let mailer = Mailer::new(&config.mail, &config.mail_from)?;
        domain::partner_smtp::set_allow_private(config.partner_smtp_allow_private);
        let storage = domain::storage::Storage::new(&config);
        Ok(Self { pool, config, mailer, storage })
    }
}

/// A kind of background job. The payload carries ids and small values, never secrets.
pub trait Job: Serialize + DeserializeOwned + Send + Sync + Unpin + 'static {
    /// The queue name in `apalis.jobs.job_type`, and the `kind` the job-state endpoint shows.
    const KIND: &'static str;
    const MAX_ATTEMPTS: usize = 8;

    fn run(self, ctx: &JobContext) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// Enqueues `job` on `conn` (pass a transaction to commit the job with the write that needs
/// it) and returns the job id.
pub async fn enqueue<J: Job>(conn: &mut PgConnection, job: &J) -> Result<String, EnqueueError> {
    push(conn, job, None).await.map(|id| id.expect("no idempotency key, always inserted"))
}

/// Enqueues `job` unless a job of the same kind with the same key exists: `Ok(None)` then.
pub async fn enqueue_once<J: Job>(conn: &mut PgConnection, job: &J, key: &str) -> Result<Option<String>, EnqueueError> {
    push(conn, job, Some(key)).await
}

async fn push<J: Job>(conn: &mut PgConnection, job: &J, key: Option<&str>) -> Result<Option<String>, EnqueueError> {
    let id = ulid::Ulid::generate().to_string();
    let mut builder = TaskBuilder::new(serde_json::to_vec(job).map_err(|e| EnqueueError::Encode(e.to_string()))?)
        .task_id(TaskId::from(id.clone()))
        .max_attempts(J::MAX_ATTEMPTS);
    if let Some(k) = key {
        builder = builder.idempotency_key(k);
    }
    // Inside the caller's transaction this is a savepoint (sqlx tracks the depth), so a
    // duplicate key does not abort the caller's work; on a bare connection it is its own
    // transaction.
    let mut tx = conn.begin().await?;
    match apalis_postgres::queries::push_tasks(&mut *tx, J::KIND, vec![builder.build()]).await {
        Ok(()) => {
            tx.commit().await?;
            Ok(Some(id))
        }
        Err(e) => {
            tx.rollback().await?;
            let unique = matches!(&e, apalis_postgres::Error::Database(sqlx::Error::Database(d)) if d.is_unique_violation());
            if unique && key.is_some() { Ok(None) } else { Err(EnqueueError::Queue(e.to_string())) }
        }
    }
}

/// Enqueue on a pool connection of its own.
pub async fn enqueue_now<J: Job>(pool: &PgPool, job: &J) -> Result<String, EnqueueError> {
    let mut conn = pool.acquire().await?;
    enqueue(&mut conn, job).await
}

#[derive(Debug, thiserror::Error)]
pub enum EnqueueError {
    #[error("encoding job payload: {0}")]
    Encode(String),
    #[error("job queue: {0}")]
    Queue(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<EnqueueError> for domain::Error {
    fn from(e: EnqueueError) -> Self {
        match e {
            EnqueueError::Db(e) => domain::Error::Db(e),
            other => domain::Error::Other(anyhow::anyhow!(other)),
        }
    }
}

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
    domain::db::migrator().run(pool).await?;
    Ok(())
}
