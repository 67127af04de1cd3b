//! A fresh database per test, copied from a migrated template (fast: no migrations per test).
//! Each test process may be separate (nextest), so the template is built under an advisory lock.

use domain::PgPool;
use sqlx::{Connection, Executor, PgConnection};

pub struct TestDb {
    pub url: String,
    pub name: String,
    pub pool: PgPool,
}

fn admin_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

fn with_db(url: &str, db: &str) -> String {
    let (base, _) = url.rsplit_once('/').expect("a database URL has a path");
    format!("{base}/{db}")
}

/// The template's name changes with the migrations, so a stale template is never reused.
fn template_name() -> String {
    let mut h = 0u64;
    for m in domain::infra::db::migrator().iter() {
        for b in m.checksum.iter() {
            h = h.wrapping_mul(31).wrapping_add(*b as u64);
        }
    }
    format!("kyc_test_template_{:012x}", h & 0xffff_ffff_ffff)
}

impl TestDb {
    pub async fn new() -> Self {
        let admin = admin_url();
        let template = template_name();
        let mut conn = PgConnection::connect(&admin)
            .await
            .expect("connecting to the test Postgres (TEST_DATABASE_URL)");
        conn.execute("SELECT pg_advisory_lock(727274)")
            .await
            .unwrap();
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(&template)
                .fetch_one(&mut conn)
                .await
                .unwrap();
        if !exists {
            let building = format!("{template}_building");
            conn.execute(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {building}"
            )))
            .await
            .unwrap();
            conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {building}")))
                .await
                .unwrap();
            let pool = domain::infra::db::connect(&with_db(&admin, &building), 2)
                .await
                .unwrap();
            jobs::migrate_all(&pool)
                .await
                .expect("migrating the test template");
            pool.close().await;
            conn.execute(sqlx::AssertSqlSafe(format!(
                "ALTER DATABASE {building} RENAME TO {template}"
            )))
            .await
            .unwrap();
        }
        let name = format!("kyc_test_{}", uuid::Uuid::new_v4().simple());
        conn.execute(sqlx::AssertSqlSafe(format!(
            "CREATE DATABASE {name} TEMPLATE {template}"
        )))
        .await
        .unwrap();
        conn.execute("SELECT pg_advisory_unlock(727274)")
            .await
            .unwrap();
        let url = with_db(&admin, &name);
        let pool = domain::infra::db::connect(&url, 20).await.unwrap();
        Self { url, name, pool }
    }
}

/// Each test's database is dropped when the test ends, so thousands of runs do not fill the disk.
/// `Drop` cannot await, and the test's runtime may be shutting down, so the drop runs on a thread
/// of its own; FORCE ends the connections the test's app still holds. A test killed before this
/// runs leaves its database to the sweep in `scripts/test`.
impl Drop for TestDb {
    fn drop(&mut self) {
        let name = std::mem::take(&mut self.name);
        if name.is_empty() || std::env::var_os("KEEP_TEST_DB").is_some() {
            return;
        }
        let pool = self.pool.clone();
        let admin = admin_url();
        let dropper = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                drop(pool);
                if let Ok(mut conn) = PgConnection::connect(&admin).await {
                    let _ = conn
                        .execute(sqlx::AssertSqlSafe(format!(
                            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                        )))
                        .await;
                }
            });
        });
        let _ = dropper.join();
    }
}
