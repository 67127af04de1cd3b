//! The queue engine under a failing database (issue 26): connections cut again and again while
//! the worker fetches, then refused for a while, and the worker resumes by itself; a job left
//! running by a worker cut off from the database is taken again by another; a worker that
//! cannot reach its queue exits non-zero; a paused kind waits and runs once resumed.

mod support;

use std::time::{Duration, Instant};

use domain::{
    PgPool,
    infra::{audit::Actor, queue},
    mail::Email,
};
use support::spawn_worker;
use testkit::{SmtpServer, TcpProxy, TestDb};

async fn job_status(pool: &PgPool, id: &str) -> String {
    sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn mail(pool: &PgPool, to: &str) -> String {
    jobs::enqueue_now(
        pool,
        &jobs::SendMail::new(Email::new(to, "Queue test", "body")),
    )
    .await
    .unwrap()
}

/// Ends every connection the workers of `db` hold, as an operator's `pg_terminate_backend` or
/// a database restart does.
async fn terminate_workers(admin: &PgPool, db: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'worker' AND datname = $1) t",
    )
    .bind(db)
    .fetch_one(admin)
    .await
    .unwrap()
}

async fn counts(pool: &PgPool) -> (i64, i64) {
    sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status = 'Done'), count(*) FILTER (WHERE status <> 'Done')
           FROM apalis.jobs WHERE job_type = 'send_mail'",
    )
    .fetch_one(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_worker_resumes_after_its_connections_are_cut_again_and_again_then_refused() {
    let db = TestDb::new().await;
    let smtp = SmtpServer::start().await;
    let (proxy, through) = TcpProxy::postgres(&db.url).await;
    let mut worker = spawn_worker(&through, smtp.port, &[("WORKER_GIVE_UP_SECS", "120")]);
    for i in 0..300 {
        mail(&db.pool, &format!("before{i}@example.in")).await;
    }
    let started = testkit::eventually(Duration::from_secs(30), || async {
        (counts(&db.pool).await.0 > 0).then_some(())
    })
    .await;
    assert!(started.is_some(), "the worker never took a job");

    // Five seconds of connections dropped every 100 ms while it fetches: by the network
    // (the proxy) and by the server (pg_terminate_backend on its application_name).
    let mut terminated = 0;
    for i in 0..50 {
        if i % 2 == 0 {
            proxy.cut();
        } else {
            terminated += terminate_workers(&db.pool, &db.name).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(terminated > 0, "the worker's connections were never seen");
    // Then refused for eight seconds, as during a restart or a failover.
    proxy.refuse();
    tokio::time::sleep(Duration::from_secs(8)).await;
    assert!(
        worker.try_wait().unwrap().is_none(),
        "the worker gave up during a short outage"
    );
    proxy.accept();
    let back = Instant::now();
    let after = mail(&db.pool, "after@example.in").await;

    let drained = testkit::eventually(Duration::from_secs(90), || async {
        (counts(&db.pool).await == (301, 0)).then_some(())
    })
    .await;
    assert!(
        drained.is_some(),
        "not every job finished after the outage: (done, other) = {:?}",
        counts(&db.pool).await
    );
    assert_eq!(job_status(&db.pool, &after).await, "Done");
    eprintln!("drained {:?} after the outage", back.elapsed());
    // Every mail delivered, each recorded once.
    let (messages, recorded): (i64, i64) =
        sqlx::query_as("SELECT count(DISTINCT message_id), count(*) FROM mail_deliveries")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!((messages, recorded), (301, 301));
    // A mail whose delivery could not be recorded (the connection dropped right after the
    // send) may go out again: at least once each, never lost.
    assert!(smtp.received().len() >= 301, "{}", smtp.received().len());

    // It shows as running, with its queues, on the Jobs page's list.
    let shown = testkit::eventually(Duration::from_secs(10), || async {
        let list = domain::infra::worker_processes::recent(&db.pool, Duration::from_secs(1))
            .await
            .unwrap();
        list.into_iter()
            .find(|w| w.status == "running" && w.queues.iter().any(|q| q == "send_mail"))
    })
    .await;
    assert!(shown.is_some(), "the worker is not shown as running");
    assert!(worker.try_wait().unwrap().is_none(), "the worker died");
    worker.kill().unwrap();
    worker.wait().unwrap();
}

#[tokio::test]
async fn a_job_running_on_a_lost_connection_is_taken_again_and_the_cut_off_worker_exits() {
    let db = TestDb::new().await;
    // The first message is swallowed without an answer: the job stays running on worker A.
    let smtp = SmtpServer::start_with(true).await;
    let (proxy, through) = TcpProxy::postgres(&db.url).await;
    let mut a = spawn_worker(&through, smtp.port, &[("WORKER_GIVE_UP_SECS", "5")]);
    let id = mail(&db.pool, "once@example.in").await;
    // Running, and inside its delivery: the SMTP server holds the message (the job's status
    // turns Running at its claim, before the handler reaches the server).
    let running = testkit::eventually(Duration::from_secs(30), || async {
        (job_status(&db.pool, &id).await == "Running" && smtp.stalled_one()).then_some(())
    })
    .await;
    assert!(running.is_some(), "job never started");

    // A loses the database for good; B, which reaches it, takes the job once A's heartbeats
    // have stopped for three beats.
    proxy.refuse();
    let cut_at = Instant::now();
    let mut b = spawn_worker(&db.url, smtp.port, &[]);
    let done = testkit::eventually(Duration::from_secs(40), || async {
        (job_status(&db.pool, &id).await == "Done").then_some(())
    })
    .await;
    assert!(
        done.is_some(),
        "the job was not taken again: {}",
        job_status(&db.pool, &id).await
    );
    assert_eq!(smtp.received().len(), 1, "delivered once");
    let attempts: i32 = sqlx::query_scalar("SELECT attempts FROM apalis.jobs WHERE id = $1")
        .bind(&id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "the lost attempt counts");

    // A cannot recover its queue: it exits non-zero after WORKER_GIVE_UP_SECS.
    let exited = testkit::eventually(Duration::from_secs(40), || {
        let status = a.try_wait().unwrap();
        async move { status }
    })
    .await
    .expect("the cut-off worker lives on without its queue");
    assert!(!exited.success(), "exit status {exited:?}");
    assert!(cut_at.elapsed() >= Duration::from_secs(5));
    b.kill().unwrap();
    b.wait().unwrap();
}

#[tokio::test]
async fn a_paused_kind_waits_and_runs_once_resumed() {
    let db = TestDb::new().await;
    let smtp = SmtpServer::start().await;
    let mut worker = spawn_worker(&db.url, smtp.port, &[]);
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(
        queue::pause(&mut conn, "send_mail", Actor::superadmin(1))
            .await
            .unwrap()
    );
    assert!(
        !queue::pause(&mut conn, "send_mail", Actor::system())
            .await
            .unwrap(),
        "paused already"
    );
    let paused = queue::paused(&mut conn).await.unwrap();
    assert_eq!(
        paused
            .iter()
            .map(|p| (p.kind.as_str(), p.paused_by.as_str()))
            .collect::<Vec<_>>(),
        [("send_mail", "superadmin:1")]
    );
    let id = mail(&db.pool, "paused@example.in").await;
    // Another kind still runs meanwhile.
    let other = jobs::enqueue_now(&db.pool, &jobs::AggregateIpHits::default())
        .await
        .unwrap();
    let ran = testkit::eventually(Duration::from_secs(30), || async {
        (job_status(&db.pool, &other).await == "Done").then_some(())
    })
    .await;
    assert!(ran.is_some(), "the worker runs the kinds not paused");
    tokio::time::sleep(Duration::from_secs(2)).await; // two polls at least
    assert_eq!(job_status(&db.pool, &id).await, "Pending");
    assert!(smtp.received().is_empty());

    let resumed = Instant::now();
    assert!(
        queue::resume(&mut conn, "send_mail", Actor::superadmin(1))
            .await
            .unwrap()
    );
    assert!(queue::paused(&mut conn).await.unwrap().is_empty());
    let done = testkit::eventually(Duration::from_secs(20), || async {
        (job_status(&db.pool, &id).await == "Done").then_some(())
    })
    .await;
    assert!(done.is_some(), "the resumed kind's job never ran");
    assert!(
        resumed.elapsed() < Duration::from_secs(5),
        "resumed, the job waited {:?}",
        resumed.elapsed()
    );
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE entity = 'job_kind' AND entity_id = 'send_mail'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(audited, 2, "pause and resume audited");
    worker.kill().unwrap();
    worker.wait().unwrap();
}
