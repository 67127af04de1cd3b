//! The portal's History: a user's own transactions show what the user paid and its own balance,
//! never the partner's cost or the partner's balance.

use serde_json::json;

use crate::{
    fixtures, gateway_support as gs,
    portal::{site, token},
};
use domain::wallets::Owner;

#[tokio::test]
async fn portal_transactions_show_the_users_side_only() {
    let app = crate::common::TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    let api = fixtures::api(&app, "pan_check", 300).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(api)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO user_prices (partner_id, user_id, api_id, price_paise) VALUES ($1, $2, $3, 450)")
        .bind(a.partner.id)
        .bind(a.user_id)
        .bind(api)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::credit(
        &app,
        Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        2_000,
    )
    .await;
    gs::credit(&app, Owner::Partner(a.partner.id), 5_000).await;
    gs::charge_sandbox(&app, a.partner.id).await;

    let (status, body) = app
        .post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "ABCDE1234F"}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["charged_paise"], 450);

    let (status, list) = app.get("/api/v1/me/api-transactions", Some(&t)).await;
    assert_eq!(status, 200, "{list}");
    let row = &list["items"][0];
    assert_eq!(row["id"], body["transaction_id"]);
    assert_eq!(row["amount_paise"], 450, "what the user paid: {row}");
    assert_eq!(
        row["balance_paise"], 1_550,
        "the user's balance after: {row}"
    );
    assert_eq!(row["service"], "pan_check");
    assert_eq!(row["status"], "success");
    for hidden in [
        "user_amount_paise",
        "partner_remaining_paise",
        "remaining_paise",
        "email",
        "user_id",
    ] {
        assert!(
            row.get(hidden).is_none(),
            "{hidden} is not the user's business: {row}"
        );
    }
    // The row holds both sides; the partner paid the catalogue price.
    let sides: (i64, i64) = sqlx::query_as(
        "SELECT amount_paise, user_amount_paise FROM api_transactions WHERE id = $1",
    )
    .bind(body["transaction_id"].as_i64().unwrap())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(sides, (300, 450));
}
