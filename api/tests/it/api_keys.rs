//! End users' gateway keys: shown once, stored as a hash, listed by prefix, revoked
//! idempotently, limited per user, and invisible to another partner.

use serde_json::json;

use crate::{common::TestApp, fixtures};

fn keys(user: i64) -> String {
    format!("/api/v1/partner/users/{user}/api-keys")
}

#[tokio::test]
async fn key_is_shown_once_and_only_its_hash_is_stored() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;

    let (s, b) = app
        .post(&keys(u), &json!({"mode": "live"}), Some(&p.token))
        .await;
    assert_eq!(s, 201, "{b}");
    let key = b["key"].as_str().unwrap().to_owned();
    assert!(key.starts_with("kyc_live_") && key.len() == 41, "{key}");
    assert!(key[9..].chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(b["prefix"], &key[..16]);
    assert_eq!(b["mode"], "live");
    let id = b["id"].as_i64().unwrap();

    let (s, b) = app
        .post(&keys(u), &json!({"mode": "sandbox"}), Some(&p.token))
        .await;
    assert_eq!(s, 201);
    assert!(b["key"].as_str().unwrap().starts_with("kyc_test_"));

    // The row holds the SHA-256 of the key, and the key appears in no column of any table.
    let (hash, prefix, sha): (Vec<u8>, String, Vec<u8>) = sqlx::query_as(
        "SELECT key_hash, prefix, sha256(convert_to($2, 'UTF8')) FROM api_keys WHERE id = $1",
    )
    .bind(id)
    .bind(&key)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(hash, sha, "Postgres' own SHA-256 of the key");
    assert_eq!(hash, domain::gateway::api_keys::hash(&key).to_vec());
    assert_eq!(prefix, &key[..16]);
    let leaked: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM api_keys k WHERE k::text LIKE '%' || $1 || '%')
              + (SELECT count(*) FROM audit_log a WHERE a::text LIKE '%' || $1 || '%')",
    )
    .bind(&key[16..])
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(leaked, 0, "the clear key was stored");

    // Listed by prefix, never with the key.
    let (s, list) = app.get(&keys(u), Some(&p.token)).await;
    assert_eq!(s, 200);
    let items = list.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[1]["id"], id, "newest first");
    assert_eq!(items[1]["status"], "active");
    assert_eq!(items[1]["last_used_at"], serde_json::Value::Null);
    assert!(items[1]["created_at"].is_string());
    assert!(
        !list.to_string().contains(&key[16..]),
        "a list showed the key: {list}"
    );

    // The gateway's lookup finds it while usable.
    let mut conn = app.db.pool.acquire().await.unwrap();
    let owner = domain::gateway::api_keys::find_usable(&mut conn, &key)
        .await
        .unwrap()
        .expect("usable");
    assert_eq!(
        (owner.key_id, owner.partner_id, owner.user_id),
        (id, p.id, u)
    );
    assert!(
        domain::gateway::api_keys::find_usable(&mut conn, "kyc_live_nope")
            .await
            .unwrap()
            .is_none()
    );

    // Revoke, twice: both 204, and the key is refused from then on.
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{id}", keys(u)), Some(&p.token)).await,
        204
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{id}", keys(u)), Some(&p.token)).await,
        204
    );
    assert!(
        domain::gateway::api_keys::find_usable(&mut conn, &key)
            .await
            .unwrap()
            .is_none()
    );
    let (_, list) = app.get(&keys(u), Some(&p.token)).await;
    assert_eq!(list[1]["status"], "revoked");
    let revokes = fixtures::count(
        &app,
        "SELECT count(*) FROM audit_log WHERE action = 'api_key.revoke'",
    )
    .await;
    assert_eq!(revokes, 1, "a second revoke changes nothing");

    // An expired key is listed as expired and refused.
    sqlx::query(
        "UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE mode = 'sandbox'",
    )
    .execute(&app.db.pool)
    .await
    .unwrap();
    let (_, list) = app.get(&keys(u), Some(&p.token)).await;
    assert_eq!(list[0]["status"], "expired");
}

#[tokio::test]
async fn bad_requests_answer_in_the_contract_shape() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;
    for body in [
        json!({"mode": "prod"}),
        json!({}),
        json!({"mode": 1}),
        json!({"mode": "live", "extra": true}),
        json!({"mode": null}),
    ] {
        let (s, b) = app.post(&keys(u), &body, Some(&p.token)).await;
        // serde reports a number where a name belongs as a syntax error: 400 then, else 422.
        assert!(matches!(s, 400 | 422), "{body}: {s} {b}");
        assert!(b["error"]["message"].is_string(), "{body}: {b}");
    }
    let res = app
        .client
        .post(app.url(&keys(u)))
        .bearer_auth(&p.token)
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let (s, _) = app
        .post(
            "/api/v1/partner/users/abc/api-keys",
            &json!({"mode": "live"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .post(&keys(999_999), &json!({"mode": "live"}), Some(&p.token))
        .await;
    assert_eq!(s, 404);
    assert_eq!(
        fixtures::delete(&app, &format!("{}/999999", keys(u)), Some(&p.token)).await,
        404
    );
    assert_eq!(
        fixtures::delete(&app, &format!("{}/x", keys(u)), Some(&p.token)).await,
        404
    );
    let (s, _) = app.post(&keys(u), &json!({"mode": "live"}), None).await;
    assert_eq!(s, 401);
    let (s, _) = app
        .post(
            &keys(u),
            &json!({"mode": "live"}),
            Some(&app.superadmin_token()),
        )
        .await;
    assert_eq!(s, 403);
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM api_keys").await,
        0
    );
}

#[tokio::test]
async fn at_most_twenty_active_keys_per_user() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let u = fixtures::user(&app, p.id, 1).await;
    // Concurrent creations cannot pass the limit together.
    let (path, body) = (keys(u), json!({"mode": "sandbox"}));
    let results =
        futures::future::join_all((0..25).map(|_| app.post(&path, &body, Some(&p.token)))).await;
    let created: Vec<i64> = results
        .iter()
        .filter(|(s, _)| *s == 201)
        .map(|(_, b)| b["id"].as_i64().unwrap())
        .collect();
    assert_eq!(created.len(), 20);
    for (s, b) in results.iter().filter(|(s, _)| *s != 201) {
        assert_eq!(*s, 409, "{b}");
        assert_eq!(
            b["error"]["message"],
            "A user can have at most 20 active API keys. Revoke one first."
        );
    }
    // A revoked key frees a place.
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{}", keys(u), created[0]), Some(&p.token)).await,
        204
    );
    let (s, _) = app
        .post(&keys(u), &json!({"mode": "live"}), Some(&p.token))
        .await;
    assert_eq!(s, 201);
    let (s, _) = app
        .post(&keys(u), &json!({"mode": "live"}), Some(&p.token))
        .await;
    assert_eq!(s, 409);
}

#[tokio::test]
async fn another_partner_sees_none_of_it() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "beta").await;
    let ua = fixtures::user(&app, a.id, 1).await;
    let ub = fixtures::user(&app, b.id, 2).await;
    let (_, k) = app
        .post(&keys(ua), &json!({"mode": "live"}), Some(&a.token))
        .await;
    let key_id = k["id"].as_i64().unwrap();

    let (s, _) = app.get(&keys(ua), Some(&b.token)).await;
    assert_eq!(s, 404);
    let (s, _) = app
        .post(&keys(ua), &json!({"mode": "live"}), Some(&b.token))
        .await;
    assert_eq!(s, 404);
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{key_id}", keys(ua)), Some(&b.token)).await,
        404
    );
    // Nor through its own user's path.
    assert_eq!(
        fixtures::delete(&app, &format!("{}/{key_id}", keys(ub)), Some(&b.token)).await,
        404
    );
    let (_, list) = app.get(&keys(ua), Some(&a.token)).await;
    assert_eq!(list[0]["status"], "active");
}

#[tokio::test]
async fn the_new_paths_are_in_the_openapi_document() {
    let app = TestApp::spawn().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    for path in [
        "/api/v1/partner/users/{id}/api-keys",
        "/api/v1/partner/users/{id}/api-keys/{key_id}",
        "/api/v1/partner/visibility",
        "/api/v1/partner/users/{id}/visibility",
        "/api/v1/superadmin/clients/{id}/visibility",
        "/api/v1/partner/settings",
        "/api/v1/superadmin/clients/{id}/settings",
        "/api/v1/partner/ip-whitelist",
        "/api/v1/partner/ip-whitelist/{id}",
        "/api/v1/partner/users/{id}/ip-whitelist",
        "/api/v1/partner/blocked-ips",
        "/api/v1/partner/blocked-ips/{id}",
        "/api/v1/partner/ip-hits",
        "/api/v1/partner/users/{id}/ip-hits",
    ] {
        assert!(
            doc["paths"][path].is_object(),
            "{path} missing from the OpenAPI document"
        );
    }
}
