//! A worker process killed in the middle of a job: after a restart the job is finished, once.
//! Also: SIGTERM stops a worker cleanly, and periodic jobs run once per period however many
//! workers tick.

mod support;

use std::{process::Command, time::Duration};

use domain::mail::Email;
use support::spawn_worker;

async fn job_status(pool: &domain::PgPool, id: &str) -> String {
    sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn killed_worker_job_finishes_once_after_restart() {
    let db = testkit::TestDb::new().await;
    // The server swallows the first message without answering, as if the worker died mid-send.
    let smtp = testkit::SmtpServer::start_with(true).await;
    let email = Email::new("someone@example.in", "Crash test", "body");
    let job_id = jobs::enqueue_now(&db.pool, &jobs::SendMail::new(email.clone()))
        .await
        .unwrap();

    let mut first = spawn_worker(&db.url, smtp.port, &[]);
    let running = testkit::eventually(Duration::from_secs(30), || async {
        (job_status(&db.pool, &job_id).await == "Running").then_some(())
    })
    .await;
    assert!(running.is_some(), "job never started");
    tokio::time::sleep(Duration::from_millis(500)).await; // well inside the stalled DATA phase
    first.kill().unwrap(); // SIGKILL: no chance to clean up
    first.wait().unwrap();
    assert_eq!(
        job_status(&db.pool, &job_id).await,
        "Running",
        "the dead worker still holds the job"
    );
    assert!(smtp.received().is_empty());

    let mut second = spawn_worker(&db.url, smtp.port, &[]);
    let done = testkit::eventually(Duration::from_secs(40), || async {
        (job_status(&db.pool, &job_id).await == "Done").then_some(())
    })
    .await;
    assert!(
        done.is_some(),
        "job not finished after restart: {}",
        job_status(&db.pool, &job_id).await
    );
    tokio::time::sleep(Duration::from_secs(2)).await; // room for a duplicate, if there were one
    assert_eq!(smtp.received().len(), 1, "delivered exactly once");
    let deliveries: i64 =
        sqlx::query_scalar("SELECT count(*) FROM mail_deliveries WHERE message_id = $1")
            .bind(&email.message_id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(deliveries, 1);

    // SIGTERM: a clean, prompt exit.
    let pid = second.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let exited = testkit::eventually(Duration::from_secs(40), || {
        let status = second.try_wait().unwrap();
        async move { status }
    })
    .await
    .expect("worker did not stop on SIGTERM");
    assert!(exited.success(), "worker exit status {exited:?}");
}

#[tokio::test]
async fn periodic_job_runs_once_per_period_across_workers() {
    let db = testkit::TestDb::new().await;
    let smtp = testkit::SmtpServer::start().await;
    let every_second = [("IP_HITS_SCHEDULE", "* * * * * *")];
    let mut workers: Vec<support::Process> = (0..3)
        .map(|_| spawn_worker(&db.url, smtp.port, &every_second))
        .collect();
    tokio::time::sleep(Duration::from_secs(6)).await;
    for w in &mut workers {
        w.kill().unwrap();
        w.wait().unwrap();
    }
    let per_period: Vec<(String, i64)> = sqlx::query_as(
        "SELECT idempotency_key, count(*) FROM apalis.jobs WHERE job_type = 'aggregate_ip_hits' GROUP BY 1 ORDER BY 1",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert!(
        per_period.len() >= 3,
        "three workers ticking every second for 6 s: {per_period:?}"
    );
    assert!(
        per_period.iter().all(|(_, n)| *n == 1),
        "a period ran twice: {per_period:?}"
    );
    let done: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'aggregate_ip_hits' AND status = 'Done'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert!(done >= 2, "periodic jobs were executed: {done}");
}

#[test]
fn a_missing_setting_stops_the_worker_with_one_line() {
    let dir = testkit::scratch_dir("worker-cwd");
    let out = Command::new(env!("CARGO_BIN_EXE_worker"))
        .current_dir(&dir)
        .env_clear()
        .env(
            "DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/postgres",
        )
        .env("ENCRYPTION_KEY", "2a".repeat(32))
        .env(
            "LINK_SIGNING_KEY",
            "test-link-signing-key-of-32-characters!",
        )
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<_> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines,
        ["error: configuration error: JWT_SECRET is not set"],
        "{err}"
    );
}

#[test]
fn a_malformed_setting_names_the_variable() {
    let dir = testkit::scratch_dir("worker-cwd");
    let out = Command::new(env!("CARGO_BIN_EXE_worker"))
        .current_dir(&dir)
        .env_clear()
        .env(
            "DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/postgres",
        )
        .env("JWT_SECRET", "test-jwt-secret-of-at-least-32-characters")
        .env("ENCRYPTION_KEY", "2a".repeat(32))
        .env(
            "LINK_SIGNING_KEY",
            "test-link-signing-key-of-32-characters!",
        )
        .env("WORKER_CONCURRENCY", "lots")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "error: configuration error: WORKER_CONCURRENCY has an invalid value \"lots\"",
        "{err}"
    );
}
