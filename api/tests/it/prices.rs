//! Per-user prices (User Detail, API Price) and the price shown at every level, through HTTP;
//! the user's transaction lists.

use serde_json::json;

use crate::{
    common::TestApp,
    fixtures::{self, count, put},
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
async fn price_of_a_user_at_every_level() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let p = fixtures::partner_on(&app, "pricer", "standard", true).await;
    let u = fixtures::user(&app, p.id, 1).await;
    let a = fixtures::api(&app, "lvl_default", 1000).await; // catalogue default only
    let b = fixtures::api(&app, "lvl_plan", 1000).await; // + slab price
    let c = fixtures::api(&app, "lvl_custom", 1000).await; // + customised price
    let d = fixtures::api(&app, "lvl_user", 1000).await; // + the user's own price
    let _ = a;
    for id in [b, c, d] {
        fixtures::slab_price(&app, "standard", id, 750).await;
    }
    fixtures::slab_price(&app, "pro", b, 1).await; // another slab: irrelevant
    for svc in ["lvl_custom", "lvl_user"] {
        put(
            &app,
            &format!("/api/v1/superadmin/clients/{}/prices", p.id),
            &json!({"prices": [{"service": svc, "price_paise": 500}]}),
            Some(&admin),
        )
        .await;
    }
    let (s, r) = put(
        &app,
        &format!("/api/v1/partner/users/{u}/prices"),
        &json!({"prices": [{"service": "lvl_user", "price_paise": 1200}]}),
        Some(&p.token),
    )
    .await;
    assert_eq!((s, r["changed"].as_i64()), (200, Some(1)), "{r}");

    let (s, list) = app
        .get(&format!("/api/v1/partner/users/{u}/prices"), Some(&p.token))
        .await;
    assert_eq!(s, 200, "{list}");
    let expect = [
        ("lvl_default", 1000, "default", 1000, "default"),
        ("lvl_plan", 750, "plan", 750, "plan"),
        ("lvl_custom", 500, "custom", 500, "custom"),
        ("lvl_user", 500, "custom", 1200, "user"),
    ];
    for (svc, amount, source, user_amount, user_source) in expect {
        let r = row(&list, svc);
        assert_eq!(
            (
                r["amount_paise"].as_i64(),
                r["amount_source"].as_str(),
                r["user_amount_paise"].as_i64(),
                r["user_amount_source"].as_str()
            ),
            (
                Some(amount),
                Some(source),
                Some(user_amount),
                Some(user_source)
            ),
            "{svc}: {r}"
        );
    }
    assert_eq!(row(&list, "lvl_user")["user_price_paise"], 1200);
    assert_eq!(
        row(&list, "lvl_plan")["user_price_paise"],
        serde_json::Value::Null
    );

    // Another user of the same partner is not affected.
    let u2 = fixtures::user(&app, p.id, 2).await;
    let (_, other) = app
        .get(
            &format!("/api/v1/partner/users/{u2}/prices"),
            Some(&p.token),
        )
        .await;
    assert_eq!(row(&other, "lvl_user")["user_amount_paise"], 500);

    // Clearing the user's price falls back to the partner's; an unchanged row is not rewritten.
    let (_, r) = put(&app, &format!("/api/v1/partner/users/{u}/prices"), &json!({"prices": [{"service": "lvl_user", "price_paise": null}, {"service": "lvl_plan", "price_paise": null}]}), Some(&p.token)).await;
    assert_eq!(r["changed"], 1);
    let (_, list) = app
        .get(&format!("/api/v1/partner/users/{u}/prices"), Some(&p.token))
        .await;
    assert_eq!(row(&list, "lvl_user")["user_amount_paise"], 500);
    let audits: Vec<(serde_json::Value, serde_json::Value)> = sqlx::query_as(
        "SELECT before, after FROM audit_log WHERE action = 'user_price.set' ORDER BY id",
    )
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(audits.len(), 2);
    assert_eq!(
        (
            audits[1].0["price_paise"].as_i64(),
            audits[1].1["price_paise"].as_i64()
        ),
        (Some(1200), None)
    );

    // A hidden API leaves the user's list.
    sqlx::query("INSERT INTO api_visibility (partner_id, user_id, api_id, visible) VALUES ($1, $2, $3, false)").bind(p.id).bind(u).bind(b).execute(&app.db.pool).await.unwrap();
    let (_, list) = app
        .get(&format!("/api/v1/partner/users/{u}/prices"), Some(&p.token))
        .await;
    assert!(
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["service"] != "lvl_plan")
    );
    assert_eq!(list["items"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn price_changes_are_validated_all_or_nothing() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "strict").await;
    let u = fixtures::user(&app, p.id, 1).await;
    fixtures::api(&app, "pan_a", 1000).await;
    let path = format!("/api/v1/partner/users/{u}/prices");
    for (body, field, msg) in [
        (
            json!({"prices": [{"service": "pan_a", "price_paise": 5}, {"service": "nope", "price_paise": 5}]}),
            "prices[1].service",
            "Unknown service: nope",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": -1}]}),
            "prices[0].price_paise",
            "Price cannot be negative",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": "500"}]}),
            "prices[0].price_paise",
            "Price must be a number",
        ),
        (
            json!({"prices": [{"service": "pan_a", "price_paise": 2.5}]}),
            "prices[0].price_paise",
            "Price must be a whole number of paise",
        ),
        (json!({"prices": []}), "prices", "Change at least one price"),
    ] {
        let (s, b) = put(&app, &path, &body, Some(&p.token)).await;
        assert_eq!(s, 422, "{body}");
        assert_eq!(b["error"]["fields"][field], msg, "{b}");
    }
    assert_eq!(
        count(&app, "SELECT count(*) FROM user_prices").await,
        0,
        "nothing of a refused list is written"
    );
    let admin = app.superadmin_token();
    assert_eq!(
        put(
            &app,
            &path,
            &json!({"prices": [{"service": "pan_a", "price_paise": 1}]}),
            Some(&admin)
        )
        .await
        .0,
        403
    );
    assert_eq!(app.get(&path, None).await.0, 401);
}

#[tokio::test]
async fn price_charged_shows_in_the_users_transaction_lists() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "txlist").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let api = fixtures::api(&app, "pan_a", 1000).await;
    for i in 0..55 {
        sqlx::query(
            "INSERT INTO api_transactions (partner_id, user_id, api_id, service, pid, status, status_code, amount_paise, user_amount_paise, remaining_paise, created_at)
             VALUES ($1, $2, $3, 'pan_a', 'PID1001', 'success', 200, 750, 1000, $4, now() - make_interval(mins => $5))",
        )
        .bind(p.id)
        .bind(u)
        .bind(api)
        .bind(100_000 - i as i64 * 1000)
        .bind(55 - i)
        .execute(&app.db.pool)
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO product_transactions (partner_id, user_id, product, pid, amount_type, amount_paise, user_amount_paise, remaining_paise) VALUES ($1, $2, 'E-Sign', 'PRD1', 'debit', 1875, 2500, 500)")
        .bind(p.id)
        .bind(u)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, page) = app
        .get(
            // The user's calls: User Transactions narrowed to the user (User Detail's tab is
            // the wallet's ledger).
            &format!("/api/v1/partner/api-transactions?user_id={u}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(
        (
            page["per_page"].as_i64(),
            page["total"].as_i64(),
            page["pages"].as_i64()
        ),
        (Some(50), Some(55), Some(2))
    );
    let first = &page["items"][0];
    assert_eq!(
        first["remaining_paise"],
        100_000 - 54 * 1000,
        "newest first"
    );
    for f in [
        "created_at",
        "user_id",
        "email",
        "service",
        "pid",
        "status_code",
        "amount_paise",
        "user_amount_paise",
        "amount_type",
        "remaining_paise",
    ] {
        assert!(!first[f].is_null(), "{f} missing: {first}");
    }
    let (_, products) = app
        .get(
            &format!("/api/v1/partner/product-transactions?user_id={u}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(products["total"], 1);
    assert_eq!(
        (
            products["items"][0]["service"].as_str(),
            products["items"][0]["user_amount_paise"].as_i64()
        ),
        (Some("E-Sign"), Some(2500))
    );
}
