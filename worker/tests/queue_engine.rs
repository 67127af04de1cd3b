//! The queue engine's books on a busy queue (issue 26): two engines work one queue of jobs,
//! some of which fail once. A busy worker's claim carries the attempts it just finished (one
//! statement per job); an idle one's completer writes them. Either way every job runs until
//! done and no more, every attempt is in `job_attempts` once with its outcome, and nothing is
//! left running or unrecorded when the engines stop.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use jobs::{Job, JobContext, Task};
use serde::{Deserialize, Serialize};
use testkit::TestDb;

const JOBS: u32 = 3_000;
/// Every this-many-th job fails its first attempt.
const FAILS_ONCE_EVERY: u32 = 7;

/// Runs of each job, by its number, across both engines.
static RUNS: Mutex<Option<HashMap<u32, u32>>> = Mutex::new(None);

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Counted {
    n: u32,
}

impl Task for Counted {
    const KIND: &'static str = "counted";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for Counted {
    async fn run(self, _ctx: &JobContext) -> anyhow::Result<()> {
        let runs = {
            let mut all = RUNS.lock().unwrap();
            let runs = all
                .get_or_insert_with(HashMap::new)
                .entry(self.n)
                .or_default();
            *runs += 1;
            *runs
        };
        if self.n.is_multiple_of(FAILS_ONCE_EVERY) && runs == 1 {
            anyhow::bail!("job {} fails its first attempt", self.n);
        }
        Ok(())
    }
}

async fn engine(
    url: &str,
    name: &str,
    stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<anyhow::Result<()>> {
    let mut config = testkit::config(url);
    config.worker_concurrency = 16;
    config.worker_fetch_batch = 8;
    config.worker_heartbeat = Duration::from_secs(1);
    config.job_retry_base = Duration::from_millis(50);
    let pool = domain::infra::db::connect_as(url, jobs::runner::pool_size(&config), "worker")
        .await
        .unwrap();
    let ctx = JobContext::new(pool, Arc::new(config)).unwrap();
    let mut process = jobs::workers::Process::current(16);
    process.id = format!("{}-{name}", process.id);
    let registry = jobs::registry::Registry::new().job::<Counted>();
    let mut stop = stop;
    tokio::spawn(jobs::workers::run(ctx, registry, process, async move {
        let _ = stop.wait_for(|s| *s).await;
    }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_busy_engines_run_every_job_until_done_and_record_every_attempt_once() {
    let db = TestDb::new().await;
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let engines = vec![
        engine(&db.url, "a", stop.clone()).await,
        engine(&db.url, "b", stop.clone()).await,
    ];
    // Queued while the engines run, in bursts, so that claims and finishes interleave.
    for chunk in (0..JOBS).collect::<Vec<_>>().chunks(500) {
        let mut tx = db.pool.begin().await.unwrap();
        for &n in chunk {
            jobs::enqueue(&mut tx, &Counted { n }).await.unwrap();
        }
        tx.commit().await.unwrap();
    }

    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (done, other): (i64, i64) = sqlx::query_as(
            "SELECT count(*) FILTER (WHERE status = 'Done'), count(*) FILTER (WHERE status <> 'Done')
               FROM apalis.jobs WHERE job_type = 'counted'",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        if done == i64::from(JOBS) {
            assert_eq!(other, 0);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{done} of {JOBS} jobs done, {other} not"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop_tx.send(true).unwrap();
    for e in engines {
        e.await.unwrap().unwrap();
    }

    let fails = (0..JOBS)
        .filter(|n| n.is_multiple_of(FAILS_ONCE_EVERY))
        .count();
    // Only this test's jobs (numbered below JOBS): `cargo test` runs the others alongside.
    let runs: HashMap<u32, u32> = RUNS.lock().unwrap().clone().unwrap_or_default();
    let runs: HashMap<u32, u32> = runs.into_iter().filter(|(n, _)| *n < JOBS).collect();
    assert_eq!(runs.len(), JOBS as usize);
    for (n, r) in &runs {
        let expected = if n.is_multiple_of(FAILS_ONCE_EVERY) {
            2
        } else {
            1
        };
        assert_eq!(*r, expected, "job {n} ran {r} times");
    }

    // The table's books: attempts counted on each job, and each attempt recorded once.
    let attempts: Vec<(i32, i64)> = sqlx::query_as(
        "SELECT attempts, count(*) FROM apalis.jobs WHERE job_type = 'counted' GROUP BY attempts ORDER BY attempts",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(
        attempts,
        vec![(1, i64::from(JOBS) - fails as i64), (2, fails as i64)]
    );
    let recorded: Vec<(String, i64)> = sqlx::query_as(
        "SELECT outcome, count(*) FROM job_attempts WHERE kind = 'counted' GROUP BY outcome ORDER BY outcome",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(
        recorded,
        vec![
            ("done".to_owned(), i64::from(JOBS)),
            ("retrying".to_owned(), fails as i64)
        ]
    );
    let twice: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT job_id, attempt FROM job_attempts GROUP BY 1, 2 HAVING count(*) > 1) t",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(twice, 0);
    // Both engines took part.
    let workers: i64 = sqlx::query_scalar(
        "SELECT count(DISTINCT worker) FROM job_attempts WHERE kind = 'counted'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(workers, 2);
}

#[tokio::test]
async fn a_running_job_whose_worker_has_no_row_goes_back_to_the_queue() {
    let db = TestDb::new().await;
    let id = jobs::enqueue_now(&db.pool, &Counted { n: 1_000_000 })
        .await
        .unwrap();
    // Locked an hour ago by a worker that left no row in apalis.workers (deleted by hand).
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Running', lock_by = 'gone-host-1', lock_at = now() - interval '1 hour' WHERE id = $1",
    )
    .bind(&id)
    .execute(&db.pool)
    .await
    .unwrap();
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let engine = engine(&db.url, "orphans", stop).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let status: String = sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = $1")
            .bind(&id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        if status == "Done" {
            break;
        }
        assert!(Instant::now() < deadline, "the orphaned job is {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop_tx.send(true).unwrap();
    engine.await.unwrap().unwrap();
    let attempts: Vec<(String, String)> =
        sqlx::query_as("SELECT outcome, worker FROM job_attempts WHERE job_id = $1 ORDER BY id")
            .bind(&id)
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(attempts[0], ("lost".to_owned(), "gone-host-1".to_owned()));
    assert_eq!(attempts[1].0, "done");
    assert_eq!(attempts.len(), 2);
}
