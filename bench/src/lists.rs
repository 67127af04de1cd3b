//! `lists`: server time of the big lists (issue 11) at ten million rows, page 1 and page 1,000,
//! each beside a plain `count(*)` of the same rows (what the total cost before the counters),
//! measured in the same run on a throw-away database (dropped at the end).
//!
//! It seeds one partner with 1,000 users and ROWS (10,000,000) API transactions spread evenly
//! over the last 365 days, a fifth of them one user's; as many API logs; and that user's API
//! wallet ledger (a debit per call, ROWS/5 entries). Seeding is `INSERT … SELECT` over
//! `generate_series` in statements of a million rows, through the real triggers, then
//! `VACUUM ANALYZE` (what autovacuum does to insert-only tables). Each list is the domain
//! function a handler calls (so the time is the server's: SQL, round trips on loopback and row
//! decoding), run RUNS times per page after one warm-up; `count(*)` runs 3 times. Goal: every
//! counted list's page 1 and page 1,000 and the dashboards under 50 ms at p95.
//!
//! `cargo run -p bench --release -- lists [--rows N] [--runs N]` (Postgres at
//! `TEST_DATABASE_URL`).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use chrono::{NaiveDate, Utc};
use domain::{
    infra::paging::PageRequest,
    wallets::transactions::{self, Filter, Kind, PartnerFilter},
    wallets::{self, Owner, WalletKind},
};
use sqlx::{PgConnection, PgPool};

const USERS: i64 = 1_000;
const CHUNK: i64 = 1_000_000;
const SERVICES: [&str; 8] = [
    "pan_verification",
    "pan_comprehensive",
    "aadhaar_lite",
    "gst_check",
    "bank_account",
    "udyam",
    "voter_id",
    "dl_check",
];

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    let mut rows: i64 = 10_000_000;
    let mut runs: usize = 20;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rows" => {
                rows = it
                    .next()
                    .context("--rows N")?
                    .replace('_', "")
                    .parse()
                    .context("--rows must be a number")?
            }
            "--runs" => {
                runs = it
                    .next()
                    .context("--runs N")?
                    .parse()
                    .context("--runs must be a number")?
            }
            other => bail!("unknown argument {other:?}: lists [--rows N] [--runs N]"),
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let db = rt.block_on(testkit::TestDb::new());
    let result = rt.block_on(measure(&db.pool, rows, runs.max(2)));
    // TestDb drops its database on a thread of its own.
    drop(db);
    result
}

struct Seeded {
    partner_id: i64,
    big_user: i64,
    big_email: String,
    small_user: i64,
}

async fn measure(pool: &PgPool, rows: i64, runs: usize) -> anyhow::Result<()> {
    let t = Instant::now();
    let s = seed(pool, rows).await?;
    eprintln!("  seeded in {:.0} s", t.elapsed().as_secs_f64());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let mut conn = pool.acquire().await?;
    let conn: &mut PgConnection = &mut conn;
    let today = Utc::now().date_naive();
    let month = Filter {
        from: Some(today - chrono::Days::new(90)),
        to: Some(today - chrono::Days::new(60)),
    };
    let (p, big, small) = (s.partner_id, s.big_user, s.small_user);

    println!(
        "\nlists: {rows} API transactions of one partner over 365 days, {} of one user; {cores} cores, load {}",
        rows / 5,
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "server time in ms (the domain function a handler calls), {runs} runs per page; count(*) of the same rows, 3 runs\n"
    );
    println!(
        "{:<58} {:>9} {:>9} {:>9} {:>9} {:>10} {:>11}",
        "list", "p1 p50", "p1 p95", "p1000 p50", "p1000 p95", "count(*)", "total"
    );

    let by = |f: &str| PartnerFilter {
        service: Some(f.into()),
        ..PartnerFilter::default()
    };
    let mut slow = Vec::new();
    macro_rules! case {
        ($name:expr, $count_sql:expr, $counted:expr, |$page:ident| $call:expr) => {{
            let mut times = [Vec::new(), Vec::new()];
            let mut total = 0;
            for (i, n) in [1i64, 1000].into_iter().enumerate() {
                let $page = PageRequest::new(Some(n), None, 50);
                let got = $call.await?;
                total = got.total;
                for _ in 0..runs {
                    let t = Instant::now();
                    let _ = $call.await?;
                    times[i].push(t.elapsed());
                }
            }
            let count_sql: String = $count_sql;
            let mut counts = Vec::new();
            let mut counted = 0i64;
            for _ in 0..3 {
                let t = Instant::now();
                counted = sqlx::query_scalar(sqlx::AssertSqlSafe(count_sql.clone()))
                    .fetch_one(&mut *conn)
                    .await?;
                counts.push(t.elapsed());
            }
            if counted != total {
                bail!("{}: the list says {total} rows, count(*) {counted}", $name);
            }
            let [p1, p1000] = times;
            println!(
                "{:<58} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>10.0} {:>11}",
                $name,
                ms(&p1, 50),
                ms(&p1, 95),
                ms(&p1000, 50),
                ms(&p1000, 95),
                ms(&counts, 50),
                total
            );
            if $counted && (ms(&p1, 95) >= 50.0 || ms(&p1000, 95) >= 50.0) {
                slow.push($name);
            }
        }};
    }

    let user_rows = format!(
        "FROM api_transactions t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = {p}"
    );
    case!(
        "user's API transactions",
        format!("SELECT count(*) {user_rows} AND t.user_id = {big}"),
        true,
        |page| transactions::for_user(conn, Kind::Api, p, big, &Filter::default(), page)
    );
    case!(
        "user's API transactions, 31 days",
        format!(
            "SELECT count(*) {user_rows} AND t.user_id = {big} AND t.created_at >= '{}' AND t.created_at < '{}'",
            day(month.from),
            day(month.to.map(|d| d + chrono::Days::new(1)))
        ),
        true,
        |page| transactions::for_user(conn, Kind::Api, p, big, &month, page)
    );
    case!(
        "user's API logs",
        format!("SELECT count(*) FROM api_logs t WHERE t.partner_id = {p} AND t.user_id = {big}"),
        true,
        |page| domain::gateway::logs::api_logs(conn, p, big, &Filter::default(), None, page)
    );
    let wallet = wallets::wallet_id(
        conn,
        Owner::User {
            partner_id: p,
            user_id: big,
        },
        WalletKind::Api,
    )
    .await?;
    case!(
        "user's API ledger (wallet entries)",
        format!("SELECT count(*) FROM wallet_entries WHERE wallet_id = {wallet}"),
        true,
        |page| transactions::ledger(conn, p, big, WalletKind::Api, &Filter::default(), page)
    );
    case!(
        "partner's API transactions (User/My Transactions)",
        format!("SELECT count(*) {user_rows}"),
        true,
        |page| transactions::for_partner(conn, Kind::Api, p, &PartnerFilter::default(), page)
    );
    case!(
        "  services=pan",
        format!("SELECT count(*) {user_rows} AND t.service ILIKE '%pan%'"),
        true,
        |page| transactions::for_partner(conn, Kind::Api, p, &by("pan"), page)
    );
    case!(
        "  email=<the big user's>",
        format!(
            "SELECT count(*) {user_rows} AND u.email ILIKE '%{}%'",
            s.big_email
        ),
        true,
        |page| transactions::for_partner(
            conn,
            Kind::Api,
            p,
            &PartnerFilter {
                email: Some(s.big_email.clone()),
                ..PartnerFilter::default()
            },
            page
        )
    );
    case!(
        "  user_id=<a small user>, services=gst, 31 days",
        format!(
            "SELECT count(*) {user_rows} AND t.user_id = {small} AND t.service ILIKE '%gst%' AND t.created_at >= '{}' AND t.created_at < '{}'",
            day(month.from),
            day(month.to.map(|d| d + chrono::Days::new(1)))
        ),
        true,
        |page| transactions::for_partner(
            conn,
            Kind::Api,
            p,
            &PartnerFilter {
                user_id: Some(small),
                service: Some("gst".into()),
                dates: month.clone(),
                ..PartnerFilter::default()
            },
            page
        )
    );
    case!(
        "partner's API logs",
        format!(
            "SELECT count(*) FROM api_logs t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = {p}"
        ),
        true,
        |page| domain::gateway::logs::partner_api_logs(
            conn,
            p,
            &PartnerFilter::default(),
            None,
            page
        )
    );
    case!(
        "client's API logs (super admin), service=udyam",
        format!("SELECT count(*) FROM api_logs t WHERE t.partner_id = {p} AND t.service = 'udyam'"),
        true,
        |page| domain::gateway::logs::client_api_logs(
            conn,
            p,
            &domain::gateway::logs::ClientLogFilter {
                service: Some("udyam".into()),
                ..Default::default()
            },
            page
        )
    );
    case!(
        "partner's API transactions, pid=PID00000 (count fallback)",
        format!("SELECT count(*) {user_rows} AND t.pid ILIKE '%PID00000%'"),
        false,
        |page| transactions::for_partner(
            conn,
            Kind::Api,
            p,
            &PartnerFilter {
                pid: Some("PID00000".into()),
                ..PartnerFilter::default()
            },
            page
        )
    );

    // The dashboards: the super admin's counts and the partner's tiles, beside the count(*)s
    // they ran before.
    let mut dash = Vec::new();
    let mut tiles = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let d = domain::partners::clients::dashboard(conn).await?;
        dash.push(t.elapsed());
        let t = Instant::now();
        let (_, n) = domain::partners::users::partner_counts(conn, p).await?;
        tiles.push(t.elapsed());
        if d.total_transactions != rows || n != rows {
            bail!(
                "the dashboards count {} and {n} transactions, not {rows}",
                d.total_transactions
            );
        }
    }
    let mut before = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let _: (i64, i64, i64) = sqlx::query_as("SELECT (SELECT count(*) FROM partners), (SELECT count(*) FROM api_transactions), (SELECT count(*) FROM product_transactions)")
            .fetch_one(&mut *conn)
            .await?;
        before.push(t.elapsed());
    }
    println!(
        "{:<58} {:>9.1} {:>9.1} {:>9} {:>9} {:>10.0} {:>11}",
        "super admin's dashboard counts",
        ms(&dash, 50),
        ms(&dash, 95),
        "",
        "",
        ms(&before, 50),
        rows
    );
    println!(
        "{:<58} {:>9.1} {:>9.1} {:>9} {:>9} {:>10} {:>11}",
        "partner's dashboard tiles",
        ms(&tiles, 50),
        ms(&tiles, 95),
        "",
        "",
        "",
        rows
    );
    if ms(&dash, 95) >= 50.0 || ms(&tiles, 95) >= 50.0 {
        slow.push("dashboards");
    }
    // The dashboard's earnings over a year (every row of the seed), from earnings_counts,
    // beside the sums over the transactions they replace; both must agree to the paisa.
    let year = domain::wallets::earnings::Period::parse(
        Some(&(today - chrono::Days::new(365)).to_string()),
        Some(&today.to_string()),
        today,
    )?;
    let mut earned = Vec::new();
    let mut figures = domain::wallets::earnings::Figures::default();
    for _ in 0..runs {
        let t = Instant::now();
        figures = domain::wallets::earnings::of_partner(conn, p, year)
            .await?
            .total;
        earned.push(t.elapsed());
    }
    let mut summed = Vec::new();
    let mut raw = (0i64, 0i64, 0i64);
    for _ in 0..3 {
        let t = Instant::now();
        raw = sqlx::query_as(
            "SELECT count(*), sum(user_amount_paise)::bigint, sum(amount_paise)::bigint FROM api_transactions
              WHERE partner_id = $1 AND status = 'success' AND created_at >= $2",
        )
        .bind(p)
        .bind(domain::infra::paging::day_start(year.from))
        .fetch_one(&mut *conn)
        .await?;
        summed.push(t.elapsed());
    }
    if (figures.calls, figures.revenue_paise, figures.cost_paise) != raw {
        bail!("earnings say {figures:?}, the transactions {raw:?}");
    }
    println!(
        "{:<58} {:>9.1} {:>9.1} {:>9} {:>9} {:>10.0} {:>11}",
        "partner's earnings, 366 days (per day and per API)",
        ms(&earned, 50),
        ms(&earned, 95),
        "",
        "",
        ms(&summed, 50),
        figures.calls
    );
    if ms(&earned, 95) >= 50.0 {
        slow.push("earnings");
    }
    println!(
        "\ngoal: counted lists (every row but the PID fallback), the dashboards and the earnings under 50 ms at p95: {}",
        if slow.is_empty() {
            "met".to_owned()
        } else {
            format!("NOT met by {}", slow.join(", "))
        }
    );
    Ok(())
}

fn day(d: Option<NaiveDate>) -> String {
    d.map(|d| domain::infra::paging::day_start(d).to_rfc3339())
        .unwrap_or_default()
}

/// The `pct` percentile of `times`, in milliseconds.
fn ms(times: &[Duration], pct: usize) -> f64 {
    let mut t: Vec<Duration> = times.to_vec();
    t.sort();
    let i = ((t.len() * pct).div_ceil(100)).clamp(1, t.len()) - 1;
    t[i].as_secs_f64() * 1000.0
}

/// One partner with `USERS` users; `rows` API transactions over the last 365 days (every
/// fifth one the first user's), one API log per transaction, and a debit in the first user's
/// API wallet per call of its.
async fn seed(pool: &PgPool, rows: i64) -> anyhow::Result<Seeded> {
    let partner_id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at)
         VALUES ('Bench', 'Partner', 'bench@partner.test', '9876543210', 'benchlists', 'x', now()) RETURNING id",
    )
    .fetch_one(pool)
    .await?;
    sqlx::query(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash)
         SELECT $1, 'Asha', 'Rao', 'user' || g || '@bench.test', '9876543210', 'x' FROM generate_series(1, $2) g",
    )
    .bind(partner_id)
    .bind(USERS)
    .execute(pool)
    .await?;
    let users: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, email::text FROM end_users WHERE partner_id = $1 ORDER BY id")
            .bind(partner_id)
            .fetch_all(pool)
            .await?;
    let ids: Vec<i64> = users.iter().map(|u| u.0).collect();
    let services: Vec<String> = SERVICES.iter().map(|s| s.to_string()).collect();
    let span = Duration::from_secs(365 * 86_400).as_secs_f64() / rows as f64;
    let now = Utc::now();
    let mut start = 1;
    while start <= rows {
        let end = (start + CHUNK - 1).min(rows);
        let t = Instant::now();
        // Row g is g * span seconds old: ids grow with age reversed, as a real log's do not,
        // which the lists do not care about (they order by time, then id).
        sqlx::query(
            "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise,
                                           remaining_paise, partner_remaining_paise, created_at)
             SELECT $1, CASE WHEN g % 5 = 0 THEN $2[1] ELSE $2[2 + g % (array_length($2, 1) - 1)] END, $3[1 + (g / 7) % array_length($3, 1)],
                    'PID' || lpad(g::text, 10, '0'), 'success', 200, 250, 300, 1000000, 5000000,
                    $4::timestamptz - make_interval(secs => g * $5)
               FROM generate_series($6::bigint, $7::bigint) g",
        )
        .bind(partner_id)
        .bind(&ids)
        .bind(&services)
        .bind(now)
        .bind(span)
        .bind(start)
        .bind(end)
        .execute(pool)
        .await?;
        eprintln!(
            "  api_transactions {end}/{rows} ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
        start = end + 1;
    }
    let (lo, hi): (i64, i64) = sqlx::query_as("SELECT min(id), max(id) FROM api_transactions")
        .fetch_one(pool)
        .await?;
    let mut conn = pool.acquire().await?;
    let wallet = wallets::wallet_id(
        &mut conn,
        Owner::User {
            partner_id,
            user_id: ids[0],
        },
        WalletKind::Api,
    )
    .await?;
    drop(conn);
    let mut from = lo;
    while from <= hi {
        let to = (from + CHUNK - 1).min(hi);
        let t = Instant::now();
        sqlx::query(
            "INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, created_at)
             SELECT partner_id, user_id, id, service, pid, 'VID' || id, 'VPID' || id, 200, user_amount_paise, created_at
               FROM api_transactions WHERE id BETWEEN $1 AND $2",
        )
        .bind(from)
        .bind(to)
        .execute(pool)
        .await?;
        sqlx::query(
            "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind, created_at)
             SELECT $3, 'debit', user_amount_paise, remaining_paise, 'api_call', 'TXN' || lpad(id::text, 8, '0'), 'system', created_at
               FROM api_transactions WHERE id BETWEEN $1 AND $2 AND user_id = $4",
        )
        .bind(from)
        .bind(to)
        .bind(wallet)
        .bind(ids[0])
        .execute(pool)
        .await?;
        eprintln!(
            "  api_logs and ledger up to id {to} of {hi} ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
        from = to + 1;
    }
    for table in [
        "api_transactions",
        "api_logs",
        "wallet_entries",
        "list_counts",
        "earnings_counts",
        "end_users",
    ] {
        let t = Instant::now();
        sqlx::query(sqlx::AssertSqlSafe(format!("VACUUM ANALYZE {table}")))
            .execute(pool)
            .await?;
        eprintln!(
            "  vacuum analyze {table} ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
    }
    Ok(Seeded {
        partner_id,
        big_user: ids[0],
        big_email: users[0].1.clone(),
        small_user: ids[USERS as usize / 2],
    })
}
