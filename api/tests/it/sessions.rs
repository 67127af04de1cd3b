//! Sessions that end when they should: logout, a password change or reset, deactivation and
//! deletion each refuse the old tokens at once (in this process) or within the cache bound.

use std::time::{Duration, Instant};

use api::auth::{Claims, Role, SESSION_CACHE_TTL};
use serde_json::json;

use crate::{
    auth_fixtures::{PASSWORD, fresh_ip, login, mailed_token, post_as, signed_up},
    common::TestApp,
};

async fn status(app: &TestApp, path: &str, token: &str) -> u16 {
    app.get(path, Some(token)).await.0
}

#[tokio::test]
async fn partner_logout_ends_that_session_only() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "leaver").await;
    let other = login(&app, &p.email, PASSWORD).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 200);

    let (s, b) = app
        .post("/api/v1/partner/logout", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 204, "{b}");
    let (s, b) = app.get("/api/v1/partner/me", Some(&p.token)).await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (401, Some("unauthorized")),
        "{b}"
    );
    assert_eq!(
        status(&app, "/api/v1/jobs/01ARZ3NDEKTSV4RRFFQ69G5FAV", &p.token).await,
        401
    );
    // Logging out twice is a 401, not a 500.
    let (s, _) = app
        .post("/api/v1/partner/logout", &json!({}), Some(&p.token))
        .await;
    assert_eq!(s, 401);
    // The partner's other sign-in is untouched.
    assert_eq!(status(&app, "/api/v1/partner/me", &other).await, 200);
    // A super-admin token cannot use the partner logout, and no token is a 401.
    assert_eq!(
        app.post(
            "/api/v1/partner/logout",
            &json!({}),
            Some(&app.superadmin_token())
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.post("/api/v1/partner/logout", &json!({}), None).await.0,
        401
    );
}

#[tokio::test]
async fn superadmin_logout_ends_the_session_on_every_route() {
    let app = TestApp::spawn().await;
    domain::auth::superadmins::upsert(&app.db.pool, "root@kyc.test", "Admin-pass1")
        .await
        .unwrap();
    let (s, b) = app
        .post(
            "/api/v1/superadmin/login",
            &json!({"email": "root@kyc.test", "password": "Admin-pass1", "captcha": null}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let token = b["token"].as_str().unwrap().to_owned();
    assert_eq!(status(&app, "/api/v1/superadmin/me", &token).await, 200);
    assert_eq!(
        status(&app, "/api/v1/superadmin/clients", &token).await,
        200
    );

    let (s, b) = app
        .post("/api/v1/superadmin/logout", &json!({}), Some(&token))
        .await;
    assert_eq!(s, 204, "{b}");
    // The guard itself reads the session, not just /me.
    assert_eq!(status(&app, "/api/v1/superadmin/me", &token).await, 401);
    assert_eq!(
        status(&app, "/api/v1/superadmin/clients", &token).await,
        401
    );
    assert_eq!(
        app.post("/api/v1/partner/logout", &json!({}), Some(&token))
            .await
            .0,
        401
    );
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions_and_keeps_the_callers() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "changer").await;
    let stolen = login(&app, &p.email, PASSWORD).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let body = json!({"current_password": PASSWORD, "new_password": "NewSecret1", "confirm_new_password": "NewSecret1"});
    let (s, b) = app
        .post("/api/v1/partner/change-password", &body, Some(&p.token))
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(status(&app, "/api/v1/partner/me", &stolen).await, 401);
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 200);
}

#[tokio::test]
async fn a_password_reset_ends_every_session() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "resetter").await;
    let (s, _) = post_as(
        &app,
        &fresh_ip(),
        "/api/v1/partner/forgot-password",
        &json!({"email": p.email, "user_name": "resetter"}),
        None,
    )
    .await;
    assert_eq!(s, 202);
    let token = mailed_token(&app, &p.email, "/reset-password-admin/").await;
    let body =
        json!({"token": token, "new_password": "NewSecret1", "confirm_new_password": "NewSecret1"});
    assert_eq!(
        app.post("/api/v1/partner/reset-password", &body, None)
            .await
            .0,
        200
    );
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 401);
    let fresh = login(&app, &p.email, "NewSecret1").await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(status(&app, "/api/v1/partner/me", &fresh).await, 200);
}

#[tokio::test]
async fn deactivation_and_deletion_end_the_sessions_for_good() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "suspended").await;
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 200);
    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE partners SET is_active = true WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    // Reactivated, the partner signs in again; the token from before stays dead (after the
    // in-process cache of a live session lapses: the update did not go through this api).
    tokio::time::sleep(SESSION_CACHE_TTL).await;
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 401);
    assert_eq!(
        status(&app, "/api/v1/jobs/01ARZ3NDEKTSV4RRFFQ69G5FAV", &p.token).await,
        401
    );
    let again = login(&app, &p.email, PASSWORD).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(status(&app, "/api/v1/partner/me", &again).await, 200);

    sqlx::query("DELETE FROM partners WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let live: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sessions WHERE principal_id = $1 AND revoked_at IS NULL",
    )
    .bind(p.id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(live, 0);
    tokio::time::sleep(SESSION_CACHE_TTL).await;
    assert_eq!(status(&app, "/api/v1/partner/me", &again).await, 401);
}

#[tokio::test]
async fn a_session_ended_elsewhere_is_refused_within_the_cache_bound() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "elsewhere").await;
    assert_eq!(status(&app, "/api/v1/partner/me", &p.token).await, 200);
    // Another api process ends it: only the database knows.
    sqlx::query("UPDATE sessions SET revoked_at = now() WHERE principal_kind = 'partner' AND principal_id = $1").bind(p.id).execute(&app.db.pool).await.unwrap();
    let ended = Instant::now();
    while status(&app, "/api/v1/partner/me", &p.token).await == 200 {
        assert!(
            ended.elapsed() < SESSION_CACHE_TTL + Duration::from_millis(500),
            "still accepted after {:?}",
            ended.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_signed_token_without_a_live_session_is_refused() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "forger").await;
    let claims = |sid| Claims {
        sub: p.id,
        role: Role::Partner,
        user_name: None,
        subdomain: None,
        email: None,
        exp: 0,
        iat: 0,
        sid,
    };
    // Unknown session id.
    let t = app.state.issue_token(claims(uuid::Uuid::new_v4())).unwrap();
    assert_eq!(status(&app, "/api/v1/partner/me", &t).await, 401);
    // Another principal's session.
    let sid: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM sessions WHERE principal_kind = 'superadmin' LIMIT 1")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    let t = app.state.issue_token(claims(sid)).unwrap();
    assert_eq!(status(&app, "/api/v1/partner/me", &t).await, 401);
    // A token from before sessions (no sid) is refused too.
    let old = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &json!({"sub": p.id, "role": "partner", "exp": chrono::Utc::now().timestamp() + 600, "iat": 0}),
        &jsonwebtoken::EncodingKey::from_secret(app.config.jwt_secret.as_bytes()),
    )
    .unwrap();
    assert_eq!(status(&app, "/api/v1/partner/me", &old).await, 401);
}
