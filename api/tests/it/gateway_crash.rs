//! A real api process (the binary) killed with SIGKILL between the debit and the settlement
//! leaves a pending transaction; the worker's `settle_pending` refunds it and the ledger
//! balances.

use std::{process::Stdio, time::Duration};

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, HANG, Upstream},
};

/// Starts `api serve` on a free port against the test's database, with nothing inherited from
/// this environment or a `.env` (it runs in a scratch folder).
fn spawn_api(app: &TestApp) -> (std::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = testkit::scratch_dir("crash");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("serve")
        .current_dir(&dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", &app.db.url)
        .env("DATABASE_MAX_CONNECTIONS", "4")
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("JWT_SECRET", "crash-test-jwt-secret-of-32-characters!")
        .env("ENCRYPTION_KEY", "2a".repeat(32))
        .env("LINK_SIGNING_KEY", "crash-test-link-key-of-32-characters!!")
        .env("MAIL_OUTBOX_DIR", dir.join("outbox"))
        .env("STORAGE_DIR", dir.join("storage"))
        .env("WEB_DIST", dir.join("dist"))
        .env("CAPTCHA", "off")
        .env("UPSTREAM_TIMEOUT_MS", "600000")
        // The fake upstream is the partner's base URL on loopback.
        .env("UPSTREAM_ALLOW_PRIVATE", "true")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting the api binary");
    (child, format!("http://127.0.0.1:{port}"))
}

#[tokio::test]
async fn gateway_crash_between_debit_and_settle_is_refunded_by_settle_pending() {
    let app = TestApp::spawn_with(|c| {
        c.gateway.settle_after = Duration::from_secs(1);
        c.gateway.settle_schedule = "* * * * * *".into();
    })
    .await;
    let up = Upstream::start().await;
    up.set(HANG);
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 1_000, 5_000).await;
    let (mut child, base) = spawn_api(&app);
    let ready = testkit::eventually(Duration::from_secs(30), || {
        let url = format!("{base}/healthz");
        let client = app.client.clone();
        async move {
            client
                .get(url)
                .send()
                .await
                .ok()
                .filter(|r| r.status().is_success())
                .map(|_| ())
        }
    })
    .await;
    assert!(ready.is_some(), "the api binary did not come up");

    let client = app.client.clone();
    let key = s.key.clone();
    let call = tokio::spawn(async move {
        client
            .post(format!("{base}/api/v1/verify/pan_check"))
            .header("x-api-key", key)
            .json(&json!({"id_number": "X"}))
            .send()
            .await
    });
    // Debited and pending, the upstream holding the call.
    let pending = testkit::eventually(Duration::from_secs(30), || async {
        let n = fixtures::count(
            &app,
            "SELECT count(*) FROM api_transactions WHERE status = 'pending'",
        )
        .await;
        (n == 1 && up.hits() == 1).then_some(())
    })
    .await;
    assert!(pending.is_some(), "the call never reached the upstream");
    assert_eq!(gs::balance(&app, s.user_wallet).await, 900);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 4_900);

    child.kill().unwrap(); // SIGKILL: no shutdown, no settlement.
    child.wait().unwrap();
    assert!(
        call.await.unwrap().is_err(),
        "the caller's connection died with the process"
    );
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM api_transactions WHERE status = 'pending'"
        )
        .await,
        1
    );

    let worker = app.start_worker("settler");
    let settled = testkit::eventually(Duration::from_secs(30), || async {
        (fixtures::count(
            &app,
            "SELECT count(*) FROM api_transactions WHERE status = 'refunded'",
        )
        .await
            == 1)
            .then_some(())
    })
    .await;
    worker.stop().await;
    assert!(settled.is_some(), "settle_pending did not refund the call");
    assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 5_000);
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM wallet_entries WHERE reason = 'refund'"
        )
        .await,
        2
    );
    gs::audit(&app).await;
}
