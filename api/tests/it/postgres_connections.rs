//! The platform's connections to Postgres send at once (TCP_NODELAY, `domain::infra::nodelay`):
//! with Nagle's algorithm on, a statement of more than one segment waited 40 ms for the
//! server's delayed acknowledgement. Checked on a pool's connection and on the charging tasks'
//! own connections, each found by the client port the server sees.

use serde_json::json;

use crate::{
    common::{TestApp, row_count},
    gateway_support::{self as gs, Upstream},
};

#[tokio::test]
async fn pool_and_charging_connections_have_nodelay() {
    let app = TestApp::spawn().await;
    let pool = domain::infra::db::connect(&app.db.url, 2).await.unwrap();
    let port: i32 = sqlx::query_scalar("SELECT inet_client_port()")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(
        domain::infra::nodelay::is_set(port as u16),
        Some(true),
        "a pool connection"
    );

    // The charging and settling tasks connect on threads of their own.
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let (st, _, b) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "N1"}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    let ports: Vec<i32> = sqlx::query_scalar(
        "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%charge_group_unflushed(%' AND pid <> pg_backend_pid()",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        ports.len(),
        2,
        "the charging and the settling task: {ports:?}"
    );
    for p in ports {
        assert_eq!(
            domain::infra::nodelay::is_set(p as u16),
            Some(true),
            "port {p}"
        );
    }
}

/// A pool to this host with TLS left to the default connects without it (its handshake waited
/// for delayed acknowledgements, `infra::db::options`), opens its warm connections before it is
/// handed out, and a URL that names `sslmode` gets what it names.
#[tokio::test]
async fn a_pool_to_this_host_starts_warm_and_without_tls() {
    let app = TestApp::spawn().await;
    let options = domain::infra::db::options(&app.db.url).unwrap();
    if std::env::var_os("PGSSLMODE").is_some()
        || !matches!(options.get_host(), "127.0.0.1" | "localhost" | "::1")
    {
        eprintln!("skipped: the test database is not on this host with TLS left to the default");
        return;
    }
    let pool = domain::infra::db::connect_keeping(&app.db.url, 6, 4)
        .await
        .unwrap();
    assert_eq!(pool.size(), 4, "the warm connections are open at once");
    let tls = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";
    let ssl: bool = sqlx::query_scalar(tls).fetch_one(&pool).await.unwrap();
    assert!(!ssl, "a loopback connection left to the default is not TLS");

    let server_tls: String = sqlx::query_scalar("SHOW ssl")
        .fetch_one(&pool)
        .await
        .unwrap();
    let asked = domain::infra::db::connect(&format!("{}?sslmode=prefer", app.db.url), 1)
        .await
        .unwrap();
    let ssl: bool = sqlx::query_scalar(tls).fetch_one(&asked).await.unwrap();
    assert_eq!(ssl, server_tls == "on", "sslmode=prefer named in the URL");
}

/// The charging and settling tasks warm their connections when the process starts (one
/// `charge_group` of a settlement that cannot match), and that writes nothing.
#[tokio::test]
async fn charging_connections_are_warmed_at_start_and_write_nothing() {
    let app = TestApp::spawn().await;
    let warmed = async {
        loop {
            let n: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%charge_group_unflushed(%' AND pid <> pg_backend_pid()",
            )
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
            if n == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), warmed)
        .await
        .expect("both charging connections ran charge_group before any call");
    for table in [
        "api_transactions",
        "wallet_entries",
        "api_logs",
        "list_counts",
    ] {
        assert_eq!(row_count(&app.db.pool, table).await, 0, "{table}");
    }
}
