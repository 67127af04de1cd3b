//! `jobs`: the job queue with real worker processes (this binary re-run as `jobs-worker`, which
//! runs `jobs::workers::run`, the `worker` binary's loop, with every kind and schedule) on a
//! throw-away database made for the run and dropped at its end. For one and for two worker
//! processes it prints:
//!
//! 1. throughput: JOBS (50,000) `noop` jobs queued up front (1,000 per insert), then worked;
//!    jobs/s = JOBS / (last finish - first start), on Postgres's clock;
//! 2. enqueue-to-start latency: with the workers idle, `noop` jobs queued one per statement at
//!    a steady 200/s for 5 s; p50/p99 of (`lock_at` when the job started - `run_at`, its
//!    enqueue time);
//!
//! and, as the reference measured in the same run, Postgres alone: the same JOBS claimed and
//! finished with one statement per batch (`UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED
//! LIMIT batch)`) by as many connections as the workers' concurrency, with the workers' fetch
//! batch.
//!
//! `cargo run -p bench --release -- jobs [JOBS] [CONCURRENCY]` (Postgres at `TEST_DATABASE_URL`;
//! CONCURRENCY is each worker's `WORKER_CONCURRENCY`, default 4, as the platform's default).

use std::{
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use apalis::prelude::{TaskBuilder, TaskId};
use jobs::{Noop, Task};
use sqlx::PgPool;

const INSERT_BATCH: usize = 1_000;
const PACED_RATE: f64 = 200.0;
const PACED_FOR: Duration = Duration::from_secs(5);

/// `jobs-worker`: one worker process for [`run`], on the database its parent names, until its
/// parent closes its stdin (or it is killed).
pub fn worker(_args: Vec<String>) -> anyhow::Result<()> {
    let url = std::env::var("BENCH_JOBS_DATABASE_URL")
        .context("BENCH_JOBS_DATABASE_URL: run through `bench jobs`")?;
    let concurrency: usize = std::env::var("BENCH_JOBS_CONCURRENCY")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(4);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let mut config = testkit::config(&url);
        config.worker_concurrency = concurrency;
        config.worker_heartbeat = Duration::from_secs(5);
        let pool = domain::infra::db::connect(&url, 20).await?;
        let ctx = jobs::JobContext::new(pool, Arc::new(config))?;
        let process = jobs::workers::Process::current(concurrency);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 1];
            let _ = std::io::stdin().read(&mut buf);
            let _ = tx.send(());
        });
        let stdin_closed = async move {
            let _ = rx.await;
        };
        jobs::workers::run(ctx, process, stdin_closed).await
    })
}

struct Workers(Vec<Child>);

impl Workers {
    fn start(n: usize, url: &str, concurrency: usize) -> anyhow::Result<Self> {
        let exe = std::env::current_exe()?;
        let mut children = vec![];
        for _ in 0..n {
            children.push(
                Command::new(&exe)
                    .arg("jobs-worker")
                    .env("BENCH_JOBS_DATABASE_URL", url)
                    .env("BENCH_JOBS_CONCURRENCY", concurrency.to_string())
                    .env("RUST_LOG", "error")
                    .stdin(Stdio::piped())
                    .spawn()
                    .context("starting a jobs-worker process")?,
            );
        }
        Ok(Self(children))
    }
}

impl Drop for Workers {
    /// Closing a worker's stdin is its shutdown signal: it lets running jobs finish.
    fn drop(&mut self) {
        for c in &mut self.0 {
            drop(c.stdin.take());
        }
        for c in &mut self.0 {
            let deadline = Instant::now() + Duration::from_secs(40);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = c.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

struct Figures {
    workers: usize,
    jobs_per_sec: f64,
    p50: Duration,
    p99: Duration,
    latency_jobs: usize,
}

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    let total: usize = args
        .first()
        .map(|a| a.parse())
        .transpose()
        .context("JOBS must be a number")?
        .unwrap_or(50_000);
    let concurrency: usize = args
        .get(1)
        .map(|a| a.parse())
        .transpose()
        .context("CONCURRENCY must be a number")?
        .unwrap_or(4);
    if !(1..=256).contains(&concurrency) {
        bail!("CONCURRENCY must be between 1 and 256");
    }
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let db = rt.block_on(testkit::TestDb::new());
    let url = db.url.clone();
    let result = (|| -> anyhow::Result<(Vec<Figures>, f64, f64)> {
        let mut figures = vec![];
        for n in [1usize, 2] {
            let queued_rate = rt.block_on(enqueue_bulk(&db.pool, total))?;
            let workers = Workers::start(n, &url, concurrency)?;
            let jobs_per_sec = rt.block_on(drained(&db.pool, total))?;
            eprintln!("  {n} worker(s): {jobs_per_sec:.0} jobs/s (queued at {queued_rate:.0}/s)");
            let (p50, p99, latency_jobs) = rt.block_on(paced_latency(&db.pool))?;
            eprintln!(
                "  {n} worker(s): enqueue-to-start p50 {} p99 {}",
                ms(p50),
                ms(p99)
            );
            drop(workers);
            figures.push(Figures {
                workers: n,
                jobs_per_sec,
                p50,
                p99,
                latency_jobs,
            });
        }
        let batch = concurrency.clamp(1, 50);
        let reference = rt.block_on(postgres_alone(&db.pool, total, concurrency, batch))?;
        let queued_rate = rt.block_on(enqueue_bulk(&db.pool, total))?;
        rt.block_on(clear(&db.pool))?;
        Ok((figures, reference, queued_rate))
    })();
    // Dropping it drops the database.
    drop(db);
    let (figures, reference, queued_rate) = result?;

    println!(
        "\njobs: {total} noop jobs per case, WORKER_CONCURRENCY {concurrency} (fetch batch {}), {cores} cores (workers, Postgres and this driver on one machine)\n",
        concurrency.clamp(1, 50)
    );
    println!(
        "{:<34} {:>10} {:>10} {:>12} {:>12}",
        "case", "jobs/s", "x PG-alone", "start p50", "start p99"
    );
    for f in &figures {
        println!(
            "{:<34} {:>10.0} {:>10.2} {:>12} {:>12}",
            format!(
                "{} worker process{}",
                f.workers,
                if f.workers == 1 { "" } else { "es" }
            ),
            f.jobs_per_sec,
            f.jobs_per_sec / reference,
            ms(f.p50),
            ms(f.p99)
        );
    }
    println!(
        "{:<34} {:>10.0} {:>10} {:>12} {:>12}",
        "Postgres alone: claim+finish/batch", reference, "1.00", "-", "-"
    );
    println!(
        "\nlatency: {} jobs queued one per statement at {PACED_RATE:.0}/s onto idle workers; enqueue (bulk, {INSERT_BATCH}/insert): {queued_rate:.0} jobs/s",
        figures[0].latency_jobs
    );
    let best = figures.iter().map(|f| f.jobs_per_sec).fold(0.0, f64::max);
    let p50 = figures.iter().map(|f| f.p50).min().unwrap_or_default();
    println!(
        "goal 5,000 jobs/s: {}; goal p50 < 10 ms: {}",
        if best >= 5_000.0 { "met" } else { "NOT met" },
        if p50 < Duration::from_millis(10) {
            "met"
        } else {
            "NOT met"
        }
    );
    Ok(())
}

fn noop_task() -> anyhow::Result<apalis_postgres::PgTask> {
    let bytes = serde_json::to_vec(&Noop {})?;
    let id = ulid::Ulid::generate().to_string();
    Ok(TaskBuilder::new(bytes)
        .task_id(TaskId::from(id))
        .max_attempts(Noop::MAX_ATTEMPTS)
        .build())
}

async fn clear(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::query("DELETE FROM apalis.jobs WHERE job_type = $1")
        .bind(Noop::KIND)
        .execute(pool)
        .await?;
    Ok(())
}

/// Queues `total` noop jobs, [`INSERT_BATCH`] per statement, onto an empty noop queue; returns
/// the rate.
async fn enqueue_bulk(pool: &PgPool, total: usize) -> anyhow::Result<f64> {
    clear(pool).await?;
    let started = Instant::now();
    let mut conn = pool.acquire().await?;
    let mut left = total;
    while left > 0 {
        let n = left.min(INSERT_BATCH);
        let tasks = (0..n)
            .map(|_| noop_task())
            .collect::<anyhow::Result<Vec<_>>>()?;
        apalis_postgres::queries::push_tasks(&mut *conn, Noop::KIND, tasks)
            .await
            .map_err(|e| anyhow::anyhow!("queueing: {e}"))?;
        left -= n;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

/// Waits until every noop job is done; jobs/s from the first start to the last finish.
async fn drained(pool: &PgPool, total: usize) -> anyhow::Result<f64> {
    let deadline = Instant::now() + Duration::from_secs(1_800);
    loop {
        let (done, failed): (i64, i64) = sqlx::query_as(
            "SELECT count(*) FILTER (WHERE status = 'Done'), count(*) FILTER (WHERE status IN ('Failed', 'Killed')) FROM apalis.jobs WHERE job_type = $1",
        )
        .bind(Noop::KIND)
        .fetch_one(pool)
        .await?;
        if failed > 0 {
            bail!("{failed} noop jobs failed");
        }
        if done as usize >= total {
            break;
        }
        if Instant::now() > deadline {
            bail!("only {done} of {total} jobs done after 30 minutes");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let secs: f64 = sqlx::query_scalar("SELECT EXTRACT(EPOCH FROM max(done_at) - min(lock_at))::float8 FROM apalis.jobs WHERE job_type = $1")
        .bind(Noop::KIND)
        .fetch_one(pool)
        .await?;
    Ok(total as f64 / secs.max(1e-6))
}

/// Jobs queued one per statement at [`PACED_RATE`] for [`PACED_FOR`]; the enqueue-to-start
/// percentiles once all have run.
async fn paced_latency(pool: &PgPool) -> anyhow::Result<(Duration, Duration, usize)> {
    clear(pool).await?;
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / PACED_RATE));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let started = Instant::now();
    let mut n = 0;
    let mut conn = pool.acquire().await?;
    while started.elapsed() < PACED_FOR {
        tick.tick().await;
        domain::infra::queue::push(&mut conn, &Noop {}, None).await?;
        n += 1;
    }
    drop(conn);
    drained(pool, n).await?;
    let waits: Vec<f64> = sqlx::query_scalar(
        "SELECT EXTRACT(EPOCH FROM lock_at - run_at)::float8 AS w FROM apalis.jobs WHERE job_type = $1 ORDER BY w",
    )
    .bind(Noop::KIND)
    .fetch_all(pool)
    .await?;
    let pct = |p: usize| {
        Duration::from_secs_f64(waits[((waits.len() * p) / 100).min(waits.len() - 1)].max(0.0))
    };
    Ok((pct(50), pct(99), n))
}

/// The reference: `total` queued jobs claimed and finished by `connections` connections, one
/// statement per batch of `batch`, nothing else.
async fn postgres_alone(
    pool: &PgPool,
    total: usize,
    connections: usize,
    batch: usize,
) -> anyhow::Result<f64> {
    enqueue_bulk(pool, total).await?;
    let started = Instant::now();
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move {
                loop {
                    let n = sqlx::query(
                        "WITH j AS (
                             SELECT id FROM apalis.jobs
                              WHERE job_type = $1 AND status = 'Pending' AND run_at < now()
                              ORDER BY priority DESC, run_at ASC LIMIT $2 FOR UPDATE SKIP LOCKED)
                         UPDATE apalis.jobs SET status = 'Done', attempts = 1, lock_at = now(), done_at = now()
                           FROM j WHERE apalis.jobs.id = j.id",
                    )
                    .bind(Noop::KIND)
                    .bind(batch as i64)
                    .execute(&pool)
                    .await?
                    .rows_affected();
                    if n == 0 {
                        return anyhow::Ok(());
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
