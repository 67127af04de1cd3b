//! The gateway's hot path (issue 21): the cache of callers and prices and its invalidation
//! across api processes, a client that hangs up mid-call, refused calls in the API log, the
//! rate-limit headers, and a sandbox call charged and settled in one write.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, SLOW, SLOW_500, SLOW_OK, Upstream},
};

/// Calls until `want` answers or `within` passes; the time it took.
async fn until_status(
    app: &TestApp,
    base: &str,
    key: &str,
    want: u16,
    within: Duration,
) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < within {
        let (st, _, _) = gs::verify(app, base, key, "pan_check", &json!({"id_number": "X"})).await;
        if st == want {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

#[tokio::test]
async fn gateway_a_change_reaches_every_api_process_within_a_second() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 100_000, 100_000).await;
    let (second, _stop) = gs::second_instance(&app).await;
    let body = json!({"id_number": "X"});
    // Both processes have the key's caller and the price in memory now.
    for base in [&app.base, &second] {
        for _ in 0..3 {
            assert_eq!(
                gs::verify(&app, base, &s.key, "pan_check", &body).await.0,
                200
            );
        }
    }

    // A revocation, written by neither process, is refused by both within a second.
    sqlx::query("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1")
        .bind(domain::gateway::key_hash(&s.key).as_slice())
        .execute(&app.db.pool)
        .await
        .unwrap();
    for base in [&app.base, &second] {
        let took = until_status(&app, base, &s.key, 401, Duration::from_secs(1)).await;
        assert!(
            took.is_some(),
            "{base} still accepts a revoked key after a second"
        );
    }

    // So are a blocked IP and a price change (the price cache).
    let key = gs::key(&app, s.partner_id, s.user_id, "live").await;
    for base in [&app.base, &second] {
        let (st, h, _) = gs::verify(&app, base, &key, "pan_check", &body).await;
        assert_eq!((st, h["x-charged-paise"].to_str().unwrap()), (200, "100"));
    }
    sqlx::query("INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, 250)")
        .bind(s.partner_id)
        .bind(s.user_id)
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    for base in [&app.base, &second] {
        let started = Instant::now();
        loop {
            let (st, h, _) = gs::verify(&app, base, &key, "pan_check", &body).await;
            assert_eq!(st, 200);
            if h["x-charged-paise"] == "250" {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(1),
                "{base} charges the old price"
            );
        }
    }
    sqlx::query("INSERT INTO blocked_ips (partner_id, user_id, ip, comments) VALUES ($1, $2, '127.0.0.1', 'abuse')")
        .bind(s.partner_id)
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    for base in [&app.base, &second] {
        let took = until_status(&app, base, &key, 403, Duration::from_secs(1)).await;
        assert!(took.is_some(), "{base} still lets a blocked IP through");
    }
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_a_change_made_through_the_console_is_in_force_when_it_answers() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 100_000, 100_000).await;
    let token = fixtures::partner_token(&app, s.partner_id, "acme").await;
    let body = json!({"id_number": "X"});
    assert_eq!(
        gs::verify(&app, &app.base, &s.key, "pan_check", &body)
            .await
            .0,
        200
    );
    let key_id: i64 = sqlx::query_scalar("SELECT id FROM api_keys WHERE user_id = $1")
        .bind(s.user_id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let res = app
        .client
        .delete(app.url(&format!(
            "/api/v1/partner/users/{}/api-keys/{key_id}",
            s.user_id
        )))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    // No wait: the process that revoked it refuses it at once.
    assert_eq!(
        gs::verify(&app, &app.base, &s.key, "pan_check", &body)
            .await
            .0,
        401
    );
}

/// Polls the transaction until it is no longer pending (at most `within`).
async fn settled(app: &TestApp, txn_of_user: i64, within: Duration) -> Option<(String, i64)> {
    let started = Instant::now();
    while started.elapsed() < within {
        let row: Option<(String, i64)> = sqlx::query_as(
            "SELECT status, (SELECT count(*) FROM api_logs l WHERE l.transaction_id = t.id)
               FROM api_transactions t WHERE user_id = $1 AND status <> 'pending'",
        )
        .bind(txn_of_user)
        .fetch_optional(&app.db.pool)
        .await
        .unwrap();
        if row.is_some() {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

#[tokio::test]
async fn gateway_a_client_that_hangs_up_is_charged_on_2xx_and_refunded_otherwise_at_once() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let impatient = reqwest::Client::builder()
        .timeout(SLOW / 4)
        .build()
        .unwrap();
    for (name, mode, status, user_pays) in [
        ("hangupok", SLOW_OK, "success", 100),
        ("hangupfails", SLOW_500, "refunded", 0),
    ] {
        let s = gs::live(&app, name, &up.base, "pan_check", 100, 1_000, 1_000).await;
        up.set(mode);
        let hits = up.hits();
        let sent = impatient
            .post(format!("{}/api/v1/verify/pan_check", app.base))
            .header("x-api-key", &s.key)
            .json(&json!({"id_number": "X"}))
            .send()
            .await;
        assert!(
            sent.is_err_and(|e| e.is_timeout()),
            "the client gave up first"
        );
        // Settled by the call itself once the upstream answers: no job runs in this test.
        let (st, logs) = settled(&app, s.user_id, SLOW * 3)
            .await
            .unwrap_or_else(|| panic!("{name}: left pending after the client hung up"));
        assert_eq!((st.as_str(), logs), (status, 1), "{name}");
        assert_eq!(up.hits(), hits + 1);
        assert_eq!(
            gs::balance(&app, s.user_wallet).await,
            1_000 - user_pays,
            "{name}"
        );
    }
    gs::audit(&app).await;
}

/// An API log row: status, amount, transaction, service, reason.
type LogRow = (i32, i64, Option<i64>, String, Option<String>);

async fn logged(app: &TestApp, user_id: i64, n: usize) -> Vec<LogRow> {
    let started = Instant::now();
    loop {
        let rows: Vec<LogRow> = sqlx::query_as(
            "SELECT status_code, amount_paise, transaction_id, service, reason FROM api_logs WHERE user_id = $1 ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        if rows.len() >= n || started.elapsed() > Duration::from_secs(5) {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn gateway_refusals_of_a_known_key_are_logged_with_their_reason_and_nothing_charged() {
    let app = TestApp::spawn_with(|c| c.gateway.rate_limit_per_minute = 5).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 150, 1_000).await;
    let call = |service: &'static str, body: serde_json::Value| {
        let (app, key) = (&app, s.key.clone());
        async move { gs::verify(app, &app.base, &key, service, &body).await }
    };
    assert_eq!(call("no_such_api", json!({})).await.0, 404);
    assert_eq!(call("pan_check", json!({})).await.0, 422);
    assert_eq!(call("pan_check", json!({"id_number": "X"})).await.0, 200);
    // 150 paise cover one call of 100: the next is 402.
    let (st, _, b) = call("pan_check", json!({"id_number": "X"})).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (402, Some("insufficient_balance"))
    );
    // Five calls a minute, counted before the money: the fifth is the last one let through.
    for _ in 0..3 {
        assert_eq!(call("pan_check", json!({"id_number": "X"})).await.0, 402);
    }
    let (st, h, b) = call("pan_check", json!({"id_number": "X"})).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(h.contains_key("retry-after"));
    sqlx::query("UPDATE end_users SET is_active = false WHERE id = $1")
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    assert_eq!(call("pan_check", json!({"id_number": "X"})).await.0, 403);
    // An unknown key is nobody's call: no log.
    let (st, _, _) = gs::verify(
        &app,
        &app.base,
        "kyc_live_0123456789abcdef0123456789abcdef",
        "pan_check",
        &json!({}),
    )
    .await;
    assert_eq!(st, 401);

    let rows = logged(&app, s.user_id, 9).await;
    // Refusals are written by their own batches, the charged call by the charger: compared as
    // a set.
    let mut codes: Vec<i32> = rows.iter().map(|r| r.0).collect();
    codes.sort_unstable();
    assert_eq!(codes, [200, 402, 402, 402, 402, 403, 404, 422, 429]);
    for (code, amount, txn, service, reason) in &rows {
        if *code == 200 {
            assert_eq!(
                (*amount, txn.is_some(), reason.as_deref()),
                (100, true, None)
            );
            continue;
        }
        assert_eq!((*amount, *txn), (0, None), "{code}: nothing charged");
        let reason = reason.as_deref().unwrap_or_default();
        assert!(!reason.is_empty(), "{code} says why");
        let want = match code {
            404 => "Not found",
            422 => "id_number is required",
            402 => "Insufficient balance",
            429 => "Too many requests, please try again later",
            _ => "This user is inactive",
        };
        assert_eq!(reason, want, "{code}");
        assert_eq!(
            service,
            if *code == 404 {
                "no_such_api"
            } else {
                "pan_check"
            }
        );
    }
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM api_transactions").await,
        1,
        "only the 200 made a transaction"
    );
    gs::audit(&app).await;

    // The partner's API logs filter by status code (all users, and one user's).
    let token = fixtures::partner_token(&app, s.partner_id, "acme").await;
    let (st, page) = app
        .get("/api/v1/partner/api-logs?status_code=402", Some(&token))
        .await;
    assert_eq!((st, page["total"].as_i64()), (200, Some(4)), "{page}");
    assert_eq!(page["items"][0]["reason"], "Insufficient balance");
    let path = format!(
        "/api/v1/partner/users/{}/api-logs?status_code=429",
        s.user_id
    );
    let (st, page) = app.get(&path, Some(&token)).await;
    assert_eq!((st, page["total"].as_i64()), (200, Some(1)), "{page}");
    let (st, page) = app.get("/api/v1/partner/api-logs", Some(&token)).await;
    assert_eq!((st, page["total"].as_i64()), (200, Some(9)), "{page}");
    let (st, b) = app
        .get("/api/v1/partner/api-logs?status_code=4x", Some(&token))
        .await;
    assert_eq!(
        (st, b["error"]["fields"]["status_code"].as_str()),
        (422, Some("Status code is a number from 100 to 599."))
    );
}

#[tokio::test]
async fn gateway_every_answer_carries_the_rate_limit_headers() {
    let app = TestApp::spawn_with(|c| c.gateway.rate_limit_per_minute = 3).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let rl = |h: &reqwest::header::HeaderMap| -> (u64, u64, u64) {
        let n = |k: &str| h[k].to_str().unwrap().parse::<u64>().unwrap();
        (
            n("x-ratelimit-limit"),
            n("x-ratelimit-remaining"),
            n("x-ratelimit-reset"),
        )
    };
    let body = json!({"id_number": "X"});
    let (st, h, _) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(st, 200);
    let (limit, remaining, reset) = rl(&h);
    assert_eq!((limit, remaining), (3, 2));
    assert!((1..=20).contains(&reset), "{reset}");
    // A refusal before the limit counts nothing, and says so.
    let (st, h, _) = gs::verify(&app, &app.base, &s.key, "pan_check", &json!({})).await;
    assert_eq!((st, rl(&h).1), (422, 2));
    let (_, h, _) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(rl(&h).1, 1);
    let (_, h, _) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(rl(&h).1, 0);
    let (st, h, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    let (limit, remaining, reset) = rl(&h);
    assert_eq!((limit, remaining), (3, 0));
    assert!((40..=60).contains(&reset), "{reset}");
    // An unknown key has the whole budget; a sandbox call and an upstream failure carry them too.
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        "kyc_live_0123456789abcdef0123456789abcdef",
        "pan_check",
        &body,
    )
    .await;
    assert_eq!((st, rl(&h)), (401, (3, 3, 0)));
    let sandbox = gs::key(&app, s.partner_id, s.user_id, "sandbox").await;
    let (st, h, _) = gs::verify(&app, &app.base, &sandbox, "pan_check", &body).await;
    assert_eq!(
        (st, rl(&h).0),
        (403, 3),
        "not on the sandbox list: 403, with the headers"
    );
}

#[tokio::test]
async fn gateway_a_sandbox_call_is_charged_and_settled_in_one_write() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 1_000, 1_000).await;
    gs::charge_sandbox(&app, s.partner_id).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let key = gs::key(&app, s.partner_id, s.user_id, "sandbox").await;
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        &key,
        "pan_check",
        &json!({"id_number": "X"}),
    )
    .await;
    assert_eq!((st, h["x-charged-paise"].to_str().unwrap()), (200, "100"));
    assert_eq!(up.hits(), 0);
    // Written settled: its row never was pending (created and settled in the same statement).
    let (status, code, same, logs): (String, i32, bool, i64) = sqlx::query_as(
        "SELECT status, status_code, settled_at = created_at,
                (SELECT count(*) FROM api_logs l WHERE l.transaction_id = t.id AND l.amount_paise = 100)
           FROM api_transactions t WHERE user_id = $1",
    )
    .bind(s.user_id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (status.as_str(), code, same, logs),
        ("success", 200, true, 1)
    );
    gs::audit(&app).await;
}

async fn with_key(
    app: &TestApp,
    base: &str,
    key: &str,
    idem: &str,
    body: &serde_json::Value,
) -> (u16, reqwest::header::HeaderMap, String) {
    let res = app
        .client
        .post(format!("{base}/api/v1/verify/pan_check"))
        .header("x-api-key", key)
        .header("idempotency-key", idem)
        .json(body)
        .send()
        .await
        .unwrap();
    let (st, h) = (res.status().as_u16(), res.headers().clone());
    (st, h, res.text().await.unwrap())
}

#[tokio::test]
async fn gateway_an_idempotent_retry_replays_the_first_answer_and_charges_once() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    let (second, _stop) = gs::second_instance(&app).await;
    let body = json!({"id_number": "ABCDE1234F"});

    // Sequential, then on another api process: one upstream call, one charge, the same answer.
    let first = with_key(&app, &app.base, &s.key, "retry-1", &body).await;
    assert_eq!(first.0, 200);
    for base in [&app.base, &second] {
        let again = with_key(&app, base, &s.key, "retry-1", &body).await;
        assert_eq!((again.0, &again.2), (200, &first.2));
        for h in [
            "x-transaction-id",
            "x-charged-paise",
            "x-verification-id",
            "content-type",
        ] {
            assert_eq!(again.1[h], first.1[h], "{h}");
        }
        assert_eq!(again.1["idempotent-replayed"], "true");
        assert!(again.1.contains_key("x-ratelimit-remaining"));
    }
    assert_eq!(up.hits(), 1);
    assert_eq!(gs::balance(&app, s.user_wallet).await, 10_000 - 100);

    // The same key with another body: 409, nothing called or charged.
    let (st, _, b) = with_key(
        &app,
        &app.base,
        &s.key,
        "retry-1",
        &json!({"id_number": "OTHER"}),
    )
    .await;
    let b: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (409, Some("idempotency_conflict"))
    );

    // Keys are per end user: another user's same key is a call of its own.
    let other = gs::live(&app, "other", &up.base, "pan_check", 100, 10_000, 10_000).await;
    assert_eq!(
        with_key(&app, &app.base, &other.key, "retry-1", &body)
            .await
            .0,
        200
    );
    assert_eq!(up.hits(), 2);

    // Concurrent duplicates through both processes wait for the first and share its answer.
    up.set(SLOW_OK);
    let calls = (0..10).map(|i| {
        let (app, key, base) = (
            &app,
            s.key.clone(),
            if i % 2 == 0 {
                app.base.clone()
            } else {
                second.clone()
            },
        );
        let body = body.clone();
        async move { with_key(app, &base, &key, "burst", &body).await }
    });
    let answers = futures::future::join_all(calls).await;
    let txns: std::collections::BTreeSet<_> = answers
        .iter()
        .map(|(st, h, _)| (*st, h["x-transaction-id"].to_str().unwrap().to_owned()))
        .collect();
    assert_eq!(txns.len(), 1, "one answer for all: {txns:?}");
    assert_eq!(txns.first().unwrap().0, 200);
    assert_eq!(up.hits(), 3, "one upstream call for the burst");
    assert_eq!(gs::balance(&app, s.user_wallet).await, 10_000 - 200);

    // A refusal keeps nothing: the same key runs again once the cause is gone.
    let poor = gs::live(&app, "poor", &up.base, "pan_check", 100, 0, 10_000).await;
    up.set(gs::OK);
    assert_eq!(
        with_key(&app, &app.base, &poor.key, "k", &body).await.0,
        402
    );
    gs::credit(
        &app,
        domain::wallets::Owner::User {
            partner_id: poor.partner_id,
            user_id: poor.user_id,
        },
        100,
    )
    .await;
    assert_eq!(
        with_key(&app, &app.base, &poor.key, "k", &body).await.0,
        200
    );
    gs::audit(&app).await;

    // Expired keys go with the hourly prune.
    sqlx::query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'retry-1'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        domain::gateway::idempotency::prune(&app.db.pool)
            .await
            .unwrap(),
        2
    );
}

#[tokio::test]
async fn gateway_an_idempotent_batch_submission_makes_one_batch() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    sqlx::query("UPDATE partners SET batch_processing = true WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let submit = |file: &'static str| {
        let (app, key) = (&app, s.key.clone());
        async move {
            let res = app
                .client
                .post(app.url("/api/v1/verify/pan_check/batch?file_name=a.csv"))
                .header("x-api-key", key)
                .header("idempotency-key", "batch-1")
                .header("content-type", "text/csv")
                .body(file)
                .send()
                .await
                .unwrap();
            let st = res.status().as_u16();
            (st, res.json::<serde_json::Value>().await.unwrap())
        }
    };
    let (st, first) = submit("id_number\nA\nB\n").await;
    assert_eq!(st, 202, "{first}");
    let (st, again) = submit("id_number\nA\nB\n").await;
    assert_eq!((st, &again), (202, &first));
    let (st, other) = submit("id_number\nC\n").await;
    assert_eq!(
        (st, other["error"]["code"].as_str()),
        (409, Some("idempotency_conflict"))
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM batches").await,
        1
    );
}

#[tokio::test]
async fn gateway_sandbox_calls_are_free_and_answer_by_the_test_values() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 0, 0).await;
    sqlx::query("UPDATE api_catalogue SET response_code = $2 WHERE id = $1")
        .bind(s.api_id)
        .bind(json!({"status": "ok", "id_number": "ABCDE1234F", "data": {"id_number": "X", "name": "A"}}))
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let key = gs::key(&app, s.partner_id, s.user_id, "sandbox").await;
    let call = |id: &'static str| {
        let (app, key) = (&app, key.clone());
        async move { gs::verify(app, &app.base, &key, "pan_check", &json!({"id_number": id})).await }
    };

    // Free by default, with empty wallets: recorded at ₹0; the input echoed, a fresh request id.
    let (st, h, b) = call("PQRSX9876Z").await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(h["x-charged-paise"], "0");
    assert_eq!(b["id_number"], "PQRSX9876Z");
    assert_eq!(b["data"]["id_number"], "PQRSX9876Z");
    assert_eq!(b["data"]["name"], "A");
    let (_, _, again) = call("PQRSX9876Z").await;
    assert_ne!(b["request_id"], again["request_id"]);
    assert_eq!(
        crate::fixtures::count(&app, "SELECT count(*) FROM api_transactions WHERE mode = 'sandbox' AND status = 'success' AND user_amount_paise = 0 AND amount_paise = 0").await,
        2
    );

    // Not found: a 200 with the status saying so.
    let (st, _, b) = call("TEST_NOT_FOUND").await;
    assert_eq!((st, b["status"].as_str()), (200, Some("not_found")), "{b}");

    // The upstream failing: 502, refunded, nothing charged; with charging on too.
    gs::charge_sandbox(&app, s.partner_id).await;
    gs::credit(
        &app,
        domain::wallets::Owner::User {
            partner_id: s.partner_id,
            user_id: s.user_id,
        },
        1_000,
    )
    .await;
    gs::credit(&app, domain::wallets::Owner::Partner(s.partner_id), 1_000).await;
    let before = gs::balance(&app, s.user_wallet).await;
    let (st, h, b) = call("TEST_UPSTREAM_FAILURE").await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (502, Some("upstream_error")),
        "{b}"
    );
    assert_eq!(h["x-charged-paise"], "0");
    assert_eq!(gs::balance(&app, s.user_wallet).await, before);
    // Charging on: a success is charged at the price.
    let (st, h, _) = call("PQRSX9876Z").await;
    assert_eq!((st, h["x-charged-paise"].to_str().unwrap()), (200, "100"));
    assert_eq!(gs::balance(&app, s.user_wallet).await, before - 100);
    assert_eq!(up.hits(), 0, "the sandbox never calls the upstream");
    gs::audit(&app).await;
}
