//! End users of a partner and clients of the super admin: lists, details, creation rules,
//! settings toggles, and that a partner never sees another partner's users.

use std::time::Duration;

use serde_json::json;

use crate::{common::TestApp, fixtures};

fn new_user(email: &str) -> serde_json::Value {
    json!({"first_name": "Meera", "last_name": "Nair", "email": email, "phone_number": "9812345678", "password": "Secret-123", "full_access": false})
}

#[tokio::test]
async fn partner_creates_lists_and_updates_its_users() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let (s, b) = app
        .post(
            "/api/v1/partner/users",
            &new_user("Meera@Example.in"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_i64().unwrap();

    let (s, b) = app
        .post(
            "/api/v1/partner/users",
            &new_user("meera@example.in"),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 409, "same e-mail twice for one partner: {b}");

    let (s, list) = app.get("/api/v1/partner/users", Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(list["total"], 1);
    assert_eq!(list["items"][0]["email"], "meera@example.in");
    assert_eq!(list["items"][0]["is_active"], true);

    let (_, wallets) = app
        .get(
            &format!("/api/v1/partner/users/{id}/wallets"),
            Some(&p.token),
        )
        .await;
    assert_eq!(wallets["api"]["balance_paise"], 0, "{wallets}");

    let res = app
        .client
        .patch(app.url(&format!("/api/v1/partner/users/{id}")))
        .bearer_auth(&p.token)
        .json(&json!({"is_active": false, "full_access": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let u: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        (u["is_active"].clone(), u["full_access"].clone()),
        (json!(false), json!(true))
    );
    let audits = fixtures::count(
        &app,
        "SELECT count(*) FROM audit_log WHERE action = 'user.update'",
    )
    .await;
    assert_eq!(audits, 1);

    let (s, d) = app.get("/api/v1/partner/dashboard", Some(&p.token)).await;
    assert_eq!((s, d["users"].as_i64()), (200, Some(1)));

    // The account-created mail goes out through the queue.
    app.run_pending_jobs().await;
    let mail = testkit::eventually(Duration::from_secs(20), || async {
        testkit::outbox(&app.config).into_iter().next()
    })
    .await;
    assert!(
        mail.expect("account mail")
            .contains("Subject: Your account has been created")
    );
}

#[tokio::test]
async fn add_user_rules_and_messages() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let bad = json!({"first_name": "M3era", "last_name": "N@ir", "email": "x@y.in", "phone_number": "98-123", "password": "Secret-123"});
    let (s, b) = app
        .post("/api/v1/partner/users", &bad, Some(&p.token))
        .await;
    assert_eq!(s, 422);
    assert_eq!(
        b["error"]["fields"]["first_name"],
        "No special character & numbers allowed in first name"
    );
    assert_eq!(
        b["error"]["fields"]["last_name"],
        "No special character & numbers allowed in last name"
    );
    assert_eq!(
        b["error"]["fields"]["phone_number"],
        "No special character & alphabets allowed in phone number."
    );
    let (s, b) = app
        .post("/api/v1/partner/users", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 422);
    for f in [
        "first_name",
        "last_name",
        "email",
        "phone_number",
        "password",
    ] {
        assert!(b["error"]["fields"].get(f).is_some(), "{f} missing in {b}");
    }
    let (s, _) = app
        .post("/api/v1/partner/users", &new_user("a@b.in"), None)
        .await;
    assert_eq!(s, 401);
    let (s, _) = app
        .post(
            "/api/v1/partner/users",
            &new_user("a@b.in"),
            Some(&app.superadmin_token()),
        )
        .await;
    assert_eq!(s, 403);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM end_users").await,
        0
    );
}

#[tokio::test]
async fn a_partner_never_sees_another_partners_users() {
    let app = TestApp::spawn().await;
    let alpha = fixtures::partner(&app, "alpha").await;
    let beta = fixtures::partner(&app, "beta").await;
    let theirs = fixtures::user(&app, beta.id, 1).await;
    fixtures::user(&app, alpha.id, 2).await;

    let (s, b) = app
        .get(
            &format!("/api/v1/partner/users/{theirs}"),
            Some(&alpha.token),
        )
        .await;
    assert_eq!((s, b["error"]["code"].as_str()), (404, Some("not_found")));
    let res = app
        .client
        .patch(app.url(&format!("/api/v1/partner/users/{theirs}")))
        .bearer_auth(&alpha.token)
        .json(&json!({"is_active": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let active: bool = sqlx::query_scalar("SELECT is_active FROM end_users WHERE id = $1")
        .bind(theirs)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert!(active, "nothing changed");
    let (_, list) = app.get("/api/v1/partner/users", Some(&alpha.token)).await;
    assert_eq!(list["total"], 1);
    assert!(
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["partner_id"] == alpha.id)
    );
}

#[tokio::test]
async fn super_admin_lists_and_filters_clients() {
    let app = TestApp::spawn().await;
    let alpha = fixtures::partner(&app, "alpha").await;
    fixtures::partner(&app, "beta").await;
    let admin = app.superadmin_token();
    let (s, all) = app.get("/api/v1/superadmin/clients", Some(&admin)).await;
    assert_eq!((s, all["total"].as_i64()), (200, Some(2)));
    let (_, one) = app
        .get("/api/v1/superadmin/clients?email=ALPHA", Some(&admin))
        .await;
    assert_eq!(one["total"], 1);
    assert_eq!(one["items"][0]["user_name"], "alpha");
    let (_, by_id) = app
        .get(
            &format!("/api/v1/superadmin/clients?user_id={}", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!(by_id["items"][0]["id"], alpha.id);
    let (s, b) = app
        .get("/api/v1/superadmin/clients?user_id=12a", Some(&admin))
        .await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (422, Some("User ID contains only numeric values."))
    );
    let (s, c) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!((s, c["email"].as_str()), (200, Some("alpha@partner.test")));
    let (s, _) = app
        .get("/api/v1/superadmin/clients/999999", Some(&admin))
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .get("/api/v1/superadmin/clients", Some(&alpha.token))
        .await;
    assert_eq!(s, 403, "a partner is not the super admin");
    let (s, d) = app.get("/api/v1/superadmin/dashboard", Some(&admin)).await;
    assert_eq!((s, d["total_users"].as_i64()), (200, Some(2)));
}

#[tokio::test]
async fn a_deactivated_partner_is_refused_even_with_a_live_token() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let (s, _) = app.get("/api/v1/partner/users", Some(&p.token)).await;
    assert_eq!(s, 200);
    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, b) = app.get("/api/v1/partner/users", Some(&p.token)).await;
    assert_eq!((s, b["error"]["code"].as_str()), (403, Some("forbidden")));
    sqlx::query("DELETE FROM partners WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, _) = app.get("/api/v1/partner/users", Some(&p.token)).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn super_admin_pages_a_clients_users_eight_at_a_time_and_sets_their_status() {
    let app = TestApp::spawn().await;
    let alpha = fixtures::partner(&app, "alpha").await;
    let beta = fixtures::partner(&app, "beta").await;
    let mut ids = Vec::new();
    for n in 1..=9 {
        ids.push(fixtures::user(&app, alpha.id, n).await);
    }
    let theirs = fixtures::user(&app, beta.id, 10).await;
    let admin = app.superadmin_token();

    let (s, first) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(
        (
            first["total"].as_i64(),
            first["per_page"].as_i64(),
            first["pages"].as_i64()
        ),
        (Some(9), Some(8), Some(2))
    );
    assert_eq!(first["items"].as_array().unwrap().len(), 8);
    assert_eq!(
        first["items"][0]["id"],
        *ids.last().unwrap(),
        "newest first"
    );
    let (_, second) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users?page=2", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!(second["items"].as_array().unwrap().len(), 1);
    assert!(
        first["items"]
            .as_array()
            .unwrap()
            .iter()
            .chain(second["items"].as_array().unwrap())
            .all(|u| u["partner_id"] == alpha.id)
    );

    let (s, _) = app
        .get("/api/v1/superadmin/clients/999999/users", Some(&admin))
        .await;
    assert_eq!(s, 404, "an unknown client is not a client without users");

    let uid = ids[0];
    let (s, u) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users/{uid}", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!((s, u["id"].as_i64()), (200, Some(uid)));
    let (s, _) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users/{theirs}", alpha.id),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 404, "beta's user is not alpha's");

    let res = app
        .client
        .patch(app.url(&format!(
            "/api/v1/superadmin/clients/{}/users/{uid}",
            alpha.id
        )))
        .bearer_auth(&admin)
        .json(&json!({"is_active": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let u: serde_json::Value = res.json().await.unwrap();
    assert_eq!(u["is_active"], false);
    // The partner's console sees what the super admin set.
    let (_, seen) = app
        .get(&format!("/api/v1/partner/users/{uid}"), Some(&alpha.token))
        .await;
    assert_eq!(seen["is_active"], false);
    let actor: String = sqlx::query_scalar(
        "SELECT actor_kind::text FROM audit_log WHERE action = 'user.update' AND entity_id = $1",
    )
    .bind(uid.to_string())
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(actor, "superadmin");
    let res = app
        .client
        .patch(app.url(&format!(
            "/api/v1/superadmin/clients/{}/users/{theirs}",
            alpha.id
        )))
        .bearer_auth(&admin)
        .json(&json!({"is_active": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);

    let (s, _) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}/users", alpha.id),
            Some(&alpha.token),
        )
        .await;
    assert_eq!(s, 403);
}
