//! What a partner sells at: its default margin and per-API selling prices (My Plan), under a
//! user's own price; the one resolution that API Price shows and the gateway charges.

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures::{self, count, put},
    gateway_support::{self as gs, Upstream},
};

fn row<'a>(list: &'a serde_json::Value, service: &str) -> &'a serde_json::Value {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["service"] == service)
        .unwrap_or_else(|| panic!("{service} missing from {list}"))
}

#[tokio::test]
async fn margin_and_selling_prices_resolve_under_a_users_own_price() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner_on(&app, "seller", "standard", true).await;
    let other = fixtures::partner_on(&app, "bystander", "standard", true).await;
    let u = fixtures::user(&app, p.id, 1).await;
    fixtures::api(&app, "sp_margin", 333).await;
    fixtures::api(&app, "sp_selling", 1000).await;
    fixtures::api(&app, "sp_user", 1000).await;

    // Nothing set: a user pays the partner's cost, as before margins existed.
    let (s, list) = app
        .get("/api/v1/partner/selling-prices", Some(&p.token))
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(
        (
            list["default_margin_percent"].as_f64(),
            row(&list, "sp_margin")["sells_at_paise"].as_i64()
        ),
        (Some(0.0), Some(333))
    );

    // 12.5% over a cost of 333 is 41.625: rounded half up to the paisa, 375.
    let (s, list) = put(
        &app,
        "/api/v1/partner/selling-prices/margin",
        &json!({"default_margin_percent": 12.5}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(
        (
            list["default_margin_bps"].as_i64(),
            list["default_margin_percent"].as_f64()
        ),
        (Some(1250), Some(12.5))
    );
    assert_eq!(row(&list, "sp_margin")["sells_at_paise"], 375);
    assert_eq!(
        row(&list, "sp_margin")["amount_paise"],
        333,
        "the cost is unchanged"
    );
    assert_eq!(row(&list, "sp_margin")["user_amount_source"], "margin");

    let (s, r) = put(&app, "/api/v1/partner/selling-prices", &json!({"prices": [{"service": "sp_selling", "price_paise": 1999}, {"service": "sp_user", "price_paise": 1500}]}), Some(&p.token)).await;
    assert_eq!((s, r["changed"].as_i64()), (200, Some(2)), "{r}");
    let (s, r) = put(
        &app,
        &format!("/api/v1/partner/users/{u}/prices"),
        &json!({"prices": [{"service": "sp_user", "price_paise": 1200}]}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{r}");

    // API Price of the user: each level in its place.
    let (_, prices) = app
        .get(&format!("/api/v1/partner/users/{u}/prices"), Some(&p.token))
        .await;
    for (svc, amount, user_amount, source) in [
        ("sp_margin", 333, 375, "margin"),
        ("sp_selling", 1000, 1999, "selling"),
        ("sp_user", 1000, 1200, "user"),
    ] {
        let r = row(&prices, svc);
        assert_eq!(
            (
                r["amount_paise"].as_i64(),
                r["user_amount_paise"].as_i64(),
                r["user_amount_source"].as_str()
            ),
            (Some(amount), Some(user_amount), Some(source)),
            "{svc}: {r}"
        );
    }
    // My Plan shows what the partner sells at beside its cost.
    let (_, plan) = app.get("/api/v1/partner/plan", Some(&p.token)).await;
    assert_eq!(
        (
            row(&plan, "sp_selling")["price_paise"].as_i64(),
            row(&plan, "sp_selling")["sells_at_paise"].as_i64()
        ),
        (Some(1000), Some(1999))
    );
    assert_eq!(
        row(&plan, "sp_user")["sells_at_paise"],
        1500,
        "a user's own price is not the partner's"
    );

    // Removing the selling price falls back to cost plus margin; an unchanged row is not rewritten.
    let (_, r) = put(&app, "/api/v1/partner/selling-prices", &json!({"prices": [{"service": "sp_selling", "price_paise": null}, {"service": "sp_user", "price_paise": 1500}]}), Some(&p.token)).await;
    assert_eq!(r["changed"], 1);
    let (_, list) = app
        .get("/api/v1/partner/selling-prices", Some(&p.token))
        .await;
    assert_eq!(row(&list, "sp_selling")["sells_at_paise"], 1125);

    // Another partner's prices are its own.
    let (_, theirs) = app
        .get("/api/v1/partner/selling-prices", Some(&other.token))
        .await;
    assert_eq!(
        (
            theirs["default_margin_bps"].as_i64(),
            row(&theirs, "sp_user")["sells_at_paise"].as_i64()
        ),
        (Some(0), Some(1000))
    );
    let audits = count(
        &app,
        "SELECT count(*) FROM audit_log WHERE action IN ('margin.set', 'selling_price.set')",
    )
    .await;
    assert_eq!(audits, 4);
}

#[tokio::test]
async fn margin_and_selling_prices_are_validated() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "strictseller").await;
    fixtures::api(&app, "sp_a", 1000).await;
    for (body, msg) in [
        (
            json!({"default_margin_percent": "20"}),
            "Margin must be a number",
        ),
        (json!({}), "Margin is required"),
        (
            json!({"default_margin_percent": -1}),
            "Margin cannot be negative",
        ),
        (
            json!({"default_margin_percent": 1000.01}),
            "Margin cannot be above 1000%",
        ),
        (
            json!({"default_margin_percent": 12.345}),
            "Margin can have at most two decimals",
        ),
        (
            json!({"default_margin_percent": true}),
            "Margin must be a number",
        ),
    ] {
        let (s, b) = put(
            &app,
            "/api/v1/partner/selling-prices/margin",
            &body,
            Some(&p.token),
        )
        .await;
        assert_eq!(
            (s, b["error"]["fields"]["default_margin_percent"].as_str()),
            (422, Some(msg)),
            "{body}: {b}"
        );
    }
    for (body, field, msg) in [
        (
            json!({"prices": [{"service": "sp_a", "price_paise": 5}, {"service": "nope", "price_paise": 5}]}),
            "prices[1].service",
            "Unknown service: nope",
        ),
        (
            json!({"prices": [{"service": "sp_a", "price_paise": -1}]}),
            "prices[0].price_paise",
            "Price cannot be negative",
        ),
        (
            json!({"prices": [{"service": "sp_a", "price_paise": 2.5}]}),
            "prices[0].price_paise",
            "Price must be a whole number of paise",
        ),
        (
            json!({"prices": [{"service": "sp_a", "price_paise": 1}, {"service": "sp_a", "price_paise": 2}]}),
            "prices[1].service",
            "sp_a is listed twice",
        ),
        (json!({"prices": []}), "prices", "Change at least one price"),
    ] {
        let (s, b) = put(
            &app,
            "/api/v1/partner/selling-prices",
            &body,
            Some(&p.token),
        )
        .await;
        assert_eq!(
            (s, b["error"]["fields"][field].as_str()),
            (422, Some(msg)),
            "{body}: {b}"
        );
    }
    assert_eq!(
        count(&app, "SELECT count(*) FROM partner_selling_prices").await,
        0,
        "nothing of a refused list is written"
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM partners WHERE default_margin_bps <> 0"
        )
        .await,
        0
    );
    let admin = app.superadmin_token();
    assert_eq!(
        app.get("/api/v1/partner/selling-prices", Some(&admin))
            .await
            .0,
        403
    );
    assert_eq!(
        put(
            &app,
            "/api/v1/partner/selling-prices/margin",
            &json!({"default_margin_percent": 5}),
            Some(&admin)
        )
        .await
        .0,
        403
    );
    assert_eq!(app.get("/api/v1/partner/selling-prices", None).await.0, 401);
}

/// The gateway debits exactly what API Price shows, and concurrent calls at a margin price
/// never overspend: with funds for seven calls, seven succeed and the ledger adds up.
#[tokio::test]
async fn the_gateway_charges_the_price_shown_and_concurrent_charges_stay_exact() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    // Cost 300 at 33.33%: 300 + 99.99 → 400 per call for the user.
    let s = gs::live(
        &app,
        "marginal",
        &up.base,
        "sp_call",
        300,
        7 * 400 + 399,
        100_000,
    )
    .await;
    let token = fixtures::partner_token(&app, s.partner_id, "marginal").await;
    let (st, _) = put(
        &app,
        "/api/v1/partner/selling-prices/margin",
        &json!({"default_margin_percent": 33.33}),
        Some(&token),
    )
    .await;
    assert_eq!(st, 200);
    let (_, prices) = app
        .get(
            &format!("/api/v1/partner/users/{}/prices", s.user_id),
            Some(&token),
        )
        .await;
    let shown = row(&prices, "sp_call")["user_amount_paise"]
        .as_i64()
        .unwrap();
    assert_eq!(shown, 400);

    let body = json!({"id_number": "X1"});
    let calls = (0..20).map(|_| gs::verify(&app, &app.base, &s.key, "sp_call", &body));
    let results = futures::future::join_all(calls).await;
    let ok: Vec<_> = results.iter().filter(|r| r.0 == 200).collect();
    assert_eq!(
        ok.len(),
        7,
        "{:?}",
        results.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    assert!(
        ok.iter()
            .all(|r| r.1["x-charged-paise"] == shown.to_string().as_str())
    );
    assert!(results.iter().filter(|r| r.0 != 200).all(|r| r.0 == 402));
    assert_eq!(gs::balance(&app, s.user_wallet).await, 399);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 100_000 - 7 * 300);
    let charged: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT amount_paise, user_amount_paise FROM api_transactions WHERE status = 'success'",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(charged, vec![(300, 400); 7]);
    gs::audit(&app).await;
}
