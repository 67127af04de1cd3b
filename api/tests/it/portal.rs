//! The end-user portal through HTTP: the public site, sign-in on the partner's sub-domain,
//! `/me` and its keys, Try-it console, lists and exports, and isolation (another partner's user
//! or sub-domain, a partner's token on `/me`, a user's token on partner paths).

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures::{self, delete},
    gateway_support as gs,
};
use domain::wallets::Owner;

pub const PASSWORD: &str = "Secret@123";

pub struct Site {
    pub partner: fixtures::Partner,
    pub user_id: i64,
    pub email: String,
}

/// A partner with an active sub-domain `name` and one end user with a real password.
pub async fn site(app: &TestApp, name: &str) -> Site {
    let partner = fixtures::partner(app, name).await;
    sqlx::query("UPDATE partners SET subdomain = $2, subdomain_status = 'active', title = 'Acme KYC', documentation_link = 'https://docs.acme.test' WHERE id = $1")
        .bind(partner.id)
        .bind(name)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (user_id, email) = user_with_password(app, partner.id, 1).await;
    Site {
        partner,
        user_id,
        email,
    }
}

pub async fn user_with_password(app: &TestApp, partner_id: i64, n: u32) -> (i64, String) {
    let user_id = fixtures::user(app, partner_id, n).await;
    let hash = domain::infra::crypto::hash_password(PASSWORD).unwrap();
    sqlx::query("UPDATE end_users SET password_hash = $2 WHERE id = $1")
        .bind(user_id)
        .bind(hash)
        .execute(&app.db.pool)
        .await
        .unwrap();
    (user_id, format!("user{n}.{partner_id}@example.in"))
}

pub async fn login(app: &TestApp, sub: &str, email: &str, password: &str) -> (u16, Value) {
    app.post(
        &format!("/api/v1/me/login?subdomain={sub}"),
        &json!({"email": email, "password": password, "captcha": {}}),
        None,
    )
    .await
}

pub async fn token(app: &TestApp, sub: &str, email: &str) -> String {
    let (status, body) = login(app, sub, email, PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

pub fn assert_error(body: &Value) {
    assert!(
        body["error"]["code"].is_string() && body["error"]["message"].is_string(),
        "not the contract's error shape: {body}"
    );
}

/// An API on the sandbox list.
async fn sandbox_api(app: &TestApp, service: &str, price: i64) -> i64 {
    let id = fixtures::api(app, service, price).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    id
}

#[tokio::test]
async fn portal_public_site_by_query_and_host_with_the_users_price() {
    let app = TestApp::spawn().await;
    let s = site(&app, "acme").await;
    let shown = fixtures::api(&app, "pan_check", 1_000).await;
    let hidden = fixtures::api(&app, "aadhaar_check", 500).await;
    sqlx::query("INSERT INTO api_visibility (partner_id, scope, api_id, visible) VALUES ($1, 'partner', $2, false)")
        .bind(s.partner.id)
        .bind(hidden)
        .execute(&app.db.pool)
        .await
        .unwrap();
    // A 10% margin: the user without its own price pays 1,100 paise.
    sqlx::query(
        "UPDATE partners SET default_margin_bps = 1000, landing_page = false WHERE id = $1",
    )
    .bind(s.partner.id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    sqlx::query("INSERT INTO partner_contact_details (partner_id, phone_number, email, address) VALUES ($1, '9876543210', 'help@acme.test', 'MG Road')")
        .bind(s.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO partner_signup_settings (partner_id, create_account, forgot_password, terms, terms_text, copyright) VALUES ($1, false, true, true, '<p>Terms</p>', '© Acme')")
        .bind(s.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();

    let (status, body) = app.get("/api/v1/public/portal?subdomain=acme", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["title"], "Acme KYC");
    assert_eq!(body["landing_page"], false);
    assert_eq!(body["documentation_link"], "https://docs.acme.test");
    assert_eq!(body["theme"]["primary"], "#6091E2");
    assert_eq!(
        body["contact"],
        json!({"phone_number": "9876543210", "email": "help@acme.test", "address": "MG Road"})
    );
    assert_eq!(
        body["signup"],
        json!({"create_account": false, "forgot_password": true, "terms": true, "terms_html": "<p>Terms</p>", "copyright": "© Acme"})
    );
    let apis = body["apis"].as_array().unwrap();
    assert_eq!(apis.len(), 1, "the hidden API is not on offer: {body}");
    assert_eq!(
        apis[0],
        json!({"service": "pan_check", "name": "API pan_check", "category": "Identity", "price_paise": 1_100})
    );
    let _ = shown;

    // The Host header names the site as well.
    let res = app
        .client
        .get(app.url("/api/v1/public/portal"))
        .header("host", "acme.localhost")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["title"], "Acme KYC");

    // Defaults when the partner never saved its Signup Customization.
    let other = site(&app, "beta").await;
    let (_, body) = app.get("/api/v1/public/portal?subdomain=beta", None).await;
    assert_eq!(body["signup"]["create_account"], true);
    assert_eq!(body["contact"]["email"], Value::Null);
    let _ = other;

    for path in [
        "/api/v1/public/portal?subdomain=nope",
        "/api/v1/public/portal",
        "/api/v1/public/portal?subdomain=a%20b",
    ] {
        let (status, body) = app.get(path, None).await;
        assert_eq!(status, 404, "{path}");
        assert_error(&body);
    }
    // An inactive partner's site is gone.
    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(s.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        app.get("/api/v1/public/portal?subdomain=acme", None)
            .await
            .0,
        404
    );
}

#[tokio::test]
async fn portal_sign_in_is_per_partner_and_logout_ends_the_session() {
    // More sign-ins than one address may make in a minute by default.
    let app = TestApp::spawn_with(|c| c.rate_limits.sign_in = 1000).await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;

    let (status, body) = login(&app, "acme", &a.email, PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["user"],
        json!({"id": a.user_id, "first_name": "Asha", "last_name": "Rao"})
    );
    let first = body["token"].as_str().unwrap().to_owned();

    // Through the Host header too, and the e-mail's case does not matter.
    let res = app
        .client
        .post(app.url("/api/v1/me/login"))
        .header("host", "acme.localhost")
        .json(&json!({"email": a.email.to_uppercase(), "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);

    // A user of another partner, a wrong password, an unknown site: 401, never a session.
    for (sub, email, password) in [
        ("acme", b.email.as_str(), PASSWORD),
        ("beta", a.email.as_str(), PASSWORD),
        ("acme", a.email.as_str(), "Wrong@123"),
        ("nope", a.email.as_str(), PASSWORD),
    ] {
        let (status, body) = login(&app, sub, email, password).await;
        assert_eq!(status, 401, "{sub} {email}: {body}");
        assert_error(&body);
        assert!(body.get("token").is_none());
    }
    let res = app
        .client
        .post(app.url("/api/v1/me/login"))
        .json(&json!({"email": a.email, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 401, "no site named: no sign-in");

    // Bad input: 422 in the error shape, or 400 for a body that is not JSON.
    let (status, body) = app
        .post(
            "/api/v1/me/login?subdomain=acme",
            &json!({"email": "", "password": ""}),
            None,
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["error"]["fields"]["email"].is_string()
            && body["error"]["fields"]["password"].is_string(),
        "{body}"
    );
    let res = app
        .client
        .post(app.url("/api/v1/me/login?subdomain=acme"))
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400);
    let (status, _) = app
        .post(
            "/api/v1/me/login?subdomain=acme",
            &json!({"email": 5}),
            None,
        )
        .await;
    assert_eq!(status, 422);

    // The session works, then logout ends it.
    assert_eq!(app.get("/api/v1/me", Some(&first)).await.0, 200);
    let res = app
        .client
        .post(app.url("/api/v1/me/logout"))
        .bearer_auth(&first)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 204);
    assert_eq!(app.get("/api/v1/me", Some(&first)).await.0, 401);

    // Deactivating the user ends its sessions and its sign-in; so does deactivating the partner.
    let t2 = token(&app, "acme", &a.email).await;
    sqlx::query("UPDATE end_users SET is_active = false WHERE id = $1")
        .bind(a.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(app.get("/api/v1/me", Some(&t2)).await.0, 401);
    assert_eq!(login(&app, "acme", &a.email, PASSWORD).await.0, 401);
    let t3 = token(&app, "beta", &b.email).await;
    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(b.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (status, body) = app.get("/api/v1/me", Some(&t3)).await;
    assert_eq!(
        status, 401,
        "an inactive partner's user gets no data: {body}"
    );
    assert_eq!(login(&app, "beta", &b.email, PASSWORD).await.0, 401);
}

#[tokio::test]
async fn portal_sign_in_is_limited_per_account() {
    let app = TestApp::spawn_with(|c| c.rate_limits.sign_in = 1000).await;
    let a = site(&app, "acme").await;
    for _ in 0..domain::auth::sign_in_attempts::MAX_ATTEMPTS {
        assert_eq!(login(&app, "acme", &a.email, "Wrong@123").await.0, 401);
    }
    let res = app
        .client
        .post(app.url("/api/v1/me/login?subdomain=acme"))
        .json(&json!({"email": a.email, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().contains_key("retry-after"));
}

#[tokio::test]
async fn portal_tokens_stay_on_their_side() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let user = token(&app, "acme", &a.email).await;
    // A partner's token on /me paths: 403; none at all: 401.
    for path in [
        "/api/v1/me",
        "/api/v1/me/apis",
        "/api/v1/me/api-keys",
        "/api/v1/me/api-transactions",
        "/api/v1/me/api-logs",
    ] {
        let (status, body) = app.get(path, Some(&a.partner.token)).await;
        assert_eq!(status, 403, "{path}");
        assert_error(&body);
        assert_eq!(app.get(path, None).await.0, 401, "{path}");
        assert_eq!(
            app.get(path, Some(&app.superadmin_token())).await.0,
            403,
            "{path}"
        );
    }
    let res = app
        .client
        .post(app.url("/api/v1/me/logout"))
        .bearer_auth(&a.partner.token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
    // A user's token on partner and super-admin paths: 403.
    for path in [
        "/api/v1/partner/users",
        "/api/v1/partner/api-transactions",
        "/api/v1/superadmin/clients",
        "/api/v1/catalogue",
    ] {
        let (status, _) = app.get(path, Some(&user)).await;
        assert!(status == 403 || status == 401, "{path}: {status}");
    }
    let res = app
        .client
        .post(app.url("/api/v1/partner/logout"))
        .bearer_auth(&user)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
}

#[tokio::test]
async fn portal_me_shows_the_user_both_wallets_and_the_low_balance_notice() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    gs::credit(
        &app,
        Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        5_000,
    )
    .await;
    let (status, body) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], a.user_id);
    assert_eq!(body["email"], a.email);
    assert_eq!(body["full_access"], false);
    assert_eq!(body["partner"]["title"], "Acme KYC");
    assert_eq!(
        body["partner"]["documentation_link"],
        "https://docs.acme.test"
    );
    assert_eq!(body["wallets"]["api"]["balance_paise"], 5_000);
    assert_eq!(body["wallets"]["product"]["balance_paise"], 0);
    assert_eq!(body["low_balance"], false);

    // The partner's threshold on its API wallet applies to its users' wallets without one.
    let mut conn = app.db.pool.acquire().await.unwrap();
    domain::wallets::set_alert_threshold(
        &mut conn,
        Owner::Partner(a.partner.id),
        domain::wallets::WalletKind::Api,
        Some(10_000),
        domain::infra::audit::Actor::system(),
    )
    .await
    .unwrap();
    let (_, body) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(
        body["wallets"]["api"]["low_balance_threshold_paise"],
        10_000
    );
    assert_eq!(body["low_balance"], true);
    // The user's own threshold wins.
    domain::wallets::set_alert_threshold(
        &mut conn,
        Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        domain::wallets::WalletKind::Api,
        Some(1_000),
        domain::infra::audit::Actor::system(),
    )
    .await
    .unwrap();
    let (_, body) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(body["low_balance"], false);
}

#[tokio::test]
async fn portal_apis_are_the_gateways_own_list() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    sandbox_api(&app, "pan_check", 300).await;
    fixtures::api(&app, "gst_check", 200).await;
    let hidden = fixtures::api(&app, "aadhaar_check", 500).await;
    sqlx::query("INSERT INTO api_visibility (partner_id, scope, user_id, api_id, visible) VALUES ($1, 'partner', $2, $3, false)")
        .bind(a.partner.id)
        .bind(a.user_id)
        .bind(hidden)
        .execute(&app.db.pool)
        .await
        .unwrap();

    // Partial access: the sandbox list, as a sandbox key sees it.
    let (status, mine) = app.get("/api/v1/me/apis", Some(&t)).await;
    assert_eq!(status, 200, "{mine}");
    let key = gs::key(&app, a.partner.id, a.user_id, "sandbox").await;
    let res = app
        .client
        .get(app.url("/api/v1/verify"))
        .header("x-api-key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(mine, res.json::<Value>().await.unwrap());
    assert_eq!(mine.as_array().unwrap().len(), 1);
    assert_eq!(mine[0]["required_fields"], json!(["id_number"]));
    assert_eq!(mine[0]["sandbox"], true);

    // Full access: every visible API, as a live key sees it.
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(a.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (_, mine) = app.get("/api/v1/me/apis", Some(&t)).await;
    let live = gs::key(&app, a.partner.id, a.user_id, "live").await;
    let res = app
        .client
        .get(app.url("/api/v1/verify"))
        .header("x-api-key", &live)
        .send()
        .await
        .unwrap();
    assert_eq!(mine, res.json::<Value>().await.unwrap());
    let services: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["service"].as_str().unwrap())
        .collect();
    assert!(
        services.contains(&"gst_check")
            && services.contains(&"pan_check")
            && !services.contains(&"aadhaar_check"),
        "{services:?}"
    );
}

#[tokio::test]
async fn portal_keys_create_list_revoke_and_roll_with_a_grace_period() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    sandbox_api(&app, "pan_check", 300).await;

    let (status, created) = app
        .post("/api/v1/me/api-keys", &json!({"mode": "sandbox"}), Some(&t))
        .await;
    assert_eq!(status, 201, "{created}");
    let key = created["key"].as_str().unwrap().to_owned();
    assert!(key.starts_with("kyc_test_"));
    assert_eq!(created["mode"], "sandbox");
    let id = created["id"].as_i64().unwrap();
    let verify_status = |key: String| {
        let app = &app;
        async move {
            app.client
                .get(app.url("/api/v1/verify"))
                .header("x-api-key", key)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(verify_status(key.clone()).await, 200);

    for bad in [
        json!({"mode": "prod"}),
        json!({}),
        json!({"mode": "live", "user_id": 1}),
    ] {
        let (status, body) = app.post("/api/v1/me/api-keys", &bad, Some(&t)).await;
        assert_eq!(status, 422, "{bad}: {body}");
        assert_error(&body);
    }

    // Roll with a grace period: both keys work; the old one carries its expiry.
    let (status, rolled) = app
        .post(
            &format!("/api/v1/me/api-keys/{id}/roll"),
            &json!({"grace_minutes": 60}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 201, "{rolled}");
    assert_eq!(rolled["mode"], "sandbox");
    let new_key = rolled["key"].as_str().unwrap().to_owned();
    assert_ne!(new_key, key);
    assert_eq!(verify_status(key.clone()).await, 200);
    assert_eq!(verify_status(new_key.clone()).await, 200);
    let (_, list) = app.get("/api/v1/me/api-keys", Some(&t)).await;
    let old = list
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == id)
        .unwrap()
        .clone();
    assert!(old["expires_at"].is_string(), "{list}");
    assert!(
        list.to_string().find("kyc_test_").is_some() && !list.to_string().contains(&key),
        "lists show prefixes, never keys"
    );

    // When the grace period is over the gateway refuses the old key (moved into the past here).
    sqlx::query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1")
        .bind(id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(verify_status(key.clone()).await, 401);
    assert_eq!(verify_status(new_key.clone()).await, 200);
    // An expired key cannot be rolled again.
    let (status, _) = app
        .post(
            &format!("/api/v1/me/api-keys/{id}/roll"),
            &json!({"grace_minutes": 0}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 404);

    // Roll with no grace: the old key stops at once.
    let new_id = rolled["id"].as_i64().unwrap();
    let (status, third) = app
        .post(
            &format!("/api/v1/me/api-keys/{new_id}/roll"),
            &json!({"grace_minutes": 0}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(verify_status(new_key).await, 401);
    assert_eq!(
        verify_status(third["key"].as_str().unwrap().to_owned()).await,
        200
    );

    for bad in [
        json!({"grace_minutes": -1}),
        json!({"grace_minutes": 10_081}),
        json!({}),
        json!({"grace_minutes": "x"}),
    ] {
        let (status, body) = app
            .post(
                &format!("/api/v1/me/api-keys/{}/roll", third["id"]),
                &bad,
                Some(&t),
            )
            .await;
        assert_eq!(status, 422, "{bad}: {body}");
        assert_error(&body);
    }
    let (status, _) = app
        .post(
            &format!("/api/v1/me/api-keys/{}/roll", third["id"]),
            &json!({"grace_minutes": 10_080}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 201, "a week is allowed");

    // Revoke: 204, again 204, and the gateway refuses it.
    let third_id = third["id"].as_i64().unwrap();
    assert_eq!(
        delete(&app, &format!("/api/v1/me/api-keys/{third_id}"), Some(&t)).await,
        204
    );
    assert_eq!(
        delete(&app, &format!("/api/v1/me/api-keys/{third_id}"), Some(&t)).await,
        204
    );
    assert_eq!(
        verify_status(third["key"].as_str().unwrap().to_owned()).await,
        401
    );

    // Another user's key (same partner, or another partner's): 404 for revoke and roll.
    let (other_user, other_email) = user_with_password(&app, a.partner.id, 2).await;
    let t_other = token(&app, "acme", &other_email).await;
    let (_, theirs) = app
        .post(
            "/api/v1/me/api-keys",
            &json!({"mode": "live"}),
            Some(&t_other),
        )
        .await;
    let their_id = theirs["id"].as_i64().unwrap();
    assert_eq!(
        delete(&app, &format!("/api/v1/me/api-keys/{their_id}"), Some(&t)).await,
        404
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/me/api-keys/{their_id}/roll"),
            &json!({"grace_minutes": 0}),
            Some(&t)
        )
        .await
        .0,
        404
    );
    let (_, mine) = app.get("/api/v1/me/api-keys", Some(&t)).await;
    assert!(mine.as_array().unwrap().iter().all(|k| k["id"] != their_id));
    assert_eq!(
        verify_status(theirs["key"].as_str().unwrap().to_owned()).await,
        200
    );
    let _ = other_user;
    assert_eq!(delete(&app, "/api/v1/me/api-keys/abc", Some(&t)).await, 404);
}

#[tokio::test]
async fn portal_try_runs_the_gateway_pipeline_in_sandbox() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    sandbox_api(&app, "pan_check", 300).await;
    fixtures::api(&app, "gst_check", 300).await;
    gs::credit(
        &app,
        Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        2_000,
    )
    .await;
    // Charged, to see the money of a try: this partner charges its sandbox calls.
    gs::charge_sandbox(&app, a.partner.id).await;
    gs::credit(&app, Owner::Partner(a.partner.id), 2_000).await;

    let (status, body) = app
        .post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "ABCDE1234F"}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status_code"], 200);
    assert_eq!(
        crate::gateway_support::sample_of(body["body"].clone()),
        json!({"status": "ok"}),
        "the catalogue's sample"
    );
    assert_eq!(
        body["charged_paise"], 300,
        "a sandbox call is metered like a live one"
    );
    assert_eq!(body["balance_paise"], 1_700);
    let txn = body["transaction_id"].as_i64().unwrap();
    let (mode, status_text, user_id): (String, String, i64) =
        sqlx::query_as("SELECT mode, status, user_id FROM api_transactions WHERE id = $1")
            .bind(txn)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!((mode.as_str(), user_id), ("sandbox", a.user_id));
    assert_eq!(status_text, "success");

    // It is in the user's own lists.
    let (status, list) = app.get("/api/v1/me/api-transactions", Some(&t)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["total"], 1);
    assert_eq!(list["items"][0]["id"], txn);
    let (status, logs) = app
        .get("/api/v1/me/api-logs?page=1&per_page=10", Some(&t))
        .await;
    assert_eq!(status, 200, "{logs}");
    assert_eq!(logs["total"], 1);

    // Every gateway check answers as the gateway does, and moves nothing.
    let cases = [
        ("pan_check", json!({}), 422),
        ("gst_check", json!({"id_number": "x"}), 403),
        ("nope", json!({"id_number": "x"}), 404),
    ];
    for (service, input, want) in cases {
        let (status, body) = app
            .post(&format!("/api/v1/me/try/{service}"), &input, Some(&t))
            .await;
        assert_eq!(status, want, "{service}: {body}");
        assert_error(&body);
    }
    let res = app
        .client
        .post(app.url("/api/v1/me/try/pan_check"))
        .bearer_auth(&t)
        .body("[1]")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400);
    let res = app
        .client
        .post(app.url("/api/v1/me/try/pan_check"))
        .bearer_auth(&t)
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400);
    sqlx::query("UPDATE partners SET restrict_all_apis = true WHERE id = $1")
        .bind(a.partner.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        app.post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "x"}),
            Some(&t)
        )
        .await
        .0,
        403
    );
    sqlx::query(
        "UPDATE partners SET restrict_all_apis = false, server_security = true WHERE id = $1",
    )
    .bind(a.partner.id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let (status, body) = app
        .post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "x"}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 403, "not allow-listed: {body}");
    let count: i64 = fixtures::count(&app, "SELECT count(*) FROM api_transactions").await;
    assert_eq!(count, 1, "no refused call wrote a transaction");
    gs::audit(&app).await;

    // Lists: bad dates are 400 in the error shape, another user sees none of these rows.
    let (status, body) = app
        .get("/api/v1/me/api-transactions?from=yesterday", Some(&t))
        .await;
    assert_eq!(status, 400);
    assert_error(&body);
    let (_, email2) = user_with_password(&app, a.partner.id, 2).await;
    let t2 = token(&app, "acme", &email2).await;
    assert_eq!(
        app.get("/api/v1/me/api-transactions", Some(&t2)).await.1["total"],
        0
    );
    assert_eq!(
        app.get("/api/v1/me/api-logs", Some(&t2)).await.1["total"],
        0
    );
}

#[tokio::test]
async fn portal_exports_are_the_users_own() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let t = token(&app, "acme", &a.email).await;
    sandbox_api(&app, "pan_check", 300).await;
    gs::credit(&app, Owner::Partner(a.partner.id), 1_000).await;
    gs::credit(
        &app,
        Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        1_000,
    )
    .await;
    assert_eq!(
        app.post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "x"}),
            Some(&t)
        )
        .await
        .0,
        200
    );
    // Another user's call of the same partner is not in this user's file.
    let (u2, email2) = user_with_password(&app, a.partner.id, 2).await;
    gs::credit(
        &app,
        Owner::User {
            partner_id: a.partner.id,
            user_id: u2,
        },
        1_000,
    )
    .await;
    let t2 = token(&app, "acme", &email2).await;
    assert_eq!(
        app.post(
            "/api/v1/me/try/pan_check",
            &json!({"id_number": "y"}),
            Some(&t2)
        )
        .await
        .0,
        200
    );

    let today = domain::exports::today_ist(chrono::Utc::now()).to_string();
    for kind in ["api_transactions", "api_logs"] {
        let (status, queued) = app
            .post(
                "/api/v1/exports",
                &json!({"kind": kind, "from": today, "to": today}),
                Some(&t),
            )
            .await;
        assert_eq!(status, 202, "{queued}");
        app.run_pending_jobs().await;
        let id = queued["export_id"].as_i64().unwrap();
        let (status, e) = app.get(&format!("/api/v1/exports/{id}"), Some(&t)).await;
        assert_eq!(status, 200, "{e}");
        assert_eq!(e["status"], "completed", "{e}");
        assert_eq!(e["total_records"], 1, "{kind}: only this user's row");
        assert_eq!(e["user_id"], a.user_id);
        // Nobody else reads it: the other user, the partner (it did not ask for it).
        assert_eq!(
            app.get(&format!("/api/v1/exports/{id}"), Some(&t2)).await.0,
            404
        );
        assert_eq!(
            app.get(&format!("/api/v1/exports/{id}"), Some(&a.partner.token))
                .await
                .0,
            404
        );
    }
    let (_, list) = app.get("/api/v1/exports", Some(&t)).await;
    assert_eq!(list["total"], 2);
    assert_eq!(app.get("/api/v1/exports", Some(&t2)).await.1["total"], 0);

    // Naming someone else, or the wallet entries: refused.
    let (status, _) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "api_logs", "from": today, "to": today, "user_id": u2}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 404);
    let (status, body) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "wallet_entries", "from": today, "to": today}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "api_logs", "from": "x", "to": today}),
            Some(&t),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_error(&body);
}
