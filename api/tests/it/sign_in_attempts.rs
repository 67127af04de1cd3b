//! The per-account limit of sign-in attempts: many addresses cannot try many passwords on one
//! account (10 per 15 minutes), a success starts the count again, other accounts are untouched.

use serde_json::{Value, json};

use crate::{
    auth_fixtures::{PASSWORD, fresh_ip, post_as, signed_up},
    common::TestApp,
};

async fn sign_in(
    app: &TestApp,
    path: &str,
    email: &str,
    password: &str,
) -> (u16, Value, Option<String>) {
    // A fresh client address each time: the per-address limit never applies here.
    let res = app
        .client
        .post(app.url(path))
        .header("x-forwarded-for", fresh_ip())
        .json(&json!({"email": email, "password": password, "captcha": null}))
        .send()
        .await
        .unwrap();
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
        retry,
    )
}

#[tokio::test]
async fn many_addresses_cannot_guess_one_partners_password() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "target").await;
    let other = signed_up(&app, "bystander").await;
    for i in 0..10 {
        let (s, b, _) = sign_in(
            &app,
            "/api/v1/partner/login",
            &p.email,
            &format!("Guess-{i}x"),
        )
        .await;
        assert_eq!(s, 401, "guess {i}: {b}");
    }
    // The 11th is refused before its password is checked, even the right one, with a wait of
    // up to 15 minutes.
    let (s, b, retry) = sign_in(&app, "/api/v1/partner/login", &p.email, "Guess-10x").await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{b}"
    );
    let wait: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((800..=900).contains(&wait), "{wait}");
    // Case and spaces do not make another account.
    let (s, _, _) = sign_in(
        &app,
        "/api/v1/partner/login",
        &format!("  {}", p.email.to_uppercase()),
        PASSWORD,
    )
    .await;
    assert_eq!(s, 429);
    // Another account is untouched.
    let (s, b, _) = sign_in(&app, "/api/v1/partner/login", &other.email, PASSWORD).await;
    assert_eq!(s, 200, "{b}");
    // When the window has passed, the account signs in again.
    sqlx::query("UPDATE sign_in_attempts SET window_start = now() - interval '16 minutes'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, b, _) = sign_in(&app, "/api/v1/partner/login", &p.email, PASSWORD).await;
    assert_eq!(s, 200, "{b}");
}

#[tokio::test]
async fn a_success_starts_the_count_again() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "typo").await;
    for _ in 0..9 {
        assert_eq!(
            sign_in(&app, "/api/v1/partner/login", &p.email, "Wrong-pass1")
                .await
                .0,
            401
        );
    }
    assert_eq!(
        sign_in(&app, "/api/v1/partner/login", &p.email, PASSWORD)
            .await
            .0,
        200
    );
    for _ in 0..10 {
        assert_eq!(
            sign_in(&app, "/api/v1/partner/login", &p.email, "Wrong-pass1")
                .await
                .0,
            401
        );
    }
    assert_eq!(
        sign_in(&app, "/api/v1/partner/login", &p.email, PASSWORD)
            .await
            .0,
        429
    );
}

#[tokio::test]
async fn unknown_accounts_and_the_super_admin_are_limited_alike() {
    let app = TestApp::spawn().await;
    domain::auth::superadmins::upsert(&app.db.pool, "root@kyc.test", "Admin-pass1")
        .await
        .unwrap();
    for path in ["/api/v1/partner/login", "/api/v1/superadmin/login"] {
        for email in ["root@kyc.test", "nobody@kyc.test"] {
            for _ in 0..10 {
                assert_eq!(
                    sign_in(&app, path, email, "Wrong-pass1").await.0,
                    401,
                    "{path} {email}"
                );
            }
            assert_eq!(
                sign_in(&app, path, email, "Wrong-pass1").await.0,
                429,
                "{path} {email}"
            );
        }
    }
    // The partner and super-admin counts are apart: the partner guesses did not lock the admin.
    let (s, _, _) = sign_in(
        &app,
        "/api/v1/superadmin/login",
        "root@kyc.test",
        "Admin-pass1",
    )
    .await;
    assert_eq!(s, 429);
    let (s, _) = post_as(
        &app,
        &fresh_ip(),
        "/api/v1/partner/login",
        &json!({"email": "", "password": "", "captcha": null}),
        None,
    )
    .await;
    assert_eq!(s, 422, "a malformed attempt is refused before it counts");
}
