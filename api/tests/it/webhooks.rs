//! Webhooks end to end: a receiver on loopback gets signed deliveries, checked here with an
//! HMAC-SHA256 written out by hand (not the platform's `hmac` crate); failed attempts follow
//! the Standard Webhooks schedule as the clock is moved on; an endpoint failing for 5 days is
//! disabled and its owner mailed; replay; private addresses refused when saved and again
//! right before connecting; another owner's endpoints are not found.

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicU16, Ordering},
};

use axum::{
    body::Bytes,
    http::{HeaderMap, StatusCode},
};
use base64::{Engine, engine::general_purpose::STANDARD};
use serde_json::{Value, json};

use crate::{common::TestApp, fixtures, portal};

/// A webhook receiver on loopback: records every request and answers `status`.
struct Receiver {
    url: String,
    got: Arc<Mutex<Vec<(HeaderMap, Bytes)>>>,
    status: Arc<AtomicU16>,
}

impl Receiver {
    async fn start() -> Self {
        let got: Arc<Mutex<Vec<(HeaderMap, Bytes)>>> = Arc::default();
        let status = Arc::new(AtomicU16::new(200));
        let (g, s) = (got.clone(), status.clone());
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| {
                let (g, s) = (g.clone(), s.clone());
                async move {
                    g.lock().unwrap().push((headers, body));
                    let code = s.load(Ordering::SeqCst);
                    (
                        StatusCode::from_u16(code).unwrap(),
                        format!("receiver says {code} {}", "x".repeat(2000)),
                    )
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, got, status }
    }

    fn requests(&self) -> Vec<(HeaderMap, Bytes)> {
        self.got.lock().unwrap().clone()
    }
}

/// HMAC-SHA256 (RFC 2104) from SHA-256 alone: an implementation independent of the one
/// that signs.
fn hmac_sha256(key: &[u8], msg: &[u8]) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new()
        .chain_update(&ipad)
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(&opad)
        .chain_update(inner)
        .finalize()
        .to_vec()
}

/// Standard Webhooks verification as a receiver does it: some `v1,` signature of the header
/// matches `secret`, and the timestamp is within 5 minutes.
fn verifies(secret: &str, headers: &HeaderMap, body: &[u8]) -> bool {
    let h = |n: &str| headers.get(n).unwrap().to_str().unwrap().to_owned();
    let (id, ts, sigs) = (
        h("webhook-id"),
        h("webhook-timestamp"),
        h("webhook-signature"),
    );
    let now = chrono::Utc::now().timestamp();
    if (now - ts.parse::<i64>().unwrap()).abs() > 300 {
        return false;
    }
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut signed = format!("{id}.{ts}.").into_bytes();
    signed.extend_from_slice(body);
    let expected = format!("v1,{}", STANDARD.encode(hmac_sha256(&key, &signed)));
    sigs.split(' ').any(|s| s == expected)
}

async fn patch(app: &TestApp, path: &str, body: &Value, token: &str) -> (u16, Value) {
    let res = app
        .client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

/// A partner's site with an end user signed in: (partner, user token).
async fn signed_in(app: &TestApp, name: &str) -> (portal::Site, String) {
    let site = portal::site(app, name).await;
    let token = portal::token(app, name, &site.email).await;
    (site, token)
}

async fn endpoint(app: &TestApp, token: &str, url: &str, events: &[&str]) -> (i64, String) {
    let (status, body) = app
        .post(
            "/api/v1/me/webhooks",
            &json!({"url": url, "events": events}),
            Some(token),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["enabled"], true);
    (
        body["id"].as_i64().unwrap(),
        body["secret"].as_str().unwrap().to_owned(),
    )
}

async fn deliveries(app: &TestApp, token: &str, endpoint: i64) -> Vec<Value> {
    let (status, body) = app
        .get(
            &format!("/api/v1/me/webhooks/{endpoint}/deliveries"),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["items"].as_array().unwrap().clone()
}

/// Moves the clock past every scheduled attempt: the queued attempts become due now.
async fn move_clock(app: &TestApp) {
    sqlx::query("UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'deliver_webhook' AND status = 'Pending'")
        .execute(&app.db.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn deliveries_are_signed_and_verify_independently_also_across_a_secret_roll() {
    let app = TestApp::spawn_with(|c| c.webhook_allow_private = true).await;
    let rx = Receiver::start().await;
    let (_, token) = signed_in(&app, "hooks").await;
    let (id, secret) = endpoint(&app, &token, &rx.url, &["batch.completed"]).await;
    assert!(secret.starts_with("whsec_"));
    let (_, listed) = app.get("/api/v1/me/webhooks", Some(&token)).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert!(
        !listed.to_string().contains(&secret),
        "the secret is shown once"
    );

    let (status, body) = app
        .post(
            &format!("/api/v1/me/webhooks/{id}/test"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 202, "{body}");
    assert!(body["delivery_id"].is_i64());
    app.run_pending_jobs().await;

    let got = rx.requests();
    assert_eq!(got.len(), 1);
    let (headers, raw) = &got[0];
    assert_eq!(headers["content-type"], "application/json");
    assert!(verifies(&secret, headers, raw), "signature does not verify");
    let mut tampered = raw.to_vec();
    tampered.push(b' ');
    assert!(!verifies(&secret, headers, &tampered));
    let event: Value = serde_json::from_slice(raw).unwrap();
    assert_eq!(event["type"], "webhook.test");
    assert_eq!(event["id"], headers["webhook-id"].to_str().unwrap());
    assert!(event["id"].as_str().unwrap().starts_with("evt_"));
    assert!(event["created_at"].is_string() && event["data"].is_object());

    let log = deliveries(&app, &token, id).await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["status"], "succeeded");
    assert_eq!(log[0]["type"], "webhook.test");
    assert_eq!(log[0]["event_id"], event["id"]);
    assert!(log[0]["next_attempt_at"].is_null());
    let attempt = &log[0]["attempts"][0];
    assert_eq!(attempt["status_code"], 200);
    assert!(attempt["latency_ms"].as_i64().unwrap() >= 0);
    let excerpt = attempt["response_excerpt"].as_str().unwrap();
    assert!(excerpt.starts_with("receiver says 200") && excerpt.len() == 1024);

    // Rolled: both secrets sign for 24 hours, the new one first.
    let (status, rolled) = app
        .post(
            &format!("/api/v1/me/webhooks/{id}/roll-secret"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{rolled}");
    let new_secret = rolled["secret"].as_str().unwrap().to_owned();
    assert_ne!(new_secret, secret);
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    let (headers, raw) = rx.requests().pop().unwrap();
    assert_eq!(
        headers["webhook-signature"]
            .to_str()
            .unwrap()
            .split(' ')
            .count(),
        2
    );
    assert!(verifies(&new_secret, &headers, &raw));
    assert!(verifies(&secret, &headers, &raw));
    // After the overlap only the new secret signs.
    sqlx::query("UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    let (headers, raw) = rx.requests().pop().unwrap();
    assert!(verifies(&new_secret, &headers, &raw));
    assert!(!verifies(&secret, &headers, &raw));

    // The secret is sealed at rest.
    let sealed: Vec<u8> = sqlx::query_scalar("SELECT secret_enc FROM webhook_endpoints")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert!(!String::from_utf8_lossy(&sealed).contains(new_secret.trim_start_matches("whsec_")));
}

#[tokio::test]
async fn failed_attempts_follow_the_standard_schedule_as_the_clock_moves() {
    let app = TestApp::spawn_with(|c| c.webhook_allow_private = true).await;
    let rx = Receiver::start().await;
    rx.status.store(503, Ordering::SeqCst);
    let (_, token) = signed_in(&app, "hooks").await;
    let (id, _) = endpoint(&app, &token, &rx.url, &["webhook.test"]).await;
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    let expected = [5, 300, 1800, 7200, 18000, 36000, 36000];
    for (n, wait) in expected.iter().enumerate() {
        app.run_pending_jobs().await;
        assert_eq!(rx.requests().len(), n + 1, "attempt {} ran once", n + 1);
        // Nothing more is due before the clock moves.
        app.run_pending_jobs().await;
        assert_eq!(rx.requests().len(), n + 1);
        let d = deliveries(&app, &token, id).await.remove(0);
        assert_eq!(d["status"], "pending");
        let attempts = d["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), n + 1);
        let last = attempts.last().unwrap();
        assert_eq!(last["status_code"], 503);
        let at = chrono::DateTime::parse_from_rfc3339(last["at"].as_str().unwrap()).unwrap();
        let next =
            chrono::DateTime::parse_from_rfc3339(d["next_attempt_at"].as_str().unwrap()).unwrap();
        let gap = (next - at).num_milliseconds() as f64 / 1000.0;
        assert!(
            (gap - *wait as f64).abs() < 3.0,
            "after attempt {} the next waits {gap} s, not {wait} s",
            n + 1
        );
        move_clock(&app).await;
    }
    app.run_pending_jobs().await;
    let d = deliveries(&app, &token, id).await.remove(0);
    assert_eq!(d["attempts"].as_array().unwrap().len(), 8);
    assert_eq!(d["status"], "failed");
    assert!(d["next_attempt_at"].is_null());
    move_clock(&app).await;
    app.run_pending_jobs().await;
    assert_eq!(rx.requests().len(), 8, "no ninth attempt");
    // Every request of one delivery carries the same event id.
    let ids: std::collections::HashSet<_> = rx
        .requests()
        .iter()
        .map(|(h, _)| h["webhook-id"].to_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 1);
}

#[tokio::test]
async fn an_endpoint_failing_for_five_days_is_disabled_and_its_owner_mailed() {
    let app = TestApp::spawn_with(|c| c.webhook_allow_private = true).await;
    let rx = Receiver::start().await;
    rx.status.store(500, Ordering::SeqCst);
    let (site, token) = signed_in(&app, "hooks").await;
    let (id, _) = endpoint(&app, &token, &rx.url, &["webhook.test"]).await;

    // A failure today starts the count; it does not disable.
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    let (_, list) = app.get("/api/v1/me/webhooks", Some(&token)).await;
    assert_eq!(list[0]["enabled"], true);

    // Five days of failures later, the next failure disables it.
    sqlx::query("UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    move_clock(&app).await;
    app.run_pending_jobs().await;
    let (_, list) = app.get("/api/v1/me/webhooks", Some(&token)).await;
    assert_eq!(list[0]["enabled"], false);
    assert!(
        list[0]["disabled_reason"]
            .as_str()
            .unwrap()
            .contains("5 days")
    );
    let mails = testkit::outbox_mails(&app.config);
    let mail = mails
        .iter()
        .find(|m| m.subject == "Your webhook endpoint was disabled")
        .expect("the owner is mailed");
    assert_eq!(mail.to, site.email);
    assert!(mail.text.contains(&rx.url));

    // Disabled: no test, no replay, no further attempt.
    let sent = rx.requests().len();
    let (status, _) = app
        .post(
            &format!("/api/v1/me/webhooks/{id}/test"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 409);
    move_clock(&app).await;
    app.run_pending_jobs().await;
    assert_eq!(rx.requests().len(), sent);
    let d = deliveries(&app, &token, id).await.remove(0);
    assert_eq!(d["status"], "failed");

    // Enabled again, with the count forgotten; a success also clears it.
    rx.status.store(200, Ordering::SeqCst);
    let (status, ep) = patch(
        &app,
        &format!("/api/v1/me/webhooks/{id}"),
        &json!({"enabled": true}),
        &token,
    )
    .await;
    assert_eq!(status, 200, "{ep}");
    assert!(ep["disabled_reason"].is_null());
    let failing: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("SELECT failing_since FROM webhook_endpoints")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert!(failing.is_none());
}

#[tokio::test]
async fn replay_delivers_again_and_the_old_schedule_stops() {
    let app = TestApp::spawn_with(|c| c.webhook_allow_private = true).await;
    let rx = Receiver::start().await;
    rx.status.store(502, Ordering::SeqCst);
    let (_, token) = signed_in(&app, "hooks").await;
    let (id, secret) = endpoint(&app, &token, &rx.url, &["webhook.test"]).await;
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    let d = deliveries(&app, &token, id).await.remove(0);
    assert_eq!(d["status"], "pending");

    rx.status.store(204, Ordering::SeqCst);
    let did = d["id"].as_i64().unwrap();
    let (status, _) = app
        .post(
            &format!("/api/v1/me/webhook-deliveries/{did}/replay"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 202);
    app.run_pending_jobs().await;
    let d = deliveries(&app, &token, id).await.remove(0);
    assert_eq!(d["status"], "succeeded");
    assert_eq!(d["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(d["attempts"][1]["status_code"], 204);
    // The attempt the failure had scheduled finds the delivery moved on.
    move_clock(&app).await;
    app.run_pending_jobs().await;
    assert_eq!(rx.requests().len(), 2);
    let (h0, _) = &rx.requests()[0];
    let (h1, b1) = &rx.requests()[1];
    assert_eq!(
        h0["webhook-id"], h1["webhook-id"],
        "a replay is the same event"
    );
    assert!(verifies(&secret, h1, b1));

    // A succeeded delivery can be replayed too.
    app.post(
        &format!("/api/v1/me/webhook-deliveries/{did}/replay"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    assert_eq!(rx.requests().len(), 3);
}

#[tokio::test]
async fn private_and_metadata_urls_are_refused_when_saved_and_before_connecting() {
    let app = TestApp::spawn().await;
    let rx = Receiver::start().await;
    let (_, token) = signed_in(&app, "hooks").await;
    for url in [
        rx.url.as_str(),
        "http://localhost:9/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:9/hook",
        "http://[fd00:ec2::254]/",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
    ] {
        let (status, body) = app
            .post(
                "/api/v1/me/webhooks",
                &json!({"url": url, "events": ["webhook.test"]}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 422, "{url}: {body}");
        assert!(body["error"]["fields"]["url"].is_string(), "{body}");
    }
    for (url, events) in [
        ("ftp://example.com/", json!(["webhook.test"])),
        ("https://example.com/", json!([])),
        ("https://example.com/", json!(["user.signed_up"])),
    ] {
        let (status, _) = app
            .post(
                "/api/v1/me/webhooks",
                &json!({"url": url, "events": events}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 422, "{url} {events}");
    }

    // A name that led to a public address when saved and to loopback now: the job checks
    // again right before connecting and refuses.
    let (status, created) = app
        .post(
            "/api/v1/me/webhooks",
            &json!({"url": "https://203.0.114.1/hook", "events": ["webhook.test"]}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    sqlx::query("UPDATE webhook_endpoints SET url = $1")
        .bind(&rx.url)
        .execute(&app.db.pool)
        .await
        .unwrap();
    app.post(
        &format!("/api/v1/me/webhooks/{id}/test"),
        &json!({}),
        Some(&token),
    )
    .await;
    app.run_pending_jobs().await;
    assert!(rx.requests().is_empty(), "the worker connected to loopback");
    let d = deliveries(&app, &token, id).await.remove(0);
    let attempt = &d["attempts"][0];
    assert!(attempt["status_code"].is_null());
    assert!(
        attempt["response_excerpt"]
            .as_str()
            .unwrap()
            .contains("refused"),
        "{attempt}"
    );
    assert_eq!(d["status"], "pending", "retried on schedule");

    // And a PATCH to a private URL is refused like a creation.
    let (status, _) = patch(
        &app,
        &format!("/api/v1/me/webhooks/{id}"),
        &json!({"url": "http://127.0.0.1:1/x"}),
        &token,
    )
    .await;
    assert_eq!(status, 422);
}

#[tokio::test]
async fn partners_have_their_own_endpoints_and_nobody_sees_anothers() {
    let app = TestApp::spawn_with(|c| c.webhook_allow_private = true).await;
    let rx = Receiver::start().await;
    let (site, token) = signed_in(&app, "hooks").await;
    let (user_ep, _) = endpoint(&app, &token, &rx.url, &["webhook.test"]).await;
    let partner = &site.partner;
    let (status, body) = app
        .post(
            "/api/v1/partner/webhooks",
            &json!({"url": rx.url, "events": ["user.signed_up", "trubank.requested", "wallet.low_balance"]}),
            Some(&partner.token),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let partner_ep = body["id"].as_i64().unwrap();
    let (_, list) = app
        .get("/api/v1/partner/webhooks", Some(&partner.token))
        .await;
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "the users' endpoints are theirs"
    );
    let (_, list) = app.get("/api/v1/me/webhooks", Some(&token)).await;
    assert_eq!(list.as_array().unwrap().len(), 1);

    // Each owner's endpoint is another's 404, whatever the path.
    let (status, _) = app
        .post(
            &format!("/api/v1/me/webhooks/{partner_ep}/test"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .post(
            &format!("/api/v1/partner/webhooks/{user_ep}/test"),
            &json!({}),
            Some(&partner.token),
        )
        .await;
    assert_eq!(status, 404);
    let other = fixtures::partner(&app, "other").await;
    let (status, _) = app
        .get(
            &format!("/api/v1/partner/webhooks/{partner_ep}/deliveries"),
            Some(&other.token),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        fixtures::delete(
            &app,
            &format!("/api/v1/partner/webhooks/{partner_ep}"),
            Some(&other.token)
        )
        .await,
        404
    );

    // The partner's test event reaches its endpoint, and its log is its own.
    let (status, body) = app
        .post(
            &format!("/api/v1/partner/webhooks/{partner_ep}/test"),
            &json!({}),
            Some(&partner.token),
        )
        .await;
    assert_eq!(status, 202, "{body}");
    app.run_pending_jobs().await;
    let (_, log) = app
        .get(
            &format!("/api/v1/partner/webhooks/{partner_ep}/deliveries"),
            Some(&partner.token),
        )
        .await;
    assert_eq!(log["items"][0]["status"], "succeeded");
    let did = log["items"][0]["id"].as_i64().unwrap();
    let (status, _) = app
        .post(
            &format!("/api/v1/me/webhook-deliveries/{did}/replay"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        fixtures::delete(
            &app,
            &format!("/api/v1/partner/webhooks/{partner_ep}"),
            Some(&partner.token)
        )
        .await,
        204
    );
}

/// An endpoint written through the domain, for owners without a password to sign in with.
async fn endpoint_of(
    app: &TestApp,
    owner: domain::webhooks::Owner,
    url: &str,
    events: &[&str],
) -> String {
    let secrets = domain::infra::crypto::SecretBox::new(&app.config.encryption_key);
    let mut conn = app.db.pool.acquire().await.unwrap();
    let req = domain::webhooks::endpoints::NewEndpoint {
        url: url.into(),
        events: events.iter().map(|e| e.to_string()).collect(),
    };
    domain::webhooks::endpoints::create(&mut conn, &secrets, owner, &req)
        .await
        .unwrap()
        .secret
}

#[tokio::test]
async fn a_batch_and_a_low_balance_reach_the_subscribed_endpoints_only() {
    use crate::gateway_support::{self as gs, Upstream};
    use domain::webhooks::Owner;
    let app = TestApp::spawn_with(|c| {
        c.webhook_allow_private = true;
        c.gateway.batch_rows_per_second = 1_000;
    })
    .await;
    let rx = Receiver::start().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 3_000, 10_000).await;
    sqlx::query("UPDATE partners SET batch_processing = true WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE wallets SET low_balance_threshold_paise = 2500 WHERE id = $1")
        .bind(s.user_wallet)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let user_secret = endpoint_of(
        &app,
        Owner::user(s.partner_id, s.user_id),
        &rx.url,
        &["batch.completed", "wallet.low_balance"],
    )
    .await;
    // The partner listens for its own low balance, not its users'; nobody listens for exports.
    endpoint_of(
        &app,
        Owner::partner(s.partner_id),
        &rx.url,
        &["wallet.low_balance"],
    )
    .await;

    let res = app
        .client
        .post(app.url("/api/v1/verify/pan_check/batch?file_name=people.csv"))
        .header("x-api-key", &s.key)
        .header("content-type", "text/csv")
        .body("id_number,name\nID1,Asha\nID2,Ravi\n")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 202);
    let batch: Value = res.json().await.unwrap();
    app.run_pending_jobs().await;

    let got = rx.requests();
    let events: Vec<Value> = got
        .iter()
        .map(|(h, b)| {
            assert!(
                verifies(&user_secret, h, b),
                "signed with the user's secret"
            );
            serde_json::from_slice(b).unwrap()
        })
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types.iter().filter(|t| **t == "batch.completed").count(),
        1,
        "{types:?}"
    );
    assert_eq!(
        types.iter().filter(|t| **t == "wallet.low_balance").count(),
        1,
        "the user's wallet crossed once; the partner's did not: {types:?}"
    );
    assert_eq!(events.len(), 2);
    let done = events
        .iter()
        .find(|e| e["type"] == "batch.completed")
        .unwrap();
    assert_eq!(done["data"]["id"], batch["id"]);
    assert_eq!(done["data"]["status"], "completed");
    assert_eq!(done["data"]["charged_rows"], 2);
    let low = events
        .iter()
        .find(|e| e["type"] == "wallet.low_balance")
        .unwrap();
    assert_eq!(low["data"]["wallet"], "api");
    assert_eq!(low["data"]["threshold_paise"], 2500);
    assert!(low["data"]["balance_paise"].as_i64().unwrap() < 2500);
}

#[tokio::test]
async fn finished_events_are_pruned_after_their_retention_and_pending_ones_kept() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "pruned").await;
    let endpoint: i64 = sqlx::query_scalar(
        "INSERT INTO webhook_endpoints (partner_id, url, events, secret_enc)
         VALUES ($1, 'https://hooks.example.in/x', '{batch.completed}', '\\x00') RETURNING id",
    )
    .bind(p.id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    // (event, its age in days, its delivery's status)
    for (id, days, status) in [
        ("evt_old_done", 31, "succeeded"),
        ("evt_old_failed", 31, "failed"),
        ("evt_old_pending", 31, "pending"),
        ("evt_new_done", 1, "succeeded"),
    ] {
        sqlx::query(
            "WITH e AS (
                 INSERT INTO webhook_events (id, partner_id, type, data, created_at)
                 VALUES ($1, $2, 'batch.completed', '{}', now() - $3 * interval '1 day') RETURNING id)
             INSERT INTO webhook_deliveries (event_id, endpoint_id, status) SELECT id, $4, $5 FROM e",
        )
        .bind(id)
        .bind(p.id)
        .bind(days as f64)
        .bind(endpoint)
        .bind(status)
        .execute(&app.db.pool)
        .await
        .unwrap();
    }
    let mut conn = app.db.pool.acquire().await.unwrap();
    let pruned = domain::webhooks::prune(&mut conn, domain::webhooks::EVENT_RETENTION)
        .await
        .unwrap();
    assert_eq!(pruned, 2);
    let left: Vec<String> = sqlx::query_scalar("SELECT id FROM webhook_events ORDER BY id")
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(left, ["evt_new_done", "evt_old_pending"]);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM webhook_deliveries").await,
        2,
        "the pruned events' deliveries went with them"
    );
}
