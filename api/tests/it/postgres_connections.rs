//! The platform's connections to Postgres send at once (TCP_NODELAY, `domain::infra::nodelay`):
//! with Nagle's algorithm on, a statement of more than one segment waited 40 ms for the
//! server's delayed acknowledgement. Checked on a pool's connection and on the charging tasks'
//! own connections, each found by the client port the server sees.

use serde_json::json;

use crate::{
    common::TestApp,
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
        "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%charge_group(%' AND pid <> pg_backend_pid()",
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
