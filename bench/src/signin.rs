//! `signin`: a burst of concurrent partner sign-ins against the platform started in this
//! process (a fresh database from `testkit`, the real router on a loopback port, a server
//! runtime with one worker thread per core, as `api serve` has). Reports sign-in p50/p99,
//! `/healthz` p50/p99/max measured *during* the burst, and failed requests (connection resets,
//! timeouts), twice in the same run: with argon2 on the bounded hashing pool (today's code) and,
//! as the reference, on the async threads (the old code, behind a bench-only switch).
//!
//! `cargo run -p bench --release -- signin [N]` (N defaults to 300; needs Postgres at
//! `TEST_DATABASE_URL`).

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;

struct Round {
    sign_in: Vec<Duration>,
    sign_in_failed: usize,
    sign_in_reset: usize,
    healthz: Vec<Duration>,
    healthz_failed: usize,
    wall: Duration,
}

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    let n: usize = args
        .first()
        .map(|a| a.parse())
        .transpose()
        .context("N must be a number")?
        .unwrap_or(300);
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let (base, _server) = start_platform(n)?;
    let client = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;

    let at_rest = client.block_on(healthz_at_rest(&base))?;
    domain::infra::crypto::hash_on_async_threads_for_bench(false);
    let pool = client.block_on(burst(&base, n))?;
    domain::infra::crypto::hash_on_async_threads_for_bench(true);
    let inline = client.block_on(burst(&base, n))?;
    domain::infra::crypto::hash_on_async_threads_for_bench(false);

    println!(
        "{n} concurrent partner sign-ins, server runtime of {cores} worker threads ({cores} cores)\n"
    );
    println!(
        "{:<28} {:>9} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "argon2 runs", "sign-in", "sign-in", "/healthz", "/healthz", "/healthz", "lost", "burst"
    );
    println!(
        "{:<28} {:>9} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "", "p50", "p99", "p50", "p99", "max", "", "wall"
    );
    for (name, r) in [
        ("on the hashing pool (now)", &pool),
        ("on the async threads (old)", &inline),
    ] {
        println!(
            "{:<28} {:>9} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8}",
            name,
            ms(pct(&r.sign_in, 50)),
            ms(pct(&r.sign_in, 99)),
            ms(pct(&r.healthz, 50)),
            ms(pct(&r.healthz, 99)),
            ms(r.healthz.iter().max().copied()),
            format!(
                "{}/{}/{}",
                r.sign_in_reset, r.sign_in_failed, r.healthz_failed
            ),
            format!("{:.1}s", r.wall.as_secs_f64()),
        );
    }
    println!(
        "\n/healthz at rest: p50 {} p99 {}; all /healthz probes during each burst (pool: {}, old: {})",
        ms(pct(&at_rest, 50)),
        ms(pct(&at_rest, 99)),
        pool.healthz.len(),
        inline.healthz.len()
    );
    println!(
        "lost = sign-ins with no HTTP answer (reset, timeout) / sign-ins answered with an error (5xx) / /healthz probes with no answer"
    );
    Ok(())
}

/// Starts the api on its own runtime and thread; returns its base URL. N partners share one
/// password hash (computed once), verified and active.
fn start_platform(n: usize) -> anyhow::Result<(String, std::thread::JoinHandle<()>)> {
    let (tx, rx) = std::sync::mpsc::channel::<anyhow::Result<String>>();
    let handle = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("server runtime");
        rt.block_on(async move {
            let db = testkit::TestDb::new().await;
            let mut config = testkit::config(&db.url);
            // The burst comes from one address; the per-address limits are not what is measured.
            config.rate_limits.sign_in = 1_000_000;
            config.database_max_connections = 20;
            let pool = domain::infra::db::connect(&db.url, 20).await.expect("pool");
            let hash = domain::infra::crypto::hash_password_pooled("Secret123").await.expect("hash");
            sqlx::query(
                "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at)
                 SELECT 'Bench', 'Partner', 'bench' || i || '@bench.test', '9876543210', 'bench' || i, $1, now()
                   FROM generate_series(1, $2) i",
            )
            .bind(&hash)
            .bind(n as i64)
            .execute(&pool)
            .await
            .expect("partners");
            let state = api::AppState::new(pool, Arc::new(config));
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let _ = tx.send(Ok(format!("http://{}", listener.local_addr().expect("addr"))));
            api::serve(listener, state, std::future::pending()).await.expect("serve");
            drop(db);
        });
    });
    let base = rx
        .recv_timeout(Duration::from_secs(120))
        .context("the platform did not start")??;
    Ok((base, handle))
}

async fn healthz_at_rest(base: &str) -> anyhow::Result<Vec<Duration>> {
    let client = reqwest::Client::new();
    let mut out = vec![];
    for _ in 0..50 {
        let t = Instant::now();
        client
            .get(format!("{base}/healthz"))
            .send()
            .await?
            .error_for_status()?;
        out.push(t.elapsed());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(out)
}

async fn burst(base: &str, n: usize) -> anyhow::Result<Round> {
    // Connections of their own, as n browsers would have.
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(0)
        .build()?;
    let stop = Arc::new(AtomicBool::new(false));
    let probe = {
        let (base, stop) = (base.to_owned(), stop.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("client");
            let (mut ok, mut failed) = (vec![], 0);
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                match client.get(format!("{base}/healthz")).send().await {
                    Ok(r) if r.status().is_success() => ok.push(t.elapsed()),
                    _ => failed += 1,
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            (ok, failed)
        })
    };
    let started = Instant::now();
    let tasks: Vec<_> = (1..=n)
        .map(|i| {
            let (client, url) = (client.clone(), format!("{base}/api/v1/partner/login"));
            tokio::spawn(async move {
                let t = Instant::now();
                let body = serde_json::json!({"email": format!("bench{i}@bench.test"), "password": "Secret123", "captcha": null});
                match client.post(url).json(&body).send().await {
                    Ok(r) if r.status().is_success() => Ok(t.elapsed()),
                    Ok(_) => Err(false),
                    Err(_) => Err(true),
                }
            })
        })
        .collect();
    let mut sign_in = vec![];
    let (mut sign_in_failed, mut sign_in_reset) = (0, 0);
    for t in tasks {
        match t.await? {
            Ok(d) => sign_in.push(d),
            Err(true) => sign_in_reset += 1,
            Err(false) => sign_in_failed += 1,
        }
    }
    let wall = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let (healthz, healthz_failed) = probe.await?;
    Ok(Round {
        sign_in,
        sign_in_failed,
        sign_in_reset,
        healthz,
        healthz_failed,
        wall,
    })
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
        format!("{:.0} ms", d.as_secs_f64() * 1000.0)
    })
}
