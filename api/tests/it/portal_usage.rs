//! The portal's dashboard figures (`/me/usage`) and Top-up (`/me/top-up`): one's own only.

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures,
    portal::{site, token},
};

/// A call of `user_id` `days_ago` IST days ago (at IST noon), with its status and user price.
async fn call(
    app: &TestApp,
    partner_id: i64,
    user_id: i64,
    service: &str,
    status: &str,
    paise: i64,
    days_ago: i32,
) {
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, created_at)
         VALUES ($1, $2, $3, 'PID', $4, 200, $5, $5,
                 (((now() AT TIME ZONE 'Asia/Kolkata')::date - $6)::timestamp + interval '12 hours') AT TIME ZONE 'Asia/Kolkata')",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(service)
    .bind(status)
    .bind(paise)
    .bind(days_ago)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

#[tokio::test]
async fn portal_usage_is_the_last_30_days_per_day_and_per_api() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;
    fixtures::api(&app, "pan_check", 100).await;
    let (p, u) = (a.partner.id, a.user_id);
    call(&app, p, u, "pan_check", "success", 1_000, 0).await;
    call(&app, p, u, "pan_check", "refunded", 1_000, 0).await;
    call(&app, p, u, "gst_check", "success", 500, 3).await;
    call(&app, p, u, "pan_check", "pending", 1_000, 3).await;
    call(&app, p, u, "pan_check", "success", 9_999, 30).await; // outside the window
    call(
        &app,
        b.partner.id,
        b.user_id,
        "pan_check",
        "success",
        7_777,
        0,
    )
    .await;

    let t = token(&app, "acme", &a.email).await;
    let (s, body) = app.get("/api/v1/me/usage", Some(&t)).await;
    assert_eq!(s, 200, "{body}");
    let days = body["days"].as_array().unwrap();
    assert_eq!(days.len(), 30);
    assert_eq!(body["to"], days[29]["date"]);
    assert_eq!(
        days[29],
        json!({"date": days[29]["date"], "calls": 2, "successful": 1, "spend_paise": 1_000})
    );
    assert_eq!(days[26]["calls"], 2);
    assert_eq!(days[26]["spend_paise"], 500);
    assert_eq!(days[0]["calls"], 0);
    assert_eq!(
        (
            body["calls"].as_i64(),
            body["successful"].as_i64(),
            body["spend_paise"].as_i64()
        ),
        (Some(4), Some(2), Some(1_500))
    );
    // Two of three settled calls succeeded; the pending one is not counted.
    assert_eq!(body["success_rate"], 66.7);
    assert_eq!(
        body["apis"],
        json!([
            {"service": "pan_check", "name": "API pan_check", "calls": 3, "successful": 1, "spend_paise": 1_000},
            {"service": "gst_check", "name": "gst_check", "calls": 1, "successful": 1, "spend_paise": 500},
        ])
    );

    // Beta's user sees only its own call; nobody without a user session sees any.
    let bt = token(&app, "beta", &b.email).await;
    let (_, body) = app.get("/api/v1/me/usage", Some(&bt)).await;
    assert_eq!(
        (
            body["calls"].as_i64(),
            body["spend_paise"].as_i64(),
            body["success_rate"].as_f64()
        ),
        (Some(1), Some(7_777), Some(100.0))
    );
    assert_eq!(app.get("/api/v1/me/usage", None).await.0, 401);
    assert_eq!(
        app.get("/api/v1/me/usage", Some(&a.partner.token)).await.0,
        403
    );

    // No calls at all: zeros and no rate.
    let fresh = site(&app, "gamma").await;
    let gt = token(&app, "gamma", &fresh.email).await;
    let (_, body) = app.get("/api/v1/me/usage", Some(&gt)).await;
    assert_eq!(
        (
            body["calls"].as_i64(),
            &body["success_rate"],
            body["apis"].as_array().map(Vec::len)
        ),
        (Some(0), &serde_json::Value::Null, Some(0))
    );
}

#[tokio::test]
async fn portal_top_up_shows_the_qr_and_card_provider_never_its_keys() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;
    let t = token(&app, "acme", &a.email).await;

    // Nothing set: the default instruction and no card.
    let (s, body) = app.get("/api/v1/me/top-up", Some(&t)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["qr"]["image_url"], serde_json::Value::Null);
    assert_eq!(
        body["qr"]["description"],
        domain::portal::top_up::DEFAULT_QR_INSTRUCTION
    );
    assert_eq!(body["card"], serde_json::Value::Null);

    sqlx::query(
        "INSERT INTO partner_payment_settings (partner_id, key_id_enc, key_secret_enc, name, description, logo_key, qr_key, qr_description, minimum_api_amount_paise)
         VALUES ($1, '\\x0304', '\\x0102', 'Razorpay', 'Cards, UPI and netbanking', 'logos/card.png', 'qr/acme.png', 'Pay to acme@upi', 50000)",
    )
    .bind(a.partner.id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let (_, body) = app.get("/api/v1/me/top-up", Some(&t)).await;
    assert_eq!(body["qr"]["description"], "Pay to acme@upi");
    assert!(
        body["qr"]["image_url"]
            .as_str()
            .is_some_and(|u| u.contains("qr/acme.png")),
        "{body}"
    );
    assert_eq!(body["card"]["name"], "Razorpay");
    assert_eq!(body["card"]["description"], "Cards, UPI and netbanking");
    assert_eq!(body["card"]["minimum_api_amount_paise"], 50_000);
    assert!(body["card"]["logo_url"].is_string(), "{body}");
    let text = body.to_string();
    assert!(
        !text.contains("rzp_live_KEYID") && !text.contains("key_id") && !text.contains("secret"),
        "{text}"
    );

    // Beta's user sees beta's (none), not acme's.
    let bt = token(&app, "beta", &b.email).await;
    let (_, body) = app.get("/api/v1/me/top-up", Some(&bt)).await;
    assert_eq!(body["card"], serde_json::Value::Null);
    assert_eq!(
        app.get("/api/v1/me/top-up", Some(&a.partner.token)).await.0,
        403
    );
}
