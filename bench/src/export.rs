//! `export`: rows per second of the real `export_csv` job and its peak memory growth, beside
//! `psql \copy` of the same rows to a file, measured in the same run on a throw-away database
//! (dropped at the end).
//!
//! It seeds one partner with 1,000 users and N (1,000,000) API transactions over the last 58
//! days, then exports them all (the partner's 'all users' scope, 10 parts of 100,000 rows into
//! the local store) by calling the job's handler in this process, while a thread samples the
//! process's resident memory every 5 ms. The reference is `psql \copy (SELECT … same rows, same
//! order …) TO file CSV`, run twice; the faster run counts. Floor: at least 0.5x the reference's
//! rows/s and under 64 MiB of growth; goal 0.9x.
//!
//! `cargo run -p bench --release -- export [ROWS]` (Postgres at `TEST_DATABASE_URL`, `psql` on
//! the PATH).

use std::{
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use domain::exports::{self, Kind, NewExport, Requester, Scope};

const USERS: i64 = 1_000;
const MIB: f64 = 1024.0 * 1024.0;

pub fn run(args: Vec<String>) -> anyhow::Result<()> {
    let rows: i64 = args
        .first()
        .map(|a| a.parse())
        .transpose()
        .context("ROWS must be a number")?
        .unwrap_or(1_000_000);
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let db = rt.block_on(testkit::TestDb::new());
    let mut config = testkit::config(&db.url);
    let domain::infra::config::StorageConfig::Local { dir } = config.storage.clone() else {
        bail!("the bench writes to the local store")
    };
    config.database_max_connections = 4;
    let result = (|| -> anyhow::Result<bool> {
        let t = Instant::now();
        let partner_id = rt.block_on(seed(&db.pool, rows))?;
        eprintln!(
            "  seeded {rows} transactions in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        let today = exports::today_ist(chrono::Utc::now());
        let (from, to) = (today - chrono::Duration::days(70), today);

        let copy_file = dir.with_file_name("copy.csv");
        let copy_sql = format!(
            "\\copy (SELECT t.created_at, t.user_id, t.pid, t.service, t.user_amount_paise, t.remaining_paise, t.amount_type \
               FROM api_transactions t WHERE t.created_at >= '{}' AND t.created_at < '{}' AND t.partner_id = {partner_id} \
              ORDER BY t.created_at DESC, t.id DESC) TO '{}' WITH (FORMAT csv, HEADER)",
            exports::day_start(from).to_rfc3339(),
            exports::day_start(to.succ_opt().unwrap()).to_rfc3339(),
            copy_file.display()
        );
        let copies = [
            psql_copy(&db.url, &copy_sql)?,
            psql_copy(&db.url, &copy_sql)?,
        ];
        let copy_secs = copies.iter().copied().fold(f64::MAX, f64::min);
        // Counted as a stream: reading the whole file (over 100 MiB) into one string left the
        // allocator holding that memory when the worker's baseline below is sampled.
        let copied_lines =
            std::io::BufRead::lines(std::io::BufReader::new(std::fs::File::open(&copy_file)?))
                .count() as i64
                - 1;
        let _ = std::fs::remove_file(&copy_file);
        if copied_lines != rows {
            bail!("\\copy wrote {copied_lines} rows, expected {rows}");
        }

        let ctx = jobs::JobContext::new(db.pool.clone(), Arc::new(config.clone()))?;
        let export_id = rt.block_on(async {
            let mut conn = db.pool.acquire().await?;
            let id = exports::create(
                &mut conn,
                &NewExport {
                    requester: Requester::Partner(partner_id),
                    kind: Kind::ApiTransactions,
                    scope: Scope::Partner(partner_id),
                    from,
                    to,
                    view: Default::default(),
                },
            )
            .await?;
            anyhow::Ok(id)
        })?;

        let sampler = Sampler::start();
        let t = Instant::now();
        rt.block_on(jobs::Job::run(jobs::ExportCsv { export_id }, &ctx))?;
        let job_secs = t.elapsed().as_secs_f64();
        let (base, peak) = sampler.stop();

        let (status, total, parts): (String, Option<i64>, i32) = rt.block_on(
            sqlx::query_as("SELECT status, total_records, part_count FROM exports WHERE id = $1")
                .bind(export_id)
                .fetch_one(&db.pool),
        )?;
        let bytes: u64 = walk(&dir.join(format!("exports/{export_id}")))?;
        if status != "completed" || total != Some(rows) {
            bail!("export {export_id} ended {status} with {total:?} rows, expected {rows}");
        }

        let job_rate = rows as f64 / job_secs;
        let copy_rate = rows as f64 / copy_secs;
        let ratio = job_rate / copy_rate;
        let growth = peak.saturating_sub(base) as f64 / MIB;
        println!(
            "\nexport: {rows} API transactions of one partner's {USERS} users, {cores} cores (job, psql and Postgres on one machine)\n"
        );
        println!(
            "{:<44} {:>10} {:>12} {:>10}",
            "", "seconds", "rows/s", "x \\copy"
        );
        println!(
            "{:<44} {:>10.2} {:>12.0} {:>10.2}",
            format!(
                "export_csv job ({parts} parts, {:.0} MiB of CSV)",
                bytes as f64 / MIB
            ),
            job_secs,
            job_rate,
            ratio
        );
        println!(
            "{:<44} {:>10.2} {:>12.0} {:>10}",
            "psql \\copy of the same rows (best of 2)", copy_secs, copy_rate, "1.00"
        );
        println!(
            "\nworker memory: {:.1} MiB resident before, {:.1} MiB peak during, growth {growth:.1} MiB",
            base as f64 / MIB,
            peak as f64 / MIB
        );
        let fast = ratio >= 0.5;
        let flat = growth < 64.0;
        println!(
            "floor 0.5x \\copy: {}; floor < 64 MiB growth: {}; goal 0.9x: {}",
            met(fast),
            met(flat),
            met(ratio >= 0.9)
        );
        Ok(fast && flat)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    // TestDb drops its database on a thread of its own.
    drop(db);
    match result {
        Ok(true) => Ok(()),
        Ok(false) => bail!("below the floor"),
        Err(e) => Err(e),
    }
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

/// One partner, its users, and `rows` API transactions spread over the last 58 days.
async fn seed(pool: &sqlx::PgPool, rows: i64) -> anyhow::Result<i64> {
    let partner_id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at)
         VALUES ('Bench', 'Partner', 'bench@partner.test', '9876543210', 'benchexport', 'x', now()) RETURNING id",
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
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_type, amount_paise, user_amount_paise, remaining_paise, created_at)
         SELECT $1, u.ids[1 + g % $3], CASE WHEN g % 50 = 0 THEN 'pan, \"lite\"' ELSE 'pan_verification' END, 'PID' || (1000 + g % 90),
                'success', 200, CASE WHEN g % 10 = 0 THEN 'credit' ELSE 'debit' END, 250, 300 + g % 700,
                CASE WHEN g % 9 = 0 THEN NULL ELSE 10000000 + g END, now() - g * interval '5 seconds'
           FROM generate_series(1, $2) g, (SELECT array_agg(id ORDER BY id) AS ids FROM end_users WHERE partner_id = $1) u",
    )
    .bind(partner_id)
    .bind(rows)
    .bind(USERS as i32)
    .execute(pool)
    .await?;
    sqlx::query("VACUUM ANALYZE api_transactions")
        .execute(pool)
        .await?;
    Ok(partner_id)
}

/// Seconds `psql -c COPY` took.
fn psql_copy(url: &str, sql: &str) -> anyhow::Result<f64> {
    let t = Instant::now();
    let out = Command::new("psql")
        .arg(url)
        .arg("-X")
        .arg("-q")
        .arg("-v")
        .arg("ON_ERROR_STOP=1")
        .arg("-c")
        .arg(sql)
        .output()
        .context("running psql")?;
    if !out.status.success() {
        bail!(
            "psql \\copy failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(t.elapsed().as_secs_f64())
}

fn walk(dir: &std::path::Path) -> anyhow::Result<u64> {
    let mut n = 0;
    for e in std::fs::read_dir(dir)? {
        n += e?.metadata()?.len();
    }
    Ok(n)
}

/// Samples this process's resident set every 5 ms on a thread of its own.
struct Sampler {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    base: u64,
    thread: std::thread::JoinHandle<()>,
}

fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

impl Sampler {
    fn start() -> Self {
        let base = rss();
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(base));
        let (s, p) = (stop.clone(), peak.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Self {
            stop,
            peak,
            base,
            thread,
        }
    }

    fn stop(self) -> (u64, u64) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        (self.base, self.peak.load(Ordering::Relaxed).max(rss()))
    }
}
