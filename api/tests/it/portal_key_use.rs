//! A key's "last used" in the portal's list: written by the gateway off the call's path.

use std::time::Duration;

use serde_json::json;

use crate::{
    fixtures, gateway_support as gs,
    portal::{site, token},
};
use domain::wallets::Owner;

#[tokio::test]
async fn a_key_shows_when_the_gateway_last_saw_it() {
    let app = crate::common::TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    let api = fixtures::api(&app, "pan_check", 300).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
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
    gs::credit(&app, Owner::Partner(a.partner.id), 2_000).await;
    let (status, created) = app
        .post("/api/v1/me/api-keys", &json!({"mode": "sandbox"}), Some(&t))
        .await;
    assert_eq!(status, 201, "{created}");
    let (_, other) = app
        .post("/api/v1/me/api-keys", &json!({"mode": "sandbox"}), Some(&t))
        .await;
    let (_, list) = app.get("/api/v1/me/api-keys", Some(&t)).await;
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|k| k["last_used_at"].is_null()),
        "{list}"
    );

    let res = app
        .client
        .post(app.url("/api/v1/verify/pan_check"))
        .header("X-Api-Key", created["key"].as_str().unwrap())
        .json(&json!({"id_number": "ABCDE1234F"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);

    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let used = loop {
        let (_, list) = app.get("/api/v1/me/api-keys", Some(&t)).await;
        let key = list
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == created["id"])
            .cloned()
            .unwrap();
        if !key["last_used_at"].is_null() || tokio::time::Instant::now() >= deadline {
            let unused = list
                .as_array()
                .unwrap()
                .iter()
                .find(|k| k["id"] == other["id"])
                .cloned()
                .unwrap();
            assert!(
                unused["last_used_at"].is_null(),
                "the key not used stays unused: {unused}"
            );
            break key;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        used["last_used_at"].is_string(),
        "the key used shows its last use: {used}"
    );

    // Within the resolution a busy key is not written again.
    let mut conn = app.db.pool.acquire().await.unwrap();
    let id = created["id"].as_i64().unwrap();
    assert_eq!(
        domain::gateway::api_keys::mark_used(&mut conn, &[id])
            .await
            .unwrap(),
        0
    );
    sqlx::query("UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await
        .unwrap();
    assert_eq!(
        domain::gateway::api_keys::mark_used(&mut conn, &[id])
            .await
            .unwrap(),
        1
    );
}
