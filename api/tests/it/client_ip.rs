//! The client address every limit uses: trusted proxies only, the right-most untrusted hop,
//! IPv6 per /64.

use serde_json::json;

use crate::{auth_fixtures::post_as, common::TestApp};

/// Wrong sign-ins from the clients `xff` names, each on an account of its own (so only the
/// per-address limit is at work, not the per-account one).
async fn wrong_sign_ins(app: &TestApp, n: usize, xff: impl Fn(usize) -> String) -> Vec<u16> {
    let mut statuses = vec![];
    for i in 0..n {
        let body = json!({"email": format!("nobody{}@partner.test", uuid::Uuid::new_v4()), "password": "Wrong-pass1", "captcha": null});
        let (s, _) = post_as(app, &xff(i), "/api/v1/partner/login", &body, None).await;
        statuses.push(s);
    }
    statuses
}

#[tokio::test]
async fn a_client_cannot_pick_a_fresh_address_per_request() {
    // The outside test's finding: behind a same-host proxy that appends the peer, 40 wrong
    // sign-ins with `X-Forwarded-For: 198.51.100.<i>, 203.0.113.7` were all answered 401.
    let app = TestApp::spawn().await;
    let statuses = wrong_sign_ins(&app, 40, |i| format!("198.51.100.{i}, 203.0.113.7")).await;
    assert!(statuses[..10].iter().all(|s| *s == 401), "{statuses:?}");
    // The budget refills one request per 6 s, so a slow machine may see one more 401.
    let limited = statuses[10..].iter().filter(|s| **s == 429).count();
    assert!(limited >= 25, "{statuses:?}");
}

#[tokio::test]
async fn without_trusted_proxies_the_header_is_not_believed() {
    let app = TestApp::spawn_with(|c| c.trusted_proxies = vec![]).await;
    let statuses = wrong_sign_ins(&app, 12, |i| format!("198.51.100.{i}")).await;
    assert!(statuses[..10].iter().all(|s| *s == 401), "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
}

#[tokio::test]
async fn ipv6_clients_are_limited_per_64() {
    let app = TestApp::spawn().await;
    let statuses = wrong_sign_ins(&app, 12, |i| format!("2001:db8:7:7:{i:x}::1")).await;
    assert!(statuses[..10].iter().all(|s| *s == 401), "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
    // The next /64 is another client.
    let statuses = wrong_sign_ins(&app, 1, |_| "2001:db8:7:8::1".into()).await;
    assert_eq!(statuses, [401]);
}

#[tokio::test]
async fn the_audit_log_records_the_client_address_of_a_change() {
    let app = TestApp::spawn().await;
    let p = crate::fixtures::partner(&app, "audited").await;
    let u = crate::fixtures::user(&app, p.id, 1).await;
    let res = app
        .client
        .post(app.url(&format!("/api/v1/partner/users/{u}/wallets/api/entries")))
        .bearer_auth(&p.token)
        .json(&serde_json::json!({"type": "credit", "amount_paise": 500}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let ip: Option<String> = sqlx::query_scalar("SELECT host(client_ip) FROM audit_log WHERE action LIKE 'wallet%' ORDER BY id DESC LIMIT 1")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        ip.as_deref(),
        Some("127.0.0.1"),
        "the peer, as the limits and the gateway see it"
    );
}
