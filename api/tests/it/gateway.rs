//! The metered gateway through HTTP: a charged call, every refusal with no money moved, refunds
//! on every kind of upstream failure, sandbox calls, concurrency across two api instances and
//! tenancy.

use std::time::Duration;

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, FAIL_500, HANG, Upstream},
};

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    fixtures::count(app, sql).await
}

#[tokio::test]
async fn gateway_live_call_charges_both_wallets_and_records_it() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 1_000, 1_000).await;
    // The user pays their own price, the partner its plan's (here the catalogue default).
    sqlx::query("INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, 450)")
        .bind(s.partner_id)
        .bind(s.user_id)
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    sqlx::query("UPDATE api_catalogue SET param_name = 'id_number', header_param_name = 'x-consent-id' WHERE id = $1")
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;

    let res = app
        .client
        .post(app.url("/api/v1/verify/pan_check"))
        .header("x-api-key", &s.key)
        .header("x-consent-id", "consent-9")
        .json(&json!({"id_number": "ABCDE1234F", "extra": "not forwarded"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let txn: i64 = res.headers()["x-transaction-id"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(res.headers()["x-charged-paise"], "450");
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        body,
        json!({"ok": true, "echo": {"id_number": "ABCDE1234F"}}),
        "only the entry's parameters go upstream"
    );
    let (uri, _, consent) = up.last.lock().unwrap().clone().unwrap();
    assert_eq!(uri, "/v1/pan_check");
    assert_eq!(
        consent.as_deref(),
        Some("consent-9"),
        "the entry's header names are forwarded"
    );

    assert_eq!(gs::balance(&app, s.user_wallet).await, 550);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 700);
    let (status, code, amount, user_amount, remaining, partner_remaining, pid, service): (String, i32, i64, i64, i64, i64, String, String) = sqlx::query_as(
        "SELECT status, status_code, amount_paise, user_amount_paise, remaining_paise, partner_remaining_paise, pid, service FROM api_transactions WHERE id = $1",
    )
    .bind(txn)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (
            status.as_str(),
            code,
            amount,
            user_amount,
            remaining,
            partner_remaining
        ),
        ("success", 200, 300, 450, 550, 700)
    );
    assert_eq!(service, "pan_check");
    assert!(pid.starts_with("PID") || !pid.is_empty());
    let (log_code, log_amount, vpid, ip): (i32, i64, String, String) = sqlx::query_as(
        "SELECT status_code, amount_paise, vpid, host(ip) FROM api_logs WHERE transaction_id = $1",
    )
    .bind(txn)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (log_code, log_amount, vpid.as_str(), ip.as_str()),
        (200, 450, "up-123", "127.0.0.1")
    );
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_every_refusal_moves_no_money() {
    let app = TestApp::spawn_with(|c| c.gateway.rate_limit_per_minute = 2).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 1_000, 1_000).await;
    let body = json!({"id_number": "X1"});
    let entries = count(&app, "SELECT count(*) FROM wallet_entries").await;
    let call = |key: String, service: &'static str, body: serde_json::Value| {
        let app = &app;
        async move { gs::verify(app, &app.base, &key, service, &body).await }
    };
    let sql = |q: &'static str, id: i64| {
        let app = &app;
        async move {
            sqlx::query(q).bind(id).execute(&app.db.pool).await.unwrap();
            gs::changed(app).await;
        }
    };

    // 401: no key, a malformed key, an unknown key, a revoked key.
    for k in [
        "",
        "kyc_live_short",
        "kyc_live_0123456789abcdef0123456789abcdef",
    ] {
        let (st, _, b) = call(k.into(), "pan_check", body.clone()).await;
        assert_eq!(st, 401, "{k}: {b}");
        assert_eq!(b["error"]["code"], "unauthorized");
    }
    let revoked = gs::key(&app, s.partner_id, s.user_id, "live").await;
    sqlx::query("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1")
        .bind(domain::gateway::key_hash(&revoked).as_slice())
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    assert_eq!(call(revoked, "pan_check", body.clone()).await.0, 401);

    // 403: inactive user, inactive partner.
    sql(
        "UPDATE end_users SET is_active = false WHERE id = $1",
        s.user_id,
    )
    .await;
    assert_eq!(call(s.key.clone(), "pan_check", body.clone()).await.0, 403);
    sql(
        "UPDATE end_users SET is_active = true WHERE id = $1",
        s.user_id,
    )
    .await;
    sql(
        "UPDATE partners SET is_active = false WHERE id = $1",
        s.partner_id,
    )
    .await;
    assert_eq!(call(s.key.clone(), "pan_check", body.clone()).await.0, 403);
    sql(
        "UPDATE partners SET is_active = true WHERE id = $1",
        s.partner_id,
    )
    .await;

    // 403: a blocked IP; not allow-listed while Server Security is on.
    sqlx::query("INSERT INTO blocked_ips (partner_id, user_id, ip, comments) VALUES ($1, $2, '127.0.0.1', 'abuse')")
        .bind(s.partner_id)
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let (st, _, b) = call(s.key.clone(), "pan_check", body.clone()).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("This IP address is blocked"))
    );
    sql("DELETE FROM blocked_ips WHERE user_id = $1", s.user_id).await;
    sql(
        "UPDATE partners SET server_security = true WHERE id = $1",
        s.partner_id,
    )
    .await;
    let (st, _, b) = call(s.key.clone(), "pan_check", body.clone()).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("This IP address is not allow-listed"))
    );
    sql(
        "UPDATE partners SET server_security = false WHERE id = $1",
        s.partner_id,
    )
    .await;

    // 404: no such API.
    assert_eq!(
        call(s.key.clone(), "no_such_api", body.clone()).await.0,
        404
    );
    assert_eq!(
        call(s.key.clone(), "Bad Service!", body.clone()).await.0,
        404
    );

    // 403: hidden for this user, its category hidden partner-wide, Restrict ALL APIs, partial
    // access on a live call.
    sqlx::query("INSERT INTO api_visibility (partner_id, user_id, api_id, visible) VALUES ($1, $2, $3, false)")
        .bind(s.partner_id)
        .bind(s.user_id)
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    assert_eq!(call(s.key.clone(), "pan_check", body.clone()).await.0, 403);
    sql(
        "DELETE FROM api_visibility WHERE partner_id = $1",
        s.partner_id,
    )
    .await;
    sqlx::query("INSERT INTO category_visibility (partner_id, user_id, category, visible) VALUES ($1, NULL, 'identity', false)")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    assert_eq!(call(s.key.clone(), "pan_check", body.clone()).await.0, 403);
    sql(
        "DELETE FROM category_visibility WHERE partner_id = $1",
        s.partner_id,
    )
    .await;
    sql(
        "UPDATE partners SET restrict_all_apis = true WHERE id = $1",
        s.partner_id,
    )
    .await;
    assert_eq!(call(s.key.clone(), "pan_check", body.clone()).await.0, 403);
    sql(
        "UPDATE partners SET restrict_all_apis = false WHERE id = $1",
        s.partner_id,
    )
    .await;
    sql(
        "UPDATE end_users SET full_access = false WHERE id = $1",
        s.user_id,
    )
    .await;
    let (st, _, b) = call(s.key.clone(), "pan_check", body.clone()).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("Partial access allows sandbox calls only"))
    );
    sql(
        "UPDATE end_users SET full_access = true WHERE id = $1",
        s.user_id,
    )
    .await;

    // 422 naming the missing field; 400 for a body that is not a JSON object.
    let (st, _, b) = call(s.key.clone(), "pan_check", json!({"id_number": "  "})).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (422, Some("validation_failed"))
    );
    assert_eq!(b["error"]["fields"]["id_number"], "id_number is required");
    assert_eq!(call(s.key.clone(), "pan_check", json!([1, 2])).await.0, 400);

    // None of that reached the upstream or moved money.
    assert_eq!(up.hits(), 0);
    assert_eq!(
        count(&app, "SELECT count(*) FROM wallet_entries").await,
        entries
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM api_transactions").await,
        0
    );

    // 402: the user's wallet short, then the partner's; then 429 past two calls a minute.
    sql(
        "UPDATE api_catalogue SET default_price_paise = 2000 WHERE id = $1",
        s.api_id,
    )
    .await;
    let (st, h, b) = call(s.key.clone(), "pan_check", body.clone()).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (402, Some("insufficient_balance")),
        "{h:?}"
    );
    sqlx::query("INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, 100)")
        .bind(s.partner_id)
        .bind(s.user_id)
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    assert_eq!(
        call(s.key.clone(), "pan_check", body.clone()).await.0,
        402,
        "the partner's wallet cannot cover 2000"
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM wallet_entries").await,
        entries
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 1_000);
    let (st, h, b) = call(s.key.clone(), "pan_check", body.clone()).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(h.get("retry-after").is_some());
    assert_eq!(up.hits(), 0);
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_refunds_on_upstream_500_timeout_and_refused_connection() {
    let app = TestApp::spawn_with(|c| c.upstream_timeout = Duration::from_millis(400)).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 1_000, 1_000).await;
    let body = json!({"id_number": "X1"});

    for (mode, expect, code) in [
        (FAIL_500, 502, "upstream_error"),
        (HANG, 504, "upstream_timeout"),
    ] {
        up.set(mode);
        let (st, h, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
        assert_eq!(
            (st, b["error"]["code"].as_str()),
            (expect, Some(code)),
            "{b}"
        );
        assert_eq!(h["x-charged-paise"], "0");
        let txn: i64 = h["x-transaction-id"].to_str().unwrap().parse().unwrap();
        let (status, status_code): (String, i32) =
            sqlx::query_as("SELECT status, status_code FROM api_transactions WHERE id = $1")
                .bind(txn)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(
            (status.as_str(), status_code),
            ("refunded", if mode == FAIL_500 { 500 } else { 504 })
        );
        assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000);
        assert_eq!(gs::balance(&app, s.partner_wallet).await, 1_000);
    }
    let refused = gs::refused_base().await;
    sqlx::query("UPDATE partners SET api_base_url = $2 WHERE id = $1")
        .bind(s.partner_id)
        .bind(&refused)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let (st, _, b) = gs::verify(&app, &app.base, &s.key, "pan_check", &body).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (502, Some("upstream_unreachable"))
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 1_000);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM api_transactions WHERE status = 'refunded'"
        )
        .await,
        3
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM wallet_entries WHERE reason = 'refund'"
        )
        .await,
        6
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM api_logs WHERE amount_paise = 0").await,
        3
    );
    gs::audit(&app).await;
}

#[tokio::test]
async fn gateway_sandbox_calls_answer_the_sample_and_never_reach_the_upstream() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 1_000, 1_000).await;
    // Metered like live calls: this partner charges its sandbox calls.
    gs::charge_sandbox(&app, s.partner_id).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(s.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    // A partial-access user may make sandbox calls.
    sqlx::query("UPDATE end_users SET full_access = false WHERE id = $1")
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let sandbox = gs::key(&app, s.partner_id, s.user_id, "sandbox").await;
    let (st, h, b) = gs::verify(
        &app,
        &app.base,
        &sandbox,
        "pan_check",
        &json!({"id_number": "X"}),
    )
    .await;
    assert_eq!((st, gs::sample_of(b)), (200, json!({"status": "ok"})));
    assert_eq!(h["x-charged-paise"], "300");

    // A partner in Test api mode: a live key gets the sample too.
    sqlx::query("UPDATE partners SET sandbox_enabled = true WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    let (st, _, b) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "X"}),
    )
    .await;
    assert_eq!((st, gs::sample_of(b)), (200, json!({"status": "ok"})));

    // A sandbox key only calls the sandbox list.
    gs::live(&app, "other", &up.base, "gst_check", 100, 0, 0).await;
    let (st, _, _) = gs::verify(
        &app,
        &app.base,
        &sandbox,
        "gst_check",
        &json!({"id_number": "X"}),
    )
    .await;
    assert_eq!(st, 403);

    assert_eq!(up.hits(), 0);
    // Sandbox calls are metered like live ones.
    assert_eq!(gs::balance(&app, s.user_wallet).await, 400);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 400);
    assert_eq!(count(&app, "SELECT count(*) FROM api_transactions WHERE mode = 'sandbox' AND status = 'success' AND user_amount_paise = 300").await, 2);
    gs::audit(&app).await;

    // GET /verify lists what the sandbox key may call, with price and required fields.
    let res = app
        .client
        .get(app.url("/api/v1/verify"))
        .header("x-api-key", &sandbox)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut list: serde_json::Value = res.json().await.unwrap();
    // The documentation's parts: the catalogue's description and sample answer.
    let entry = list[0].as_object_mut().unwrap();
    assert_eq!(
        entry.remove("sample_response"),
        Some(json!({"status": "ok"}))
    );
    assert!(entry.remove("description").is_some_and(|d| d.is_string()));
    assert_eq!(
        list,
        json!([{"service": "pan_check", "name": "API pan_check", "category": "Identity", "price_paise": 300, "required_fields": ["id_number"], "sandbox": true}])
    );
    let res = app
        .client
        .get(app.url("/api/v1/verify"))
        .header("x-api-key", "nope")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn gateway_200_concurrent_calls_through_two_instances_charge_exactly_what_the_wallet_covers()
{
    let app = TestApp::spawn_with(|c| c.gateway.rate_limit_per_minute = 10_000).await;
    let (second, _stop) = gs::second_instance(&app).await;
    let up = Upstream::start().await;
    // 73 calls' worth in the user's wallet; the partner's holds plenty.
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 7_300, 1_000_000).await;
    let mut tasks = Vec::new();
    for i in 0..200 {
        let base = if i % 2 == 0 {
            app.base.clone()
        } else {
            second.clone()
        };
        let client = app.client.clone();
        let key = s.key.clone();
        tasks.push(tokio::spawn(async move {
            let res = client
                .post(format!("{base}/api/v1/verify/pan_check"))
                .header("x-api-key", key)
                .json(&json!({"id_number": "X"}))
                .send()
                .await
                .unwrap();
            res.status().as_u16()
        }));
    }
    let mut ok = 0;
    let mut short = 0;
    for t in tasks {
        match t.await.unwrap() {
            200 => ok += 1,
            402 => short += 1,
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!((ok, short), (73, 127));
    assert_eq!(gs::balance(&app, s.user_wallet).await, 0);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 1_000_000 - 7_300);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM api_transactions WHERE status = 'success'"
        )
        .await,
        73
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM api_transactions").await,
        73
    );
    assert_eq!(up.hits(), 73);
    gs::audit(&app).await;
}

async fn call_from(app: &TestApp, key: &str, forwarded_for: &str) -> u16 {
    app.client
        .post(app.url("/api/v1/verify/pan_check"))
        .header("x-api-key", key)
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({"id_number": "X"}))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn allow_listed(app: &TestApp, up: &Upstream) -> gs::Setup {
    let s = gs::live(app, "acme", &up.base, "pan_check", 100, 1_000, 1_000).await;
    sqlx::query("UPDATE partners SET server_security = true WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(app).await;
    sqlx::query("INSERT INTO ip_whitelist (partner_id, user_id, ip, comments) VALUES ($1, $2, '198.51.100.7', 'office')")
        .bind(s.partner_id)
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(app).await;
    s
}

#[tokio::test]
async fn gateway_forged_forwarded_for_is_refused_by_the_allow_list() {
    // Behind a trusted proxy (the tests' loopback): the client wrote the allow-listed address,
    // the proxy appended the one it saw. Only the proxy's hop counts.
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = allow_listed(&app, &up).await;
    assert_eq!(
        call_from(&app, &s.key, "198.51.100.7, 203.0.113.9").await,
        403
    );
    assert_eq!(
        call_from(&app, &s.key, "203.0.113.9, 198.51.100.7").await,
        200,
        "the proxy saw the allow-listed address"
    );

    // No trusted proxy: the header is the client's own words and is ignored.
    let direct = TestApp::spawn_with(|c| c.trusted_proxies = vec![]).await;
    let s = allow_listed(&direct, &up).await;
    assert_eq!(call_from(&direct, &s.key, "198.51.100.7").await, 403);
    assert_eq!(
        count(
            &direct,
            "SELECT count(*) FROM wallet_entries WHERE reason = 'api_call'"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn gateway_a_partners_key_never_reaches_another_partners_user_or_data() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let a = gs::live(&app, "alpha", &up.base, "pan_check", 100, 1_000, 1_000).await;
    let b = gs::live(&app, "bravo", &up.base, "pan_check", 100, 1_000, 1_000).await;
    // B's settings (a hidden API, a blocked IP, a user price) do not touch A's calls.
    sqlx::query("INSERT INTO api_visibility (partner_id, user_id, api_id, visible) VALUES ($1, NULL, $2, false)")
        .bind(b.partner_id)
        .bind(b.api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    sqlx::query("INSERT INTO blocked_ips (partner_id, user_id, ip, comments) VALUES ($1, $2, '127.0.0.1', 'x')")
        .bind(b.partner_id)
        .bind(b.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::changed(&app).await;
    sqlx::query(
        "INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, 1)",
    )
    .bind(b.partner_id)
    .bind(b.user_id)
    .bind(b.api_id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        &a.key,
        "pan_check",
        &json!({"id_number": "X"}),
    )
    .await;
    assert_eq!((st, h["x-charged-paise"].to_str().unwrap()), (200, "100"));
    assert_eq!(gs::balance(&app, a.user_wallet).await, 900);
    assert_eq!(gs::balance(&app, a.partner_wallet).await, 900);
    assert_eq!(gs::balance(&app, b.user_wallet).await, 1_000);
    assert_eq!(gs::balance(&app, b.partner_wallet).await, 1_000);
    let (owner_partner, owner_user): (i64, i64) =
        sqlx::query_as("SELECT partner_id, user_id FROM api_transactions")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!((owner_partner, owner_user), (a.partner_id, a.user_id));
    // B's own key is refused by B's settings.
    assert_eq!(
        gs::verify(
            &app,
            &app.base,
            &b.key,
            "pan_check",
            &json!({"id_number": "X"})
        )
        .await
        .0,
        403
    );
}

#[tokio::test]
async fn gateway_charge_crossing_a_threshold_queues_one_alert_with_the_charge() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "lowbal", &up.base, "pan_check", 300, 1_000, 10_000).await;
    sqlx::query("UPDATE wallets SET low_balance_threshold_paise = 500 WHERE id = $1")
        .bind(s.user_wallet)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let alerts = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail' AND convert_from(job, 'UTF8') LIKE '%threshold_paise%'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap()
    };
    // 1,000 → 700 stays above ₹5; 700 → 400 crosses it; 400 → 100 is already below.
    for expected in [0, 1, 1] {
        let (status, _, _) = gs::verify(
            &app,
            &app.url(""),
            &s.key,
            "pan_check",
            &json!({"id_number": "A"}),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(
            alerts().await,
            expected,
            "the charger queues the alert itself, once per crossing"
        );
    }
}
