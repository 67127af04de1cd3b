//! The database goes away under a running api process and comes back: the charging tasks hold
//! a connection of their own from group to group (`wallets::charge`), so they must notice it
//! broke and take a fresh one, not answer errors for ever. Calls made while it is away fail
//! without moving money; calls after it is back are charged as usual.

use std::time::Duration;

use serde_json::json;
use testkit::proxy::TcpProxy;

use crate::{
    common::TestApp,
    gateway_support::{self as gs, Upstream},
};

#[tokio::test]
async fn charging_recovers_when_the_database_comes_back() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 100_000, 100_000).await;
    let (proxy, through) = TcpProxy::postgres(&app.db.url).await;
    let (base, _stop) = gs::instance_on(&app, &through).await;
    let call = |i: u32| {
        let (app, base, key) = (&app, &base, &s.key);
        async move {
            gs::verify(
                app,
                base,
                key,
                "pan_check",
                &json!({"id_number": format!("P{i}")}),
            )
            .await
            .0
        }
    };
    for i in 0..5 {
        assert_eq!(call(i).await, 200);
    }

    // Away: every connection through the proxy cut, new ones refused. The call fails at once
    // (its group's statement finds the connection gone) and moves no money.
    proxy.refuse();
    let during = tokio::time::timeout(Duration::from_secs(30), call(100))
        .await
        .expect("a call while the database is away answers");
    assert!(during >= 500, "{during}");

    // Back. The pool pings connections idle for a second before handing them out.
    proxy.accept();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(call(200).await, 200, "the first call after the outage");
    let after = futures::future::join_all((300..320).map(call)).await;
    assert!(after.iter().all(|c| *c == 200), "{after:?}");

    // The held connection broke again while idle for over a second: pinged, replaced, and the
    // next call goes through without a failed group.
    proxy.cut();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(call(400).await, 200, "after a drop while idle");

    let charged: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM api_transactions WHERE status = 'success' AND user_id = $1",
    )
    .bind(s.user_id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        charged,
        5 + 1 + 20 + 1,
        "only the answered calls are charged"
    );
    assert_eq!(
        gs::balance(&app, s.user_wallet).await,
        100_000 - 100 * charged
    );
    let pending: i64 =
        sqlx::query_scalar("SELECT count(*) FROM api_transactions WHERE status = 'pending'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(pending, 0);
    gs::audit(&app).await;
}
