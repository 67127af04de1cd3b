//! Transaction lists: a user's wallet ledger (manual credits and debits beside each call's
//! debit and a failed call's refund, with the balance after each) and the partner-wide lists
//! with their filter panel; never another partner's rows.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, FAIL_500, OK, Upstream},
};

#[tokio::test]
async fn a_users_ledger_shows_manual_entries_calls_and_refunds_with_the_balance_after_each() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "ledger", &up.base, "pan_check", 300, 0, 10_000).await;
    let token = fixtures::partner_token(&app, s.partner_id, "ledger").await;
    let entries = format!("/api/v1/partner/users/{}/wallets/api/entries", s.user_id);
    let (st, b) = app
        .post(
            &entries,
            &json!({"type": "credit", "amount_paise": 100_000}),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{b}");

    up.set(OK);
    let (st, _, _) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "X1"}),
    )
    .await;
    assert_eq!(st, 200);
    up.set(FAIL_500);
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "X2"}),
    )
    .await;
    assert_eq!(st, 502);
    let failed: i64 = h["x-transaction-id"].to_str().unwrap().parse().unwrap();
    let (st, _) = app
        .post(
            &entries,
            &json!({"type": "debit", "amount_paise": 20_000}),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200);

    let (st, b) = app
        .get(
            &format!("/api/v1/partner/users/{}/wallets/api/ledger", s.user_id),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["total"], 5, "{b}");
    let rows = b["items"].as_array().unwrap();
    let row = |i: usize, k: &str| rows[i][k].clone();
    // Newest first: the manual debit, the refund and the failed call's debit, the charged call,
    // the manual credit.
    assert_eq!(
        (
            row(0, "type"),
            row(0, "reason"),
            row(0, "amount_paise"),
            row(0, "balance_after_paise")
        ),
        (
            json!("debit"),
            json!("manual"),
            json!(20_000),
            json!(79_700)
        )
    );
    assert_eq!(
        row(0, "status"),
        Value::Null,
        "a manual entry has no call status"
    );
    assert_eq!(
        (
            row(1, "type"),
            row(1, "reason"),
            row(1, "balance_after_paise")
        ),
        (json!("credit"), json!("refund"), json!(99_700))
    );
    assert_eq!(
        (
            row(1, "status"),
            row(1, "transaction_id"),
            row(1, "service")
        ),
        (json!("refunded"), json!(failed), json!("pan_check"))
    );
    assert_eq!(
        (
            row(2, "type"),
            row(2, "reason"),
            row(2, "balance_after_paise"),
            row(2, "status")
        ),
        (
            json!("debit"),
            json!("api_call"),
            json!(99_400),
            json!("refunded")
        )
    );
    assert_eq!(row(2, "status_code"), 500);
    assert_eq!(
        (
            row(3, "type"),
            row(3, "status"),
            row(3, "amount_paise"),
            row(3, "balance_after_paise")
        ),
        (json!("debit"), json!("success"), json!(300), json!(99_700))
    );
    assert!(row(3, "pid").as_str().is_some_and(|p| !p.is_empty()));
    assert_eq!(
        (
            row(4, "type"),
            row(4, "reason"),
            row(4, "balance_after_paise")
        ),
        (json!("credit"), json!("manual"), json!(100_000))
    );

    // The product wallet's ledger is its own; an unknown wallet kind is a path that does not exist.
    let (st, b) = app
        .get(
            &format!("/api/v1/partner/users/{}/wallets/product/ledger", s.user_id),
            Some(&token),
        )
        .await;
    assert_eq!((st, b["total"].clone()), (200, json!(0)));
    let (st, _) = app
        .get(
            &format!("/api/v1/partner/users/{}/wallets/gold/ledger", s.user_id),
            Some(&token),
        )
        .await;
    assert_eq!(st, 404);
    // Paged, 50 a page by default, and date-filtered.
    let (_, b) = app
        .get(
            &format!(
                "/api/v1/partner/users/{}/wallets/api/ledger?per_page=2&page=3",
                s.user_id
            ),
            Some(&token),
        )
        .await;
    assert_eq!(
        (b["pages"].clone(), b["items"].as_array().unwrap().len()),
        (json!(3), 1)
    );
    let (_, b) = app
        .get(
            &format!(
                "/api/v1/partner/users/{}/wallets/api/ledger?to=2020-01-01",
                s.user_id
            ),
            Some(&token),
        )
        .await;
    assert_eq!(b["total"], 0);

    // Another partner reads nothing of it; the super admin reads it through the client.
    let other = fixtures::partner(&app, "other").await;
    let (st, b) = app
        .get(
            &format!("/api/v1/partner/users/{}/wallets/api/ledger", s.user_id),
            Some(&other.token),
        )
        .await;
    assert_eq!(st, 404, "{b}");
    assert!(b.get("items").is_none());
    let admin = app.superadmin_token();
    let (st, b) = app
        .get(
            &format!(
                "/api/v1/superadmin/clients/{}/users/{}/wallets/api/ledger",
                s.partner_id, s.user_id
            ),
            Some(&admin),
        )
        .await;
    assert_eq!((st, b["total"].clone()), (200, json!(5)));
    let (st, _) = app
        .get(
            &format!(
                "/api/v1/superadmin/clients/{}/users/{}/wallets/api/ledger",
                other.id, s.user_id
            ),
            Some(&admin),
        )
        .await;
    assert_eq!(st, 404);
}

#[tokio::test]
async fn a_product_purchase_shows_in_the_product_ledger_with_its_product() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "prod").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let mut conn = app.db.pool.acquire().await.unwrap();
    let w = domain::wallets::wallet_id(
        &mut conn,
        domain::wallets::Owner::User {
            partner_id: p.id,
            user_id: u,
        },
        domain::wallets::WalletKind::Product,
    )
    .await
    .unwrap();
    for (t, amount, reason, reference) in [
        ("credit", 10_000, domain::wallets::Reason::Manual, None),
        (
            "debit",
            2_500,
            domain::wallets::Reason::Product,
            Some("PRD00000001"),
        ),
    ] {
        domain::wallets::apply(
            &mut conn,
            &domain::wallets::Movement {
                wallet_id: w,
                entry_type: domain::wallets::EntryType::parse(t).unwrap(),
                amount_paise: amount,
                reason,
                reference,
                idempotency_key: None,
                actor: domain::infra::audit::Actor::system(),
            },
        )
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO product_transactions (partner_id, user_id, product, pid, amount_type, amount_paise, user_amount_paise, remaining_paise) VALUES ($1, $2, 'E-Sign', 'PRD00000001', 'debit', 1875, 2500, 7500)")
        .bind(p.id).bind(u).execute(&app.db.pool).await.unwrap();
    let (st, b) = app
        .get(
            &format!("/api/v1/partner/users/{u}/wallets/product/ledger"),
            Some(&p.token),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        (
            b["items"][0]["service"].clone(),
            b["items"][0]["pid"].clone(),
            b["items"][0]["balance_after_paise"].clone()
        ),
        (json!("E-Sign"), json!("PRD00000001"), json!(7_500))
    );
    assert_eq!(b["items"][1]["service"], Value::Null);
}

async fn calls(app: &TestApp, partner_id: i64, user_id: i64, service: &str, n: i64) {
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, remaining_paise, partner_remaining_paise, created_at)
         SELECT $1, $2, $3, 'PID' || g, 'success', 200, 250, 300, 1000 - g, 5000 - g, timestamptz '2026-11-01 10:00:00+00' + g * interval '1 hour'
           FROM generate_series(1, $4) g",
    )
    .bind(partner_id).bind(user_id).bind(service).bind(n)
    .execute(&app.db.pool).await.unwrap();
    sqlx::query(
        "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, amount_paise, created_at)
         SELECT $1, $2, $3, 'PID' || g, 'V' || g, 'P' || g, 200, 300, timestamptz '2026-11-01 10:00:00+00' + g * interval '1 hour'
           FROM generate_series(1, $4) g",
    )
    .bind(partner_id).bind(user_id).bind(service).bind(n)
    .execute(&app.db.pool).await.unwrap();
}

#[tokio::test]
async fn partner_wide_lists_hold_every_user_and_filter_by_the_panel() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "wide").await;
    let other = fixtures::partner(&app, "wideother").await;
    let u1 = fixtures::user(&app, p.id, 1).await;
    let u2 = fixtures::user(&app, p.id, 2).await;
    let stranger = fixtures::user(&app, other.id, 3).await;
    calls(&app, p.id, u1, "pan_check", 40).await;
    calls(&app, p.id, u2, "gst_check", 20).await;
    calls(&app, other.id, stranger, "pan_check", 7).await;
    sqlx::query("INSERT INTO product_transactions (partner_id, user_id, product, pid, amount_type, amount_paise, user_amount_paise) VALUES ($1, $2, 'E-Sign', 'PRD1', 'debit', 1875, 2500)")
        .bind(p.id).bind(u2).execute(&app.db.pool).await.unwrap();
    sqlx::query("INSERT INTO product_logs (partner_id, user_id, description, status_code, amount_paise) VALUES ($1, $2, 'E-Sign (PRD1)', 200, 2500)")
        .bind(p.id).bind(u2).execute(&app.db.pool).await.unwrap();

    let get = |q: &str| {
        let path = format!("/api/v1/partner/{q}");
        let (app, token) = (&app, p.token.clone());
        async move { app.get(&path, Some(&token)).await }
    };
    let (st, b) = get("api-transactions").await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        (
            b["total"].clone(),
            b["pages"].clone(),
            b["items"].as_array().unwrap().len()
        ),
        (json!(60), json!(2), 50)
    );
    assert_eq!(b["items"][0]["pid"], "PID40", "newest first");
    assert_eq!(
        (
            b["items"][0]["amount_paise"].clone(),
            b["items"][0]["partner_remaining_paise"].clone()
        ),
        (json!(250), json!(4960))
    );
    let (_, b) = get(&format!("api-transactions?user_id={u2}")).await;
    assert_eq!(b["total"], 20);
    let (_, b) = get(&format!("api-transactions?email=USER2.{}", p.id)).await;
    assert_eq!(b["total"], 20, "email matches a part, in any case");
    let (_, b) = get("api-transactions?services=GST").await;
    assert_eq!(b["total"], 20);
    let (_, b) = get("api-transactions?pid=PID1").await;
    // PID1, PID10..PID19 of each user (u2 has up to 20): 11 + 11.
    assert_eq!(b["total"], 22);
    let (_, b) = get("api-transactions?from=2026-11-01&to=2026-11-01").await;
    // 1 Nov IST ends at 18:30 UTC: the calls of 11:00 to 18:00 UTC.
    assert_eq!(b["total"], 16, "8 calls a user on the 1st (IST)");
    let (_, b) = get("api-transactions?user_id=&email=&pid=&services=").await;
    assert_eq!(b["total"], 60, "blank fields are left out");
    let (st, b) = get("api-transactions?user_id=12a").await;
    assert_eq!(
        (st, b["error"]["fields"]["user_id"].clone()),
        (422, json!("User ID contains only numeric values."))
    );
    let (_, b) = get(&format!("api-transactions?user_id={stranger}")).await;
    assert_eq!(b["total"], 0, "another partner's user is not in the list");

    let (_, b) = get("product-transactions").await;
    assert_eq!(
        (b["total"].clone(), b["items"][0]["service"].clone()),
        (json!(1), json!("E-Sign"))
    );
    let (_, b) = get("api-logs?services=pan").await;
    assert_eq!(b["total"], 40);
    let (_, b) = get("product-logs?services=e-sign").await;
    assert_eq!(b["total"], 1);
    let (st, _) = app.get("/api/v1/partner/api-logs", None).await;
    assert_eq!(st, 401);
}
