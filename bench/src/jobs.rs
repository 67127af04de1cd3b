//! `jobs`: the job queue with real worker processes (this binary re-run as `jobs-worker`, which
//! runs `jobs::workers::run`, the `worker` binary's loop, with every kind and schedule of the
//! platform plus this benchmark's own `noop` kind) on a throw-away database made for the run
//! and dropped at its end. For one and for two worker processes it prints:
//!
//! 1. throughput: JOBS (50,000) `noop` jobs queued up front (1,000 per insert), then worked;
//!    jobs/s = JOBS / (last finish - first start), on Postgres's clock;
//! 2. enqueue-to-start latency at the handler's real start: each `noop` job carries the wall
//!    clock of the moment before its insert was sent, and its handler records the difference
//!    when it starts (the worker process hands the samples back when it stops). Once with the
//!    workers idle (jobs queued one per statement at 200/s for 5 s) and once under load (jobs
//!    queued every 5 ms at 80% of the throughput just measured, for 5 s): p50 and p99;
//!
//! and, as the reference measured in the same run, Postgres alone: the same JOBS claimed and
//! finished with one statement per batch (`UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED
//! LIMIT batch)`) by [`REFERENCE_CONNECTIONS`] connections, with the workers' fetch batch.
//!
//! It fails (non-zero exit) below the floors: idle p50 at 50 ms or more, or fewer than 2,500
//! jobs/s with two worker processes.
//!
//! `cargo run -p bench --release -- jobs [JOBS] [CONCURRENCY] [FETCH_BATCH]` (Postgres at
//! `TEST_DATABASE_URL`; CONCURRENCY and FETCH_BATCH are each worker's `WORKER_CONCURRENCY` and
//! `WORKER_FETCH_BATCH`, default 64 and 32: with slots for two batches, a worker claims its next
//! batch while the last one runs, yet never claims more than it can start at once).

use std::{
    io::Write,
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use anyhow::{Context, bail};
use apalis::prelude::{TaskBuilder, TaskId};
use jobs::{Job, JobContext, Task};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;

const INSERT_BATCH: usize = 1_000;
const PACED_RATE: f64 = 200.0;
const PACED_FOR: Duration = Duration::from_secs(5);
/// Under load, jobs are queued in one statement every this often.
const LOADED_EVERY: Duration = Duration::from_millis(5);
const LOADED_SHARE: f64 = 0.8;
const REFERENCE_CONNECTIONS: usize = 4;
const FLOOR_JOBS_PER_SEC: f64 = 2_500.0;
const FLOOR_P50: Duration = Duration::from_millis(50);

/// The benchmark's own kind: does nothing but record when it started. Registered only by
/// `jobs-worker`, never by the platform's workers.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Noop {
    /// Microseconds since the epoch just before the insert was sent; 0: not measured.
    #[serde(default)]
    sent_us: i64,
    /// Which measurement it belongs to.
    #[serde(default)]
    phase: u8,
}

impl Task for Noop {
    const KIND: &'static str = "noop";
    const MAX_ATTEMPTS: usize = 1;
}

/// (phase, enqueue-to-start in µs) of every measured job this process started.
static STARTS: Mutex<Vec<(u8, i64)>> = Mutex::new(Vec::new());

fn now_us() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or_default()
}

impl Job for Noop {
    async fn run(self, _ctx: &JobContext) -> anyhow::Result<()> {
        if self.sent_us > 0 {
            let waited = now_us() - self.sent_us;
            STARTS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((self.phase, waited));
        }
        Ok(())
    }
}

const IDLE: u8 = 1;
const LOADED: u8 = 2;

/// `jobs-worker`: one worker process for [`run`], on the database its parent names, until its
/// parent closes its stdin (or it is killed); then it writes its start samples to
/// `BENCH_JOBS_STARTS`, one `phase microseconds` per line.
pub fn worker(_args: Vec<String>) -> anyhow::Result<()> {
    let url = std::env::var("BENCH_JOBS_DATABASE_URL")
        .context("BENCH_JOBS_DATABASE_URL: run through `bench jobs`")?;
    let number = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(default)
    };
    let concurrency = number("BENCH_JOBS_CONCURRENCY", 32);
    let batch = number("BENCH_JOBS_FETCH_BATCH", 32);
    let starts = std::env::var("BENCH_JOBS_STARTS").context("BENCH_JOBS_STARTS")?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let mut config = testkit::config(&url);
        config.worker_concurrency = concurrency;
        config.worker_fetch_batch = batch;
        config.worker_heartbeat = Duration::from_secs(5);
        config.database_max_connections = 100;
        let pool =
            domain::infra::db::connect_as(&url, jobs::runner::pool_size(&config), "worker").await?;
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
        let registry = jobs::registry::platform().job::<Noop>();
        jobs::workers::run(ctx, registry, process, stdin_closed).await
    })?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(starts)?);
    for (phase, us) in STARTS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        writeln!(out, "{phase} {us}")?;
    }
    out.flush()?;
    Ok(())
}

struct Workers {
    children: Vec<Child>,
    starts: Vec<std::path::PathBuf>,
}

impl Workers {
    fn start(n: usize, url: &str, concurrency: usize, batch: usize) -> anyhow::Result<Self> {
        let exe = std::env::current_exe()?;
        let dir = testkit::scratch_dir("bench-jobs");
        let mut children = vec![];
        let mut starts = vec![];
        for i in 0..n {
            let file = dir.join(format!("starts-{i}.txt"));
            children.push(
                Command::new(&exe)
                    .arg("jobs-worker")
                    .env("BENCH_JOBS_DATABASE_URL", url)
                    .env("BENCH_JOBS_CONCURRENCY", concurrency.to_string())
                    .env("BENCH_JOBS_FETCH_BATCH", batch.to_string())
                    .env("BENCH_JOBS_STARTS", &file)
                    .env("RUST_LOG", "error")
                    .stdin(Stdio::piped())
                    .spawn()
                    .context("starting a jobs-worker process")?,
            );
            starts.push(file);
        }
        Ok(Self { children, starts })
    }

    /// Stops the workers (closing a worker's stdin is its shutdown signal: it lets running
    /// jobs finish) and returns the start samples of `phase`, in microseconds, sorted.
    fn stop(mut self, phases: &[u8]) -> anyhow::Result<Vec<Vec<i64>>> {
        self.shut_down();
        let mut samples = vec![vec![]; phases.len()];
        for f in &self.starts {
            let text =
                std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
            for line in text.lines() {
                let mut parts = line.split(' ');
                let (Some(p), Some(us)) = (parts.next(), parts.next()) else {
                    continue;
                };
                let p: u8 = p.parse()?;
                if let Some(i) = phases.iter().position(|&q| q == p) {
                    samples[i].push(us.parse::<i64>()?);
                }
            }
        }
        for s in &mut samples {
            s.sort_unstable();
        }
        Ok(samples)
    }

    fn shut_down(&mut self) {
        for c in &mut self.children {
            drop(c.stdin.take());
        }
        for c in &mut self.children {
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
        self.children.clear();
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.shut_down();
    }
}

struct Figures {
    workers: usize,
    jobs_per_sec: f64,
    idle: Percentiles,
    loaded: Percentiles,
    loaded_rate: f64,
}

#[derive(Clone, Copy, Default)]
struct Percentiles {
    p50: Duration,
    p99: Duration,
    n: usize,
}

fn percentiles(samples: &[i64]) -> Percentiles {
    if samples.is_empty() {
        return Percentiles::default();
    }
    let at = |p: usize| {
        Duration::from_micros(
            samples[((samples.len() * p) / 100).min(samples.len() - 1)].max(0) as u64,
        )
    };
    Percentiles {
        p50: at(50),
        p99: at(99),
        n: samples.len(),
    }
}

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    let arg = |i: usize, name: &str, default: usize| -> anyhow::Result<usize> {
        args.get(i)
            .map(|a| a.parse())
            .transpose()
            .with_context(|| format!("{name} must be a number"))
            .map(|v| v.unwrap_or(default))
    };
    let total = arg(0, "JOBS", 50_000)?;
    let concurrency = arg(1, "CONCURRENCY", 64)?;
    let batch = arg(2, "FETCH_BATCH", 32)?;
    if !(1..=256).contains(&concurrency) || !(1..=1_000).contains(&batch) {
        bail!("CONCURRENCY must be between 1 and 256, FETCH_BATCH between 1 and 1000");
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
            let workers = Workers::start(n, &url, concurrency, batch)?;
            let jobs_per_sec = rt.block_on(drained(&db.pool, total))?;
            eprintln!("  {n} worker(s): {jobs_per_sec:.0} jobs/s (queued at {queued_rate:.0}/s)");
            rt.block_on(paced(
                &db.pool,
                PACED_RATE,
                Duration::from_secs_f64(1.0 / PACED_RATE),
                IDLE,
            ))?;
            let loaded_rate = jobs_per_sec * LOADED_SHARE;
            rt.block_on(paced(&db.pool, loaded_rate, LOADED_EVERY, LOADED))?;
            let samples = workers.stop(&[IDLE, LOADED])?;
            let idle = percentiles(&samples[0]);
            let loaded = percentiles(&samples[1]);
            eprintln!(
                "  {n} worker(s): start idle p50 {} p99 {}; at {loaded_rate:.0}/s p50 {} p99 {}",
                ms(idle.p50),
                ms(idle.p99),
                ms(loaded.p50),
                ms(loaded.p99)
            );
            figures.push(Figures {
                workers: n,
                jobs_per_sec,
                idle,
                loaded,
                loaded_rate,
            });
        }
        let reference = rt.block_on(postgres_alone(
            &db.pool,
            total,
            REFERENCE_CONNECTIONS,
            batch,
        ))?;
        let queued_rate = rt.block_on(enqueue_bulk(&db.pool, total))?;
        rt.block_on(clear(&db.pool))?;
        Ok((figures, reference, queued_rate))
    })();
    // Dropping it drops the database.
    drop(db);
    let (figures, reference, queued_rate) = result?;

    println!(
        "\njobs: {total} noop jobs per case, WORKER_CONCURRENCY {concurrency}, WORKER_FETCH_BATCH {batch}, {cores} cores (workers, Postgres and this driver on one machine)\n"
    );
    println!(
        "{:<36} {:>8} {:>10} {:>10} {:>10} {:>12} {:>10} {:>10}",
        "case", "jobs/s", "x PG-alone", "idle p50", "idle p99", "loaded at/s", "p50", "p99"
    );
    for f in &figures {
        println!(
            "{:<36} {:>8.0} {:>10.2} {:>10} {:>10} {:>12.0} {:>10} {:>10}",
            format!(
                "{} worker process{}",
                f.workers,
                if f.workers == 1 { "" } else { "es" }
            ),
            f.jobs_per_sec,
            f.jobs_per_sec / reference,
            ms(f.idle.p50),
            ms(f.idle.p99),
            f.loaded_rate,
            ms(f.loaded.p50),
            ms(f.loaded.p99)
        );
    }
    println!(
        "{:<36} {:>8.0} {:>10}",
        format!("Postgres alone ({REFERENCE_CONNECTIONS} conns, batch {batch})"),
        reference,
        "1.00"
    );
    println!(
        "\nstart latency: from just before the job's insert to its handler's start; idle: {} jobs one per statement at {PACED_RATE:.0}/s; loaded: one statement every {} ms at 80% of the throughput above. Bulk enqueue ({INSERT_BATCH}/insert): {queued_rate:.0} jobs/s",
        figures[0].idle.n,
        LOADED_EVERY.as_millis()
    );
    let two = figures
        .iter()
        .find(|f| f.workers == 2)
        .map_or(0.0, |f| f.jobs_per_sec);
    let p50 = figures.iter().map(|f| f.idle.p50).max().unwrap_or_default();
    let ratio = two / reference;
    println!(
        "goal 5,000 jobs/s with two workers: {}; goal ratio 0.5: {}; goal idle p50 < 10 ms: {}",
        if two >= 5_000.0 { "met" } else { "NOT met" },
        if ratio >= 0.5 { "met" } else { "NOT met" },
        if p50 < Duration::from_millis(10) {
            "met"
        } else {
            "NOT met"
        }
    );
    if two < FLOOR_JOBS_PER_SEC {
        bail!("below the floor: {two:.0} jobs/s with two workers (floor {FLOOR_JOBS_PER_SEC:.0})");
    }
    if p50 >= FLOOR_P50 {
        bail!(
            "below the floor: idle start p50 {} (floor: under {})",
            ms(p50),
            ms(FLOOR_P50)
        );
    }
    Ok(())
}

fn noop_task(job: &Noop) -> anyhow::Result<apalis_postgres::PgTask> {
    let bytes = serde_json::to_vec(job)?;
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
            .map(|_| noop_task(&Noop::default()))
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
        // While the workers run, only "is any job left?", answered by the queue's two partial
        // indexes (due jobs, running jobs): a count of the whole table, once a second, took
        // Postgres's time from the workers that the reference below never had to share.
        let left: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM apalis.jobs WHERE job_type = $1
                               AND (status = 'Pending' OR (status = 'Failed' AND attempts < max_attempts)))
                 OR EXISTS (SELECT 1 FROM apalis.jobs WHERE status = 'Running' AND job_type = $1)",
        )
        .bind(Noop::KIND)
        .fetch_one(pool)
        .await?;
        if !left {
            let (done, failed): (i64, i64) = sqlx::query_as(
                "SELECT count(*) FILTER (WHERE status = 'Done'), count(*) FILTER (WHERE status <> 'Done') FROM apalis.jobs WHERE job_type = $1",
            )
            .bind(Noop::KIND)
            .fetch_one(pool)
            .await?;
            if failed > 0 {
                bail!("{failed} noop jobs did not end done");
            }
            if done as usize != total {
                bail!("{done} noop jobs done of {total}");
            }
            break;
        }
        if Instant::now() > deadline {
            bail!("jobs still left after 30 minutes");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let secs: f64 = sqlx::query_scalar("SELECT EXTRACT(EPOCH FROM max(done_at) - min(lock_at))::float8 FROM apalis.jobs WHERE job_type = $1")
        .bind(Noop::KIND)
        .fetch_one(pool)
        .await?;
    Ok(total as f64 / secs.max(1e-6))
}

/// Queues measured noop jobs of `phase` at `rate` per second for [`PACED_FOR`], one statement
/// every `every` (as many jobs as the rate asks for by then), each stamped just before its
/// statement is sent; waits until all have run.
async fn paced(pool: &PgPool, rate: f64, every: Duration, phase: u8) -> anyhow::Result<()> {
    clear(pool).await?;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let started = Instant::now();
    let mut queued = 0usize;
    let mut conn = pool.acquire().await?;
    while started.elapsed() < PACED_FOR {
        tick.tick().await;
        let due = (started.elapsed().as_secs_f64() * rate) as usize;
        let n = due.saturating_sub(queued).max(1);
        let job = Noop {
            sent_us: now_us(),
            phase,
        };
        let tasks = (0..n)
            .map(|_| noop_task(&job))
            .collect::<anyhow::Result<Vec<_>>>()?;
        apalis_postgres::queries::push_tasks(&mut *conn, Noop::KIND, tasks)
            .await
            .map_err(|e| anyhow::anyhow!("queueing: {e}"))?;
        queued += n;
    }
    drop(conn);
    drained(pool, queued).await?;
    Ok(())
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
                              WHERE job_type = $1 AND status = 'Pending' AND run_at <= now()
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
