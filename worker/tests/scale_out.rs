//! Scale-out, shown (issue 26): two api processes and three worker processes on one database,
//! every one of them through a TCP proxy in front of Postgres. A mixed load is queued (contact
//! mails through both apis' contact form; exports, a batch of 100 rows and price lists with the
//! routes' own domain calls), one worker is SIGKILLed and the database is cut for 15 s in the
//! middle, more load is queued afterwards, and then every job is found done exactly once, none
//! stuck, and the periodic job once per period.
//!
//! Slow (about a minute and a half) and it needs the `api` binary built beside `worker`, so it
//! is ignored in the ordinary runs: `scripts/scale-out` builds both and runs it.

mod support;

use std::{
    collections::HashSet,
    process::Command,
    time::{Duration, Instant},
};

use domain::{
    PgPool,
    catalogue::plans::{PlanType, PriceItem, Target},
    exports::{Kind, NewExport, Requester, Scope},
    infra::audit::Actor,
};
use sqlx::Connection;
use support::{BatchPartner, spawn_worker};
use testkit::{SmtpServer, TcpProxy, TestDb};

const PRICE: i64 = 250;
const ROWS: usize = 100;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `api serve` on `port`, as the Procfile starts it.
fn spawn_api(db_url: &str, port: u16, smtp_port: u16) -> support::Process {
    let worker = std::path::PathBuf::from(env!("CARGO_BIN_EXE_worker"));
    let api = worker.with_file_name("api");
    assert!(
        api.exists(),
        "{} is missing: build it first (`cargo build -p api --bin api`, as scripts/scale-out does)",
        api.display()
    );
    let dir = testkit::scratch_dir("api-cwd");
    let log = std::fs::File::create(dir.join("api.log")).unwrap();
    support::Process(
        Command::new(api)
            .arg("serve")
            .current_dir(&dir)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", db_url)
            .env("PORT", port.to_string())
            .env("HOST", "127.0.0.1")
            .env("JWT_SECRET", "test-jwt-secret-of-at-least-32-characters")
            .env("ENCRYPTION_KEY", "2a".repeat(32))
            .env(
                "LINK_SIGNING_KEY",
                "test-link-signing-key-of-32-characters!",
            )
            .env("MAIL", "smtp")
            .env("SMTP_HOST", "127.0.0.1")
            .env("SMTP_PORT", smtp_port.to_string())
            .env("SMTP_TLS", "none")
            .env("CAPTCHA", "off")
            .env("RATE_LIMIT_CONTACT", "100000")
            .env("DATABASE_MAX_CONNECTIONS", "10")
            .env("RUST_LOG", "warn")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("starting the api binary"),
    )
}

/// Posts contact messages round-robin to `apis`; returns how many were accepted (202).
async fn contact_mails(http: &reqwest::Client, apis: &[u16], n: usize, tag: &str) -> usize {
    let mut accepted = 0;
    for i in 0..n {
        let port = apis[i % apis.len()];
        let r = http
            .post(format!("http://127.0.0.1:{port}/api/v1/public/contact"))
            .json(&serde_json::json!({
                "name": format!("{tag} {i}"), "email": "asha@example.in", "mobile": "98765",
                "message": format!("Hello {tag} {i}")
            }))
            .send()
            .await;
        if r.is_ok_and(|r| r.status() == 202) {
            accepted += 1;
        }
    }
    accepted
}

/// An export of the partner's API transactions, as `POST /api/v1/exports` writes it.
async fn queue_export(pool: &PgPool, partner_id: i64) -> i64 {
    let mut conn = pool.acquire().await.unwrap();
    let mut tx = conn.begin().await.unwrap();
    let today = domain::exports::today_ist(chrono::Utc::now());
    let id = domain::exports::create(
        &mut tx,
        &NewExport {
            requester: Requester::Partner(partner_id),
            kind: Kind::ApiTransactions,
            scope: Scope::Partner(partner_id),
            from: today - chrono::Days::new(30),
            to: today,
            view: Default::default(),
        },
    )
    .await
    .unwrap();
    let job = jobs::enqueue(&mut tx, &jobs::ExportCsv { export_id: id })
        .await
        .unwrap();
    domain::exports::set_job(&mut tx, id, &job).await.unwrap();
    tx.commit().await.unwrap();
    id
}

/// A price list for the standard plan, as `PUT /superadmin/plans/standard/prices` queues it.
async fn queue_prices(pool: &PgPool, price: i64) -> String {
    let job = jobs::BulkUpdatePrices::new(
        Target::Plan(PlanType::Standard),
        vec![PriceItem {
            service: "pan_check".into(),
            price_paise: price.into(),
            status: None,
        }],
        Actor::superadmin(1),
    );
    let apply_id = job.apply_id.clone();
    jobs::enqueue_now(pool, &job).await.unwrap();
    apply_id
}

async fn statuses(pool: &PgPool) -> Vec<(String, String, i64)> {
    sqlx::query_as("SELECT job_type, status, count(*) FROM apalis.jobs GROUP BY 1, 2 ORDER BY 1, 2")
        .fetch_all(pool)
        .await
        .unwrap()
}

#[tokio::test]
#[ignore = "about 90 s and the api binary: run by scripts/scale-out"]
async fn two_apis_and_three_workers_survive_a_sigkill_and_a_15_s_database_cut() {
    let db = TestDb::new().await;
    let pool = &db.pool;
    let smtp = SmtpServer::start().await;
    let (proxy, through) = TcpProxy::postgres(&db.url).await;
    let storage = testkit::scratch_dir("scale-out-storage");
    let storage_dir = storage.to_string_lossy().into_owned();
    let partner = BatchPartner::create(pool, PRICE).await;

    let apis = [free_port(), free_port()];
    let mut api_processes: Vec<support::Process> = apis
        .iter()
        .map(|&p| spawn_api(&through, p, smtp.port))
        .collect();
    let worker_env = [
        ("IP_HITS_SCHEDULE", "* * * * * *"),
        ("WORKER_GIVE_UP_SECS", "120"),
        ("BATCH_ROWS_PER_SECOND", "20"),
        ("STORAGE", "local"),
        ("STORAGE_DIR", storage_dir.as_str()),
        ("EXPORT_PART_ROWS", "20"),
    ];
    let mut workers: Vec<support::Process> = (0..3)
        .map(|_| spawn_worker(&through, smtp.port, &worker_env))
        .collect();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let up = testkit::eventually(Duration::from_secs(60), || async {
        let mut ok = true;
        for p in apis {
            ok &= http
                .get(format!("http://127.0.0.1:{p}/healthz"))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
        }
        ok.then_some(())
    })
    .await;
    assert!(up.is_some(), "the api processes did not come up");
    let started = Instant::now();

    // The load before: mails through both apis, a batch, exports, price lists.
    let mut mails = contact_mails(&http, &apis, 150, "before").await;
    let batch = partner.queue_batch(pool, ROWS).await;
    let mut exports = vec![];
    let mut price_lists = vec![];
    for i in 0..3 {
        exports.push(queue_export(pool, partner.partner_id).await);
        price_lists.push(queue_prices(pool, 300 + i).await);
    }
    // One worker dies mid-work, without a chance to clean up.
    tokio::time::sleep(Duration::from_secs(2)).await;
    workers[0].kill().unwrap();
    workers[0].wait().unwrap();
    // The database goes away for 15 s, for every process.
    proxy.refuse();
    tokio::time::sleep(Duration::from_secs(15)).await;
    proxy.accept();
    for (i, w) in workers.iter_mut().enumerate().skip(1) {
        assert!(
            w.try_wait().unwrap().is_none(),
            "worker {i} died in the outage"
        );
    }
    // The load after.
    let after = testkit::eventually(Duration::from_secs(30), || async {
        let n = contact_mails(&http, &apis, 1, "probe").await;
        (n == 1).then_some(())
    })
    .await;
    assert!(after.is_some(), "the apis did not recover");
    mails += 1;
    mails += contact_mails(&http, &apis, 100, "after").await;
    for i in 0..2 {
        exports.push(queue_export(pool, partner.partner_id).await);
        price_lists.push(queue_prices(pool, 400 + i).await);
    }

    // Everything finishes: nothing stuck.
    let drained = testkit::eventually(Duration::from_secs(120), || async {
        let open: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM apalis.jobs WHERE status NOT IN ('Done', 'Killed')",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        let batch_done: bool =
            sqlx::query_scalar("SELECT status = 'completed' FROM batches WHERE id = $1")
                .bind(batch)
                .fetch_one(pool)
                .await
                .unwrap();
        (open == 0 && batch_done).then_some(())
    })
    .await;
    let elapsed = started.elapsed();
    assert!(
        drained.is_some(),
        "jobs left after the outage: {:?}",
        statuses(pool).await
    );
    eprintln!(
        "scale-out: drained {elapsed:?} after the first job; {:?}",
        statuses(pool).await
    );

    // Mails: every accepted message delivered and recorded once.
    let (messages, recorded): (i64, i64) =
        sqlx::query_as("SELECT count(DISTINCT message_id), count(*) FROM mail_deliveries")
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!((messages, recorded), (mails as i64, mails as i64));
    let received = smtp.received().len();
    assert!(received >= mails, "{received} of {mails} mails received");
    eprintln!(
        "scale-out: {mails} mails accepted, {recorded} recorded once each, {received} received by SMTP ({} sent again after a lost acknowledgement)",
        received - mails
    );
    // The batch: every row charged exactly once.
    let (done, charged, failed, paid): (i32, i32, i32, i64) = sqlx::query_as(
        "SELECT done_rows, charged_rows, failed_rows, charged_paise FROM batches WHERE id = $1",
    )
    .bind(batch)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(
        (done, charged, failed, paid),
        (ROWS as i32, ROWS as i32, 0, PRICE * ROWS as i64)
    );
    let debits: i64 =
        sqlx::query_scalar("SELECT count(*) FROM wallet_entries WHERE reason = 'api_call'")
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(debits, 2 * ROWS as i64, "one debit per wallet per row");
    let balance: i64 = sqlx::query_scalar("SELECT balance_paise FROM wallets WHERE id = $1")
        .bind(partner.user_wallet)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(balance, partner.funds - PRICE * ROWS as i64);
    // Exports: each completed once, its parts stored once each.
    for id in &exports {
        let (status, keys): (String, Vec<String>) =
            sqlx::query_as("SELECT status, file_keys FROM exports WHERE id = $1")
                .bind(id)
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(status, "completed", "export {id}");
        let distinct: HashSet<&String> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "export {id}: {keys:?}");
        for k in &keys {
            assert!(storage.join(k).exists(), "export {id}: part {k} missing");
        }
    }
    // Price lists: each applied once (its audit row, keyed by its apply id).
    for apply_id in &price_lists {
        let n: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM audit_log WHERE action = 'bulk_update_prices' AND entity_id = $1",
        )
        .bind(apply_id)
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(n, 1, "price list {apply_id} applied {n} times");
    }
    // The periodic job: one job per period, each done, and periods kept coming through the
    // kill and the outage. The scheduler still ticks every second, so the newest period's job
    // may be running at any one look (CI saw it once): each must be done soon after, and a
    // period queued twice never heals.
    let periods_now = || async {
        sqlx::query_as::<_, (String, i64, i64)>(
            "SELECT idempotency_key, count(*), count(*) FILTER (WHERE status = 'Done')
               FROM apalis.jobs WHERE job_type = 'aggregate_ip_hits' GROUP BY 1",
        )
        .fetch_all(pool)
        .await
        .unwrap()
    };
    let all_done =
        |periods: &[(String, i64, i64)]| periods.iter().all(|(_, n, done)| *n == 1 && *done == 1);
    let periods = match testkit::eventually(Duration::from_secs(30), || async {
        let periods = periods_now().await;
        all_done(&periods).then_some(periods)
    })
    .await
    {
        Some(periods) => periods,
        None => {
            let periods = periods_now().await;
            panic!("a period's job not done once, or queued twice: {periods:?}")
        }
    };
    // Ticking every second outside the 15 s cut (a period due during it is queued late or
    // skipped): half of them at least on a loaded machine.
    assert!(
        periods.len() as u64 >= elapsed.as_secs().saturating_sub(15) / 2,
        "{} periods in {elapsed:?}",
        periods.len()
    );

    for mut c in workers.into_iter().skip(1).chain(api_processes.drain(..)) {
        let _ = c.kill();
        let _ = c.wait();
    }
    drop(proxy);
}
