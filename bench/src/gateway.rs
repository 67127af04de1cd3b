//! `gateway`: metered calls per second through the real gateway (live keys: both wallets
//! charged in grouped transactions, then an upstream call), against a fake upstream (axum on
//! loopback answering 200 JSON) and a throw-away database made for the run and dropped at its
//! end. In one run it prints:
//!
//! 1. calls/s with 64 concurrent clients, (a) one partner with one hot user, (b) 50 partners x
//!    20 users, each with and without Redis (`BENCH_REDIS_URL`, default DB 11 of
//!    redis://127.0.0.1:6379; only that DB is flushed); (a) with a sandbox key (its partner charges
//!    sandbox calls: charged and
//!    settled in one write); (a) and (b) through two api processes (this binary re-run as
//!    `gateway-api`) sharing the load; refusals/s (401 unknown key, 403 inactive user, 429 over
//!    the limit) on an instance with a limit of one call a minute; and, as the step-by-step
//!    profile, `/healthz` (HTTP alone) at the same concurrency;
//! 2. p50/p99 of a metered call beside a direct call to the fake upstream, paced at half the
//!    rate of (a), and the overhead;
//! 3. the Postgres-alone reference: one charge per transaction on one hot wallet (UPDATE with a
//!    balance guard + entry INSERT), 64 connections, same duration; before it, a lone commit's
//!    WAL flush, one every 5 ms on an idle server (what every answered call waits for once, so
//!    the disk's stalls show apart from the platform's); and (a)'s money path alone,
//!    without HTTP: the hot user's charges and settlements handed by 64 tasks to a charging task
//!    of its own, so that what HTTP and the api's own work cost is the gap between the two;
//! 4. a ledger audit (balances = sum of entries, none negative, 2xx answers = `success`
//!    transactions, failed calls = `refunded` ones with their refund entries): PASS or FAIL,
//!    and a non-zero exit on FAIL.
//!
//! It fails (non-zero exit) below the floors: (a) 2,500 calls/s, p99 overhead 25 ms at half
//! of (a).
//!
//! `cargo run -p bench --release -- gateway [SECONDS]` (10 s per measurement by default; needs
//! Postgres at `TEST_DATABASE_URL` and Redis).

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use domain::{
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use sqlx::{Connection, Executor, PgPool};

const CLIENTS: usize = 64;
const SERVICE: &str = "bench_check";
const PRICE: i64 = 100;
/// Enough for every call any phase can make, so no call is refused for money.
const FUNDS: i64 = 1_000_000_000_000;

/// The floors the run fails below.
const FLOOR_A: f64 = 2_500.0;
const FLOOR_P99_OVERHEAD_MS: f64 = 25.0;

struct Platform {
    /// The api without Redis, and the api with it: both on the same database.
    plain: String,
    redis: String,
    /// An api whose keys may make one call a minute: the refusal case.
    limited: String,
    upstream: String,
    hot_key: String,
    /// The hot user's ids, for the charging-alone phase.
    hot: Hot,
    /// A sandbox key of the hot user.
    sandbox_key: String,
    /// A key of an inactive user (403).
    inactive_key: String,
    spread_keys: Vec<String>,
}

/// The fake upstream's answer sealed as the gateway keeps it (`gateway::results::seal`): its 46
/// bytes, a 12-byte nonce and a 16-byte tag.
const SEALED_ANSWER_BYTES: usize = 46 + 12 + 16;

/// The hot user of case (a), as its charges name it.
#[derive(Clone, Copy)]
struct Hot {
    partner_id: i64,
    user_id: i64,
    api_id: i64,
    user_wallet: i64,
    partner_wallet: i64,
}

#[derive(Default)]
struct Load {
    ok: u64,
    /// Answered with an error and a transaction id: charged, then refunded.
    refunded: u64,
    /// Answered 401, 403 or 429.
    refused: u64,
    /// Any other error or no answer at all.
    other: u64,
    wall: Duration,
}

impl Load {
    fn rate(&self) -> f64 {
        self.ok as f64 / self.wall.as_secs_f64()
    }

    fn refused_rate(&self) -> f64 {
        self.refused as f64 / self.wall.as_secs_f64()
    }

    fn add(&mut self, l: &Load) {
        self.ok += l.ok;
        self.refunded += l.refunded;
        self.refused += l.refused;
        self.other += l.other;
    }
}

/// Pool sizes of the api instances, so that all of them fit Postgres's default `max_connections`
/// (100) with the bench's own connections (README, "Connections": each instance adds three of its
/// own): 3 x (12 + 3) in this process and 2 x (16 + 3) in the two api processes, 83. At 20 each
/// (115) the two processes' pools were refused new connections ("too many clients") once their
/// cold caches loaded, and a call waited 10 s for a connection and failed.
const IN_PROCESS_POOL: u32 = 12;
const PROCESS_POOL: u32 = 16;

/// Errors the platform logs during a run go to stderr, beside the figures they may explain.
fn log_errors() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("error"))
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// `gateway-api`: one api process for [`run`] on the database its parent names (no Redis, the
/// per-key limit out of the way); prints its base URL, serves until its stdin closes.
pub fn api_process(_args: Vec<String>) -> anyhow::Result<()> {
    log_errors();
    let url = std::env::var("BENCH_GATEWAY_DATABASE_URL")
        .context("BENCH_GATEWAY_DATABASE_URL: run through `bench gateway`")?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let mut config = testkit::config(&url);
        config.redis_url = None;
        config.gateway.rate_limit_per_minute = 60_000_000;
        config.database_max_connections = PROCESS_POOL;
        let pool = domain::infra::db::connect_keeping(
            &url,
            PROCESS_POOL,
            domain::infra::db::API_WARM_CONNECTIONS,
        )
        .await?;
        let state = api::AppState::new(pool, Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        println!("http://{}", listener.local_addr()?);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 1];
            let _ = std::io::stdin().read(&mut buf);
            let _ = tx.send(());
        });
        api::serve(listener, state, async move {
            let _ = rx.await;
        })
        .await?;
        Ok(())
    })
}

/// Api processes started by [`run`]; stopped (stdin closed, then killed) when dropped.
struct ApiProcesses(Vec<Child>, Vec<String>);

impl ApiProcesses {
    fn start(n: usize, db_url: &str) -> anyhow::Result<Self> {
        let exe = std::env::current_exe()?;
        let (mut children, mut bases) = (vec![], vec![]);
        for _ in 0..n {
            let mut child = Command::new(&exe)
                .arg("gateway-api")
                .env("BENCH_GATEWAY_DATABASE_URL", db_url)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()?;
            let mut line = String::new();
            BufReader::new(child.stdout.take().context("the api's stdout")?)
                .read_line(&mut line)?;
            children.push(child);
            bases.push(line.trim().to_owned());
        }
        Ok(Self(children, bases))
    }
}

impl Drop for ApiProcesses {
    fn drop(&mut self) {
        for c in &mut self.0 {
            drop(c.stdin.take());
        }
        std::thread::sleep(Duration::from_millis(500));
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    log_errors();
    let secs: u64 = args
        .first()
        .map(|a| a.parse())
        .transpose()
        .context("SECONDS must be a number")?
        .unwrap_or(10);
    let duration = Duration::from_secs(secs);
    let redis_url =
        std::env::var("BENCH_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/11".into());
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());

    let upstream = start_upstream()?;
    // The server has a worker thread per core, as `api serve` has.
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("api-worker")
        .enable_all()
        .build()?;
    let client = tokio::runtime::Builder::new_multi_thread()
        .thread_name("bench-client")
        .worker_threads(2)
        .enable_all()
        .build()?;

    client.block_on(flush_redis(&redis_url))?;
    let db = server_rt.block_on(testkit::TestDb::new());
    let (db_url, db_name) = (db.url.clone(), db.name.clone());
    // Everything that uses the database's pools runs on the runtime that opened them.
    let result = (|| -> anyhow::Result<bool> {
        let lat_secs = duration.min(Duration::from_secs(5));
        let flushes = server_rt.block_on(flush_reference(&db_url, lat_secs))?;
        let reference = server_rt.block_on(postgres_reference(&db.pool, &db_url, duration))?;
        let (p, stop) = server_rt.block_on(start_platform(&db, &upstream, &redis_url))?;
        let before = group_totals();
        let alone = server_rt.block_on(charging_alone(&db.pool, p.hot, duration))?;
        let after = group_totals();
        eprintln!(
            "  charging alone: charge groups {}, settle groups {}",
            group_mean(&before, &after, 0),
            group_mean(&before, &after, 1)
        );
        let cases = [
            ("(a) 1 partner, 1 hot user", false),
            ("(a) 1 partner, 1 hot user", true),
            ("(b) 50 partners x 20 users", false),
            ("(b) 50 partners x 20 users", true),
        ];
        let mut loads = vec![];
        for (name, with_redis) in cases {
            let base = if with_redis { &p.redis } else { &p.plain };
            let keys = if name.starts_with("(a)") {
                vec![p.hot_key.clone()]
            } else {
                p.spread_keys.clone()
            };
            let before = group_totals();
            let l = client.block_on(closed_loop(std::slice::from_ref(base), keys, duration))?;
            let after = group_totals();
            eprintln!(
                "  {name}, redis {with_redis}: {:.0} calls/s; charge groups {}, settle groups {}",
                l.rate(),
                group_mean(&before, &after, 0),
                group_mean(&before, &after, 1)
            );
            loads.push((name, if with_redis { "yes" } else { "no" }, l));
        }
        let l = client.block_on(closed_loop(
            std::slice::from_ref(&p.plain),
            vec![p.sandbox_key.clone()],
            duration,
        ))?;
        eprintln!("  (a) sandbox key: {:.0} calls/s", l.rate());
        loads.push(("(a) sandbox key, one write", "no", l));
        let a_rate = loads[0].2.rate().max(loads[1].2.rate());

        // The same loads through two api processes of their own, on the same database.
        let procs = ApiProcesses::start(2, &db_url)?;
        for (name, keys) in [
            ("(a) two api processes", vec![p.hot_key.clone()]),
            ("(b) two api processes", p.spread_keys.clone()),
        ] {
            let l = client.block_on(closed_loop(&procs.1, keys, duration))?;
            eprintln!("  {name}: {:.0} calls/s", l.rate());
            loads.push((name, "no", l));
        }
        drop(procs);

        let refusals = client.block_on(closed_loop(
            std::slice::from_ref(&p.limited),
            vec![
                p.hot_key.clone(),
                p.inactive_key.clone(),
                "kyc_live_0123456789abcdefghijABCDEFGHIJ01".into(),
            ],
            duration,
        ))?;
        eprintln!("  refusals: {:.0}/s", refusals.refused_rate());
        let healthz = client.block_on(closed_get(&format!("{}/healthz", p.plain), duration))?;
        eprintln!("  /healthz: {:.0}/s", healthz.rate());

        let paced = (a_rate / 2.0).max(10.0);
        let before = server_rt.block_on(checkpointer(&db.pool))?;
        let waits = client.block_on(SlowWaits::read(&p.plain))?;
        let (metered, m_load, direct, cpu) =
            client.block_on(metered_and_direct(&p, paced, lat_secs))?;
        let waits = client.block_on(SlowWaits::read(&p.plain))?.since(&waits);
        let after = server_rt.block_on(checkpointer(&db.pool))?;
        let _ = stop.send(());
        // Let the charger answer what is in flight before the books are read.
        std::thread::sleep(Duration::from_millis(500));

        println!(
            "\ngateway: metered calls, {CLIENTS} concurrent clients, {secs} s each, {cores} cores (server, clients, upstream and Postgres on one machine)\n"
        );
        println!(
            "{:<30} {:>6} {:>12} {:>9} {:>9} {:>10}",
            "case", "redis", "calls/s", "refunded", "other", "x PG-alone"
        );
        for (name, redis, l) in &loads {
            println!(
                "{:<30} {:>6} {:>12.0} {:>9} {:>9} {:>10.2}",
                name,
                redis,
                l.rate(),
                l.refunded,
                l.other,
                l.rate() / reference.rate()
            );
        }
        println!(
            "{:<30} {:>6} {:>12.0} {:>9} {:>9} {:>10}",
            "Postgres alone: 1 charge/txn",
            "-",
            reference.rate(),
            "-",
            reference.other,
            "1.00"
        );
        println!(
            "{:<30} {:>6} {:>12.0} {:>9} {:>9} {:>10.2}",
            "(a) charging alone, no HTTP",
            "-",
            alone.rate(),
            "-",
            alone.other,
            alone.rate() / reference.rate()
        );
        println!(
            "{:<30} {:>6} {:>12.0} {:>9} {:>9} {:>10}",
            "refusals (401/403/429)",
            "no",
            refusals.refused_rate(),
            "-",
            refusals.other,
            "-"
        );
        println!(
            "{:<30} {:>6} {:>12.0} {:>9} {:>9} {:>10}",
            "GET /healthz (HTTP alone)",
            "-",
            healthz.rate(),
            "-",
            healthz.other,
            "-"
        );
        println!(
            "\nlatency at {paced:.0} calls/s (half of (a)), {} s each:",
            lat_secs.as_secs()
        );
        println!("{:<30} {:>10} {:>10}", "", "p50", "p99");
        println!(
            "{:<30} {:>10} {:>10}",
            "metered call (no Redis)",
            ms(pct(&metered, 50)),
            ms(pct(&metered, 99))
        );
        println!(
            "{:<30} {:>10} {:>10}",
            "direct call to the upstream",
            ms(pct(&direct, 50)),
            ms(pct(&direct, 99))
        );
        println!(
            "{:<30} {:>10} {:>10}",
            "overhead",
            ms_diff(pct(&metered, 50), pct(&direct, 50)),
            ms_diff(pct(&metered, 99), pct(&direct, 99))
        );
        println!(
            "a lone commit before any load (its WAL flush; one every 5 ms for {} s): p50 {}, p99 {}, max {}; {} of {} over 10 ms",
            lat_secs.as_secs(),
            ms(pct(&flushes, 50)),
            ms(pct(&flushes, 99)),
            ms(flushes.iter().max().copied()),
            flushes
                .iter()
                .filter(|d| **d > Duration::from_millis(10))
                .count(),
            flushes.len()
        );
        println!(
            "checkpointer meanwhile (metered, then direct calls; the whole server): {} begun, {} buffers written",
            after.0 - before.0,
            after.1 - before.1
        );
        println!(
            "metered calls whose charge / upstream / settlement took over 5 ms (the platform's /metrics): {}",
            waits.shares()
        );
        if let Some(c) = cpu {
            println!(
                "the machine during the metered calls: {:.0}% busy, {:.0}% idle, {:.0}% stolen by the hypervisor",
                c.busy, c.idle, c.steal
            );
        }
        let p99_overhead = match (pct(&metered, 99), pct(&direct, 99)) {
            (Some(m), Some(d)) => (m.as_secs_f64() - d.as_secs_f64()) * 1000.0,
            _ => f64::INFINITY,
        };
        let floors = [
            (
                format!("(a) at least {FLOOR_A:.0} calls/s"),
                a_rate >= FLOOR_A,
            ),
            (
                format!("p99 overhead at most {FLOOR_P99_OVERHEAD_MS:.0} ms at half of (a)"),
                p99_overhead <= FLOOR_P99_OVERHEAD_MS,
            ),
        ];
        println!("\nfloors:");
        for (what, met) in &floors {
            println!("  {:<4} {what}", if *met { "ok" } else { "FAIL" });
        }

        let mut all = Load::default();
        for (_, _, l) in &loads {
            all.add(l);
        }
        all.add(&m_load);
        all.add(&refusals);
        all.add(&alone);
        let pass = server_rt.block_on(audit(&db.pool, all.ok, all.refunded, reference.ok))?;
        Ok(pass && floors.iter().all(|f| f.1))
    })();
    drop(db);
    let dropped = client.block_on(drop_database(&db_name));
    let flushed = client.block_on(flush_redis(&redis_url));
    let pass = result?;
    dropped?;
    flushed?;
    if !pass {
        bail!("the ledger audit failed or a floor was not met");
    }
    Ok(())
}
/// A fake provider: 200 with a small JSON body, whatever the request. It has a runtime and a
/// thread of its own, as a provider elsewhere would, and lives as long as the process.
fn start_upstream() -> anyhow::Result<String> {
    let (tx, rx) = std::sync::mpsc::channel::<std::io::Result<String>>();
    let upstream = std::thread::Builder::new().name("fake-upstream".into());
    upstream
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("upstream runtime");
            rt.block_on(async move {
                let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
                    Ok(l) => l,
                    Err(e) => return drop(tx.send(Err(e))),
                };
                let _ = tx.send(listener.local_addr().map(|a| format!("http://{a}")));
                let app = axum::Router::new().fallback(|| async {
                    (
                        [("content-type", "application/json")],
                        r#"{"ok":true,"status":"VALID","name":"ASHA RAO"}"#,
                    )
                });
                let _ = axum::serve(listener, app).await;
            });
        })
        .context("starting the fake upstream's thread")?;
    Ok(rx
        .recv_timeout(Duration::from_secs(10))
        .context("the fake upstream did not start")??)
}

/// Partners, users, wallets, the API and live keys written straight to the database, then two
/// api instances (with and without Redis) on it. Returns the stop switch of both.
async fn start_platform(
    db: &testkit::TestDb,
    upstream: &str,
    redis_url: &str,
) -> anyhow::Result<(Platform, tokio::sync::oneshot::Sender<()>)> {
    let pool = &db.pool;
    let api_input: domain::catalogue::ApiInput = serde_json::from_value(serde_json::json!({
        "name": "Bench check", "category": "Identity", "service": SERVICE, "description": "A benchmark API",
        "endpoint": format!("/v1/{SERVICE}"), "documentation_link": "https://docs.example/bench",
        "curl_code": "curl -X POST https://api.example/v1", "response_code": {"status": "ok"},
        "method": "post", "required_fields": ["id_number"], "default_price_paise": PRICE
    }))?;
    let mut conn = pool.acquire().await?;
    domain::catalogue::create(&mut conn, &api_input, Actor::system()).await?;
    sqlx::query(
        "INSERT INTO sandbox_apis (api_id) SELECT id FROM api_catalogue WHERE service = $1",
    )
    .bind(SERVICE)
    .execute(&mut *conn)
    .await?;

    let partners: Vec<i64> = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at, sandbox_enabled, api_base_url, base_url_status, charge_sandbox)
         SELECT 'Bench', 'Partner', 'gwbench' || i || '@bench.test', '9876543210', 'gwbench' || i, 'x', now(), false, $1, true, true
           FROM generate_series(0, 50) i ORDER BY i RETURNING id",
    )
    .bind(upstream)
    .fetch_all(&mut *conn)
    .await?;
    let (mut hot_key, mut sandbox_key, mut spread_keys) = (String::new(), String::new(), vec![]);
    let api_id: i64 = sqlx::query_scalar("SELECT id FROM api_catalogue WHERE service = $1")
        .bind(SERVICE)
        .fetch_one(&mut *conn)
        .await?;
    let mut hot = None;
    for (i, &partner_id) in partners.iter().enumerate() {
        let partner_wallet = credit(&mut conn, Owner::Partner(partner_id), FUNDS).await?;
        let users: Vec<i64> = sqlx::query_scalar(
            "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, full_access)
             SELECT $1, 'Asha', 'Rao', 'user' || u || '.' || $1 || '@example.in', '9876543210', 'x', true FROM generate_series(1, $2) u RETURNING id",
        )
        .bind(partner_id)
        .bind(if i == 0 { 1 } else { 20 })
        .fetch_all(&mut *conn)
        .await?;
        for user_id in users {
            let user_wallet = credit(
                &mut conn,
                Owner::User {
                    partner_id,
                    user_id,
                },
                FUNDS,
            )
            .await?;
            let key = new_key(&mut conn, partner_id, user_id, "live").await?;
            if i == 0 {
                hot = Some(Hot {
                    partner_id,
                    user_id,
                    api_id,
                    user_wallet,
                    partner_wallet,
                });
                hot_key = key;
                sandbox_key = new_key(&mut conn, partner_id, user_id, "sandbox").await?;
            } else {
                spread_keys.push(key);
            }
        }
    }
    let inactive: i64 = sqlx::query_scalar(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, full_access, is_active)
         VALUES ($1, 'Ina', 'Active', 'inactive@example.in', '9876543210', 'x', true, false) RETURNING id",
    )
    .bind(partners[0])
    .fetch_one(&mut *conn)
    .await?;
    let inactive_key = new_key(&mut conn, partners[0], inactive, "live").await?;
    drop(conn);

    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let stop = Arc::new(tokio::sync::Notify::new());
    let mut bases = vec![];
    for (redis, per_minute) in [
        (None, 60_000_000),
        (Some(redis_url.to_owned()), 60_000_000),
        // One call a minute: every key is refused after its first.
        (None, 1),
    ] {
        let mut config = testkit::config(&db.url);
        config.redis_url = redis;
        // The per-key limit is not what is measured, but in the refusal case.
        config.gateway.rate_limit_per_minute = per_minute;
        config.database_max_connections = IN_PROCESS_POOL;
        let pool = domain::infra::db::connect_keeping(
            &db.url,
            IN_PROCESS_POOL,
            domain::infra::db::API_WARM_CONNECTIONS,
        )
        .await?;
        let state = api::AppState::new(pool, Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        bases.push(format!("http://{}", listener.local_addr()?));
        let stop = stop.clone();
        tokio::spawn(async move {
            let _ = api::serve(listener, state, async move { stop.notified().await }).await;
        });
    }
    tokio::spawn(async move {
        let _ = stop_rx.await;
        stop.notify_waiters();
    });
    let limited = bases.pop().expect("three instances");
    let redis = bases.pop().expect("three instances");
    let plain = bases.pop().expect("three instances");
    Ok((
        Platform {
            plain,
            redis,
            limited,
            upstream: upstream.to_owned(),
            hot_key,
            hot: hot.context("the hot user was not made")?,
            sandbox_key,
            inactive_key,
            spread_keys,
        },
        stop_tx,
    ))
}

async fn new_key(
    conn: &mut sqlx::PgConnection,
    partner_id: i64,
    user_id: i64,
    mode: &str,
) -> anyhow::Result<String> {
    let key = format!(
        "kyc_{}_{}",
        if mode == "live" { "live" } else { "test" },
        uuid::Uuid::new_v4().simple()
    );
    sqlx::query("INSERT INTO api_keys (partner_id, user_id, prefix, key_hash, mode) VALUES ($1, $2, $3, $4, $5)")
        .bind(partner_id)
        .bind(user_id)
        .bind(&key[..16])
        .bind(domain::gateway::key_hash(&key).as_slice())
        .bind(mode)
        .execute(&mut *conn)
        .await?;
    Ok(key)
}

async fn credit(conn: &mut sqlx::PgConnection, owner: Owner, amount: i64) -> anyhow::Result<i64> {
    let w = wallets::wallet_id(conn, owner, WalletKind::Api).await?;
    wallets::apply(
        conn,
        &Movement {
            wallet_id: w,
            entry_type: EntryType::Credit,
            amount_paise: amount,
            reason: Reason::Manual,
            reference: None,
            idempotency_key: None,
            actor: Actor::system(),
        },
    )
    .await?;
    Ok(w)
}

/// CLIENTS tasks each calling as fast as answers come, key `i % keys.len()`, client `c` on base
/// `c % bases.len()`, for `duration`.
async fn closed_loop(
    bases: &[String],
    keys: Vec<String>,
    duration: Duration,
) -> anyhow::Result<Load> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let keys = Arc::new(keys);
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let url = format!("{}/api/v1/verify/{SERVICE}", bases[c % bases.len()]);
            let (http, keys, stop) = (http.clone(), keys.clone(), stop.clone());
            tokio::spawn(async move {
                let mut l = Load::default();
                let mut i = c;
                while !stop.load(Ordering::Relaxed) {
                    let key = &keys[i % keys.len()];
                    i += CLIENTS;
                    tally(
                        &mut l,
                        http.post(&url)
                            .header("x-api-key", key)
                            .json(&serde_json::json!({"id_number": "ABCDE1234F"}))
                            .send()
                            .await,
                    )
                    .await;
                }
                l
            })
        })
        .collect();
    run_for(tasks, &stop, started, duration).await
}

/// CLIENTS tasks each GETting `url` as fast as answers come: the HTTP stack alone.
async fn closed_get(url: &str, duration: Duration) -> anyhow::Result<Load> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (http, url, stop) = (http.clone(), url.to_owned(), stop.clone());
            tokio::spawn(async move {
                let mut l = Load::default();
                while !stop.load(Ordering::Relaxed) {
                    tally(&mut l, http.get(&url).send().await).await;
                }
                l
            })
        })
        .collect();
    run_for(tasks, &stop, started, duration).await
}

/// Lets the closed-loop `tasks` run for `duration` from `started`, then raises `stop` and adds up
/// their tallies. Calls that started before the stop finish after it: counted, and so is their
/// time.
async fn run_for(
    tasks: Vec<tokio::task::JoinHandle<Load>>,
    stop: &AtomicBool,
    started: Instant,
    duration: Duration,
) -> anyhow::Result<Load> {
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut total = Load::default();
    for t in tasks {
        total.add(&t.await?);
    }
    total.wall = started.elapsed();
    Ok(total)
}

async fn tally(l: &mut Load, res: reqwest::Result<reqwest::Response>) {
    match res {
        Ok(r) if r.status().is_success() => match r.bytes().await {
            Ok(_) => l.ok += 1,
            Err(e) => other(l, format!("a 2xx cut short: {e:?}")),
        },
        Ok(r) if r.headers().contains_key("x-transaction-id") => l.refunded += 1,
        Ok(r) if matches!(r.status().as_u16(), 401 | 403 | 429) => {
            let _ = r.bytes().await;
            l.refused += 1
        }
        Ok(r) => {
            let status = r.status();
            other(
                l,
                format!("{status} {}", r.text().await.unwrap_or_default()),
            );
        }
        Err(e) => other(l, format!("no answer: {e:?}")),
    }
}

/// Counts a call that was neither answered 2xx, refunded nor refused, and says what it was (on
/// stderr, the first few of a run): a figure with an unexplained failure in it is not a figure.
fn other(l: &mut Load, what: String) {
    static SHOWN: AtomicU64 = AtomicU64::new(0);
    if SHOWN.fetch_add(1, Ordering::Relaxed) < 5 {
        eprintln!("  other: {}", what.chars().take(300).collect::<String>());
    }
    l.other += 1;
}

/// `gateway-latency [RATES]`: the latency of a metered call (hot key, no Redis) and of a direct
/// call to the upstream, open loop at each rate (comma-separated calls/s), 5 s each: a fixed
/// cost shows at every rate, queueing only as the rate nears the ceiling.
pub fn latency(args: Vec<String>) -> anyhow::Result<()> {
    let rates: Vec<f64> = args
        .first()
        .map_or("50,200,500,1000", String::as_str)
        .split(',')
        .map(|r| r.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .context("RATES: comma-separated numbers")?;
    let upstream = start_upstream()?;
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("api-worker")
        .enable_all()
        .build()?;
    let client = tokio::runtime::Builder::new_multi_thread()
        .thread_name("bench-client")
        .worker_threads(2)
        .enable_all()
        .build()?;
    let redis_url =
        std::env::var("BENCH_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/11".into());
    client.block_on(flush_redis(&redis_url))?;
    let db = server_rt.block_on(testkit::TestDb::new());
    let (p, stop) = server_rt.block_on(start_platform(&db, &upstream, &redis_url))?;
    println!(
        "{:>8} {:>12} {:>12} {:>12} {:>12} {:>22} {:>22} {:>38}",
        "calls/s",
        "metered p50",
        "metered p99",
        "direct p50",
        "direct p99",
        "charge groups: ms/size",
        "settle groups: ms/size",
        "over 5 ms: charge / upstream / settle"
    );
    for rate in rates {
        let secs = Duration::from_secs(5);
        let before = group_totals();
        let waits = client.block_on(SlowWaits::read(&p.plain))?;
        let (metered, _, direct, _) = client.block_on(metered_and_direct(&p, rate, secs))?;
        let waits = client.block_on(SlowWaits::read(&p.plain))?.since(&waits);
        let after = group_totals();
        let mean = |i: usize| group_mean(&before, &after, i);
        println!(
            "{:>8.0} {:>12} {:>12} {:>12} {:>12} {:>22} {:>22} {:>38}",
            rate,
            ms(pct(&metered, 50)),
            ms(pct(&metered, 99)),
            ms(pct(&direct, 50)),
            ms(pct(&direct, 99)),
            mean(0),
            mean(1),
            waits.shares()
        );
    }
    let _ = stop.send(());
    std::thread::sleep(Duration::from_millis(500));
    let name = db.name.clone();
    drop(db);
    client.block_on(drop_database(&name))?;
    client.block_on(flush_redis(&redis_url))?;
    Ok(())
}

/// The charging (0) or settling (1) task's groups between two [`group_totals`]: mean ms from
/// first statement to commit, and mean calls per group.
fn group_mean(
    before: &[(u64, u64, Duration); 2],
    after: &[(u64, u64, Duration); 2],
    i: usize,
) -> String {
    let (n, calls, time) = (
        after[i].0 - before[i].0,
        after[i].1 - before[i].1,
        after[i].2 - before[i].2,
    );
    format!(
        "{:.2} ms / {:.1}",
        time.as_secs_f64() * 1e3 / n.max(1) as f64,
        calls as f64 / n.max(1) as f64
    )
}

/// (groups, calls, time) of the charging task and of the settling one, in this process so far
/// (the platform runs in this process).
fn group_totals() -> [(u64, u64, Duration); 2] {
    let groups = &*domain::wallets::charge::GROUPS;
    std::array::from_fn(|i| {
        let g = &groups[i].1;
        (
            g.seconds.count(),
            g.calls.load(std::sync::atomic::Ordering::Relaxed),
            g.seconds.sum(),
        )
    })
}

/// A metered call's three waits over [`SLOW_WAIT`], counted by the platform's own histograms on
/// `/metrics` (`kyc_gateway_money_wait_seconds`, `kyc_upstream_request_seconds`): read as a
/// client reads them, before and after a round, they tell in which wait a slow tail sits.
struct SlowWaits {
    calls: f64,
    charge: f64,
    upstream: f64,
    settle: f64,
}

/// A bucket bound of the platform's histograms (`LATENCY_BUCKETS`).
const SLOW_WAIT: &str = "0.005";

impl SlowWaits {
    async fn read(base: &str) -> anyhow::Result<Self> {
        let body = reqwest::get(format!("{base}/metrics"))
            .await?
            .error_for_status()?
            .text()
            .await?;
        // Summed over every series of `name` whose labels start with `labels`: the upstream's
        // histogram has one series per service family.
        let total = |name: &str, labels: &str, le: Option<&str>| -> f64 {
            let (suffix, tail) = match le {
                Some(le) => ("_bucket", format!("le=\"{le}\"}}")),
                None => ("_count", "}".to_owned()),
            };
            body.lines()
                .filter_map(|l| {
                    let rest = l
                        .strip_prefix(name)?
                        .strip_prefix(suffix)?
                        .strip_prefix('{')?;
                    let (series, value) = rest.rsplit_once(' ')?;
                    (series.starts_with(labels) && series.ends_with(&tail))
                        .then(|| value.parse::<f64>().ok())
                        .flatten()
                })
                .sum()
        };
        let over = |name: &str, labels: &str| {
            total(name, labels, None) - total(name, labels, Some(SLOW_WAIT))
        };
        let wait = "kyc_gateway_money_wait_seconds";
        Ok(Self {
            calls: total(wait, "step=\"settle\"", None),
            charge: over(wait, "step=\"charge\""),
            upstream: over("kyc_upstream_request_seconds", "family="),
            settle: over(wait, "step=\"settle\""),
        })
    }

    fn since(&self, before: &Self) -> Self {
        Self {
            calls: self.calls - before.calls,
            charge: self.charge - before.charge,
            upstream: self.upstream - before.upstream,
            settle: self.settle - before.settle,
        }
    }

    /// The share of calls whose charge, upstream and settlement each took over 5 ms.
    fn shares(&self) -> String {
        let share = |n: f64| 100.0 * n / self.calls.max(1.0);
        format!(
            "{:.2}% / {:.2}% / {:.2}%",
            share(self.charge),
            share(self.upstream),
            share(self.settle)
        )
    }
}

/// The hot key's metered calls, then direct calls to the upstream, each open loop at `rate`
/// for `duration`: the latencies of both (2xx only) and the metered calls' tally.
async fn metered_and_direct(
    p: &Platform,
    rate: f64,
    duration: Duration,
) -> anyhow::Result<(Vec<Duration>, Load, Vec<Duration>, Option<CpuShare>)> {
    let cpu = CpuTimes::read();
    let (metered, load) = paced_latency(
        &format!("{}/api/v1/verify/{SERVICE}", p.plain),
        Some(&p.hot_key),
        rate,
        duration,
    )
    .await?;
    let cpu = cpu.zip(CpuTimes::read()).map(|(a, b)| b.since(&a));
    let (direct, _) = paced_latency(
        &format!("{}/v1/{SERVICE}", p.upstream),
        None,
        rate,
        duration,
    )
    .await?;
    Ok((metered, load, direct, cpu))
}

/// The machine's CPU time so far (`/proc/stat`, all cores, in clock ticks): busy, idle, and
/// stolen by the hypervisor (time this virtual machine's cores were ready but not run). `None`
/// where there is no such file.
struct CpuTimes {
    busy: u64,
    idle: u64,
    steal: u64,
}

/// Shares of the machine's time between two [`CpuTimes`], in percent.
struct CpuShare {
    busy: f64,
    idle: f64,
    steal: f64,
}

impl CpuTimes {
    fn read() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let f: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        // user nice system idle iowait irq softirq steal ...
        Some(Self {
            busy: f.first()? + f.get(1)? + f.get(2)? + f.get(5)? + f.get(6)?,
            idle: f.get(3)? + f.get(4)?,
            steal: *f.get(7)?,
        })
    }

    fn since(&self, before: &Self) -> CpuShare {
        let (b, i, s) = (
            self.busy.saturating_sub(before.busy) as f64,
            self.idle.saturating_sub(before.idle) as f64,
            self.steal.saturating_sub(before.steal) as f64,
        );
        let total = (b + i + s).max(1.0);
        CpuShare {
            busy: 100.0 * b / total,
            idle: 100.0 * i / total,
            steal: 100.0 * s / total,
        }
    }
}

/// Open loop: a call every 1/rate seconds whatever the answers, latency of each 2xx.
async fn paced_latency(
    url: &str,
    key: Option<&str>,
    rate: f64,
    duration: Duration,
) -> anyhow::Result<(Vec<Duration>, Load)> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let started = Instant::now();
    let mut tasks = vec![];
    while started.elapsed() < duration {
        tick.tick().await;
        let mut req = http
            .post(url)
            .json(&serde_json::json!({"id_number": "ABCDE1234F"}));
        if let Some(k) = key {
            req = req.header("x-api-key", k);
        }
        tasks.push(tokio::spawn(async move {
            let t = Instant::now();
            let mut l = Load::default();
            tally(&mut l, req.send().await).await;
            (l, t.elapsed(), t - started)
        }));
    }
    let (mut lat, mut sent, mut total) = (vec![], vec![], Load::default());
    for t in tasks {
        let (l, d, at) = t.await?;
        if l.ok == 1 {
            lat.push(d);
            sent.push(at);
        }
        total.add(&l);
    }
    total.wall = started.elapsed();
    if key.is_some() {
        print_series(&lat, &sent);
    }
    Ok((lat, total))
}

/// With `BENCH_SERIES_MS` set, the metered calls' p50 and p99 per slice of that many
/// milliseconds of sending (on stderr): where in a run its tail lies, e.g. a fresh platform's
/// warm-up.
fn print_series(lat: &[Duration], sent: &[Duration]) {
    let Some(slice) = std::env::var("BENCH_SERIES_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&v| v > 0)
    else {
        return;
    };
    let mut slices: std::collections::BTreeMap<u128, Vec<Duration>> = Default::default();
    for (d, at) in lat.iter().zip(sent) {
        slices
            .entry(at.as_millis() / u128::from(slice))
            .or_default()
            .push(*d);
    }
    for (i, mut v) in slices {
        v.sort();
        eprintln!(
            "  {:>6} ms: {:>5} calls, p50 {:>10}, p99 {:>10}, max {:>10}",
            i * u128::from(slice),
            v.len(),
            ms(pct(&v, 50)),
            ms(pct(&v, 99)),
            ms(v.last().copied())
        );
    }
}

/// What the disk under Postgres makes every answered call wait for, measured before any load: one
/// connection of its own commits a one-row update every 5 ms, each waiting for its WAL flush as a
/// settlement does. A stall of the flush holds every call that is in its settlement step at that
/// moment, so stalls that hold more than 1% of a window's calls set the half-load p99 whatever
/// the platform costs.
async fn flush_reference(db_url: &str, duration: Duration) -> anyhow::Result<Vec<Duration>> {
    let mut conn = sqlx::PgConnection::connect_with(&domain::infra::db::options(db_url)?).await?;
    conn.execute(
        "SET synchronous_commit = on;
         CREATE TABLE bench_flush_probe (id int PRIMARY KEY, n bigint NOT NULL);
         INSERT INTO bench_flush_probe VALUES (1, 0)",
    )
    .await?;
    let mut tick = tokio::time::interval(Duration::from_millis(5));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let started = Instant::now();
    let mut flushes = vec![];
    while started.elapsed() < duration {
        tick.tick().await;
        let t = Instant::now();
        conn.execute("UPDATE bench_flush_probe SET n = n + 1 WHERE id = 1")
            .await?;
        flushes.push(t.elapsed());
    }
    conn.execute("DROP TABLE bench_flush_probe").await?;
    conn.close().await?;
    Ok(flushes)
}

/// What Postgres alone does on one hot wallet: a transaction per charge (guarded UPDATE, entry
/// INSERT, COMMIT) from CLIENTS connections, for `duration`. Runs before the api starts, so the
/// two never share the server's connections.
async fn postgres_reference(
    pool: &PgPool,
    db_url: &str,
    duration: Duration,
) -> anyhow::Result<Load> {
    // A partner and its wallet of its own, funded through the one entry point.
    let partner: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at)
         VALUES ('Bench', 'Reference', 'pgref@bench.test', '9876543210', 'pgref', 'x', now()) RETURNING id",
    )
    .fetch_one(pool)
    .await?;
    let wallet = credit(&mut *pool.acquire().await?, Owner::Partner(partner), FUNDS).await?;
    let refpool = domain::infra::db::connect(db_url, CLIENTS as u32).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (refpool, stop) = (refpool.clone(), stop.clone());
            tokio::spawn(async move {
                let mut l = Load::default();
                let Ok(mut conn) = refpool.acquire().await else {
                    l.other += 1;
                    return l;
                };
                while !stop.load(Ordering::Relaxed) {
                    let r: anyhow::Result<()> = async {
                        let mut tx = conn.begin().await?;
                        let after: Option<i64> =
                            sqlx::query_scalar("UPDATE wallets SET balance_paise = balance_paise - $2, updated_at = now() WHERE id = $1 AND balance_paise >= $2 RETURNING balance_paise")
                                .bind(wallet)
                                .bind(PRICE)
                                .fetch_optional(&mut *tx)
                                .await?;
                        let after = after.context("the reference wallet ran dry")?;
                        sqlx::query(
                            "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind) VALUES ($1, 'debit', $2, $3, 'manual', 'BENCH', 'system')",
                        )
                        .bind(wallet)
                        .bind(PRICE)
                        .bind(after)
                        .execute(&mut *tx)
                        .await?;
                        tx.commit().await?;
                        Ok(())
                    }
                    .await;
                    match r {
                        Ok(()) => l.ok += 1,
                        Err(_) => l.other += 1,
                    }
                }
                l
            })
        })
        .collect();
    let total = run_for(tasks, &stop, started, duration).await?;
    refpool.close().await;
    eprintln!("  Postgres alone: {:.0} charges/s", total.rate());
    Ok(total)
}

/// The money path alone, without HTTP: the hot user's live charge and its settlement (with the
/// API log and a kept answer of the size the gateway seals) through a charging task of its own,
/// from CLIENTS tasks, as the gateway's call tasks hand them over. What is left between this and
/// case (a) is the HTTP of three hops (client, api, upstream) and the api's own work.
async fn charging_alone(pool: &PgPool, hot: Hot, duration: Duration) -> anyhow::Result<Load> {
    use domain::wallets::charge::{CallLog, Charge, Charger, Outcome, Settle};
    let charger = Charger::spawn(pool.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (charger, stop) = (charger.clone(), stop.clone());
            tokio::spawn(async move {
                let mut l = Load::default();
                while !stop.load(Ordering::Relaxed) {
                    let charged = charger
                        .charge(Charge {
                            partner_id: hot.partner_id,
                            user_id: hot.user_id,
                            api_id: hot.api_id,
                            service: SERVICE.into(),
                            pid: uuid::Uuid::new_v4().to_string(),
                            mode: "live",
                            amount_paise: PRICE,
                            user_amount_paise: PRICE,
                            user_wallet_id: Some(hot.user_wallet),
                            partner_wallet_id: Some(hot.partner_wallet),
                            idempotency_key: None,
                            settled: None,
                            key_id: None,
                        })
                        .await;
                    let Ok(Outcome::Charged {
                        transaction_id,
                        under,
                        ..
                    }) = charged
                    else {
                        l.other += 1;
                        continue;
                    };
                    let settled = charger
                        .settle(Settle {
                            transaction_id,
                            success: true,
                            status_code: 200,
                            log: Some(CallLog {
                                vid: uuid::Uuid::new_v4().to_string(),
                                vpid: String::new(),
                                ip: Some(std::net::Ipv4Addr::LOCALHOST.into()),
                                latency_ms: 1,
                                keep: true,
                                sealed: Some(vec![7; SEALED_ANSWER_BYTES]),
                            }),
                            charged_under: under,
                        })
                        .await;
                    match settled {
                        Ok(Outcome::Settled { refunded: false }) => l.ok += 1,
                        _ => l.other += 1,
                    }
                }
                l
            })
        })
        .collect();
    drop(charger);
    let total = run_for(tasks, &stop, started, duration).await?;
    eprintln!("  charging alone (no HTTP): {:.0} calls/s", total.rate());
    Ok(total)
}

/// The checkpointer's work so far, server-wide (`pg_stat_bgwriter`): checkpoints begun and
/// buffers they wrote. A checkpoint's writes share the disk with the WAL flush every settlement
/// waits for, so the paced phase says whether one ran beside it.
async fn checkpointer(pool: &PgPool) -> anyhow::Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter",
    )
    .fetch_one(pool)
    .await?)
}

/// The books after the run. `ok`/`refunded`: 2xx answers and refunded answers the clients saw
/// (and the charging-alone phase's settled calls); `reference`: the reference's charges, entries
/// of their own.
async fn audit(pool: &PgPool, ok: u64, refunded: u64, reference: u64) -> anyhow::Result<bool> {
    // Wait (bounded) for anything still pending: nothing should be, every caller was answered.
    let mut pending = 0;
    for _ in 0..50 {
        pending = sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM api_transactions WHERE status = 'pending'",
        )
        .fetch_one(pool)
        .await?;
        if pending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let drift: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM wallets w
          WHERE w.balance_paise <> COALESCE((SELECT sum(CASE WHEN e.type = 'credit' THEN e.amount_paise ELSE -e.amount_paise END)
                                               FROM wallet_entries e WHERE e.wallet_id = w.id), 0)",
    )
    .fetch_one(pool)
    .await?;
    let negative: i64 = sqlx::query_scalar("SELECT count(*) FROM wallets WHERE balance_paise < 0")
        .fetch_one(pool)
        .await?;
    let (success, refunds): (i64, i64) =
        sqlx::query_as("SELECT count(*) FILTER (WHERE status = 'success'), count(*) FILTER (WHERE status = 'refunded') FROM api_transactions").fetch_one(pool).await?;
    // Each transaction has exactly its debits, and its refunds only when refunded.
    let mismatched: i64 = sqlx::query_scalar(
        "WITH e AS (SELECT reference, count(*) FILTER (WHERE reason = 'api_call') AS debits, count(*) FILTER (WHERE reason = 'refund') AS refunds
                      FROM wallet_entries WHERE reason IN ('api_call', 'refund') GROUP BY reference)
         SELECT count(*) FROM api_transactions t
           LEFT JOIN e ON e.reference = 'TXN' || lpad(t.id::text, greatest(8, length(t.id::text)), '0')
          WHERE COALESCE(e.debits, 0) <> (CASE WHEN t.user_amount_paise > 0 THEN 1 ELSE 0 END + CASE WHEN t.amount_paise > 0 THEN 1 ELSE 0 END)
             OR COALESCE(e.refunds, 0) <> (CASE WHEN t.status = 'refunded' THEN (CASE WHEN t.user_amount_paise > 0 THEN 1 ELSE 0 END + CASE WHEN t.amount_paise > 0 THEN 1 ELSE 0 END) ELSE 0 END)",
    )
    .fetch_one(pool)
    .await?;
    let reference_entries: i64 =
        sqlx::query_scalar("SELECT count(*) FROM wallet_entries WHERE reference = 'BENCH'")
            .fetch_one(pool)
            .await?;

    let checks = [
        (
            "every balance equals the sum of its entries",
            drift == 0,
            format!("{drift} wallets differ"),
        ),
        (
            "no balance is negative",
            negative == 0,
            format!("{negative} negative"),
        ),
        (
            "no transaction left pending",
            pending == 0,
            format!("{pending} pending"),
        ),
        (
            "2xx answers = success transactions",
            success as u64 == ok,
            format!("{ok} answers, {success} transactions"),
        ),
        (
            "failed calls = refunded transactions",
            refunds as u64 == refunded,
            format!("{refunded} answers, {refunds} transactions"),
        ),
        (
            "each transaction has its debits and refunds",
            mismatched == 0,
            format!("{mismatched} mismatched"),
        ),
        (
            "Postgres-alone charges = their entries",
            reference_entries as u64 == reference,
            format!("{reference} charges, {reference_entries} entries"),
        ),
    ];
    println!("\nledger audit:");
    for (what, good, detail) in &checks {
        println!(
            "  {:<4} {what} ({detail})",
            if *good { "ok" } else { "FAIL" }
        );
    }
    let pass = checks.iter().all(|c| c.1);
    println!("{}", if pass { "PASS" } else { "FAIL" });
    Ok(pass)
}

async fn drop_database(name: &str) -> anyhow::Result<()> {
    let admin = std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let mut conn = sqlx::PgConnection::connect(&admin).await?;
    conn.execute(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .await?;
    Ok(())
}

async fn flush_redis(url: &str) -> anyhow::Result<()> {
    let client = redis::Client::open(url)?;
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .context("connecting to Redis")?;
    redis::cmd("FLUSHDB").query_async::<()>(&mut conn).await?;
    Ok(())
}

fn pct(v: &[Duration], p: usize) -> Option<Duration> {
    let mut v = v.to_vec();
    v.sort();
    (!v.is_empty()).then(|| {
        v[((v.len() * p).div_ceil(100))
            .saturating_sub(1)
            .min(v.len() - 1)]
    })
}

fn ms(d: Option<Duration>) -> String {
    d.map_or("-".into(), |d| {
        format!("{:.2} ms", d.as_secs_f64() * 1000.0)
    })
}

fn ms_diff(a: Option<Duration>, b: Option<Duration>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:+.2} ms", (a.as_secs_f64() - b.as_secs_f64()) * 1000.0),
        _ => "-".into(),
    }
}
