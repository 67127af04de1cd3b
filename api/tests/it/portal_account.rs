//! The portal's own account paths: self sign-up, forgot and reset password (each only as the
//! partner's Signup Customization allows), profile and password change; and their isolation
//! (another partner's site, user or link: 401/400/404, never data).

use serde_json::{Value, json};

use crate::{
    auth_fixtures::{fresh_ip, post_as, queued_mails, token_after},
    common::TestApp,
    portal::{PASSWORD, assert_error, login, site, token},
};

async fn signup_settings(
    app: &TestApp,
    partner_id: i64,
    create_account: bool,
    forgot_password: bool,
    terms: bool,
) {
    sqlx::query(
        "INSERT INTO partner_signup_settings (partner_id, create_account, forgot_password, terms, terms_text) VALUES ($1, $2, $3, $4, '<p>Be nice</p>')
         ON CONFLICT (partner_id) DO UPDATE SET create_account = $2, forgot_password = $3, terms = $4",
    )
    .bind(partner_id)
    .bind(create_account)
    .bind(forgot_password)
    .bind(terms)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

fn signup_body(email: &str) -> Value {
    json!({"first_name": "Meera", "last_name": "Iyer", "email": email, "phone_number": "9876500000", "password": "Secret@123",
           "confirm_password": "Secret@123", "accept_terms": true, "captcha": {}})
}

async fn signup(app: &TestApp, sub: &str, body: &Value) -> (u16, Value) {
    post_as(
        app,
        &fresh_ip(),
        &format!("/api/v1/me/signup?subdomain={sub}"),
        body,
        None,
    )
    .await
}

async fn patch(app: &TestApp, path: &str, body: &Value, token: &str) -> (u16, Value) {
    let res = app
        .client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn portal_signup_only_when_the_partner_allows_it_with_terms_and_per_partner_emails() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;

    // Off: 403, nothing created.
    signup_settings(&app, a.partner.id, false, true, true).await;
    let (s, body) = signup(&app, "acme", &signup_body("meera@example.in")).await;
    assert_eq!(s, 403, "{body}");
    assert_error(&body);

    signup_settings(&app, a.partner.id, true, true, true).await;
    let mut no_terms = signup_body("meera@example.in");
    no_terms["accept_terms"] = json!(false);
    let (s, body) = signup(&app, "acme", &no_terms).await;
    assert_eq!(
        (s, body["error"]["fields"]["accept_terms"].as_str()),
        (422, Some("Please accept the terms and conditions")),
        "{body}"
    );
    let (s, body) = signup(
        &app,
        "acme",
        &json!({"first_name": "M1", "email": "x", "password": "short", "captcha": {}}),
    )
    .await;
    assert_eq!(s, 422, "{body}");
    for field in ["first_name", "last_name", "email", "phone_number"] {
        assert!(
            body["error"]["fields"][field].is_string(),
            "{field}: {body}"
        );
    }
    let mut mismatch = signup_body("meera@example.in");
    mismatch["confirm_password"] = json!("Other@123");
    assert_eq!(signup(&app, "acme", &mismatch).await.0, 422);

    // Issue 22: no session before the address is verified, and one answer for every address.
    let (s, body) = signup(&app, "acme", &signup_body("Meera@Example.in")).await;
    assert_eq!(s, 202, "{body}");
    assert!(
        body.get("token").is_none(),
        "no session before verification: {body}"
    );
    let sent = body.clone();
    assert_eq!(
        login(&app, "acme", "meera@example.in", "Secret@123")
            .await
            .0,
        403,
        "an unverified user cannot sign in"
    );
    let mails = queued_mails(&app).await;
    let (_, subject, text) = mails
        .iter()
        .rev()
        .find(|(to, _, _)| to == "meera@example.in")
        .expect("a mail");
    assert_eq!(subject, "Verify your email address");
    let link = token_after(
        text,
        &format!("{}/verify-email/", app.config.partner_site_url("acme")),
    );
    let verify = |token: String, password: &'static str, sub: &'static str| {
        let app = &app;
        async move {
            post_as(
                app,
                &fresh_ip(),
                &format!("/api/v1/me/verify-email?subdomain={sub}"),
                &json!({"token": token, "password": password}),
                None,
            )
            .await
        }
    };
    // Another site does not take the link; a wrong password leaves it usable.
    assert_eq!(verify(link.clone(), "Secret@123", "beta").await.0, 400);
    let (s, body) = verify(link.clone(), "Wrong@1234", "acme").await;
    assert_eq!(
        (s, body["error"]["fields"]["password"].is_string()),
        (401, true),
        "{body}"
    );
    let (s, body) = verify(link.clone(), "Secret@123", "acme").await;
    assert_eq!(s, 200, "{body}");
    let tok = body["token"].as_str().unwrap().to_owned();
    assert_eq!(verify(link, "Secret@123", "acme").await.0, 400, "one use");
    let (s, me) = app.get("/api/v1/me", Some(&tok)).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(
        (me["email"].as_str(), me["full_access"].as_bool()),
        (Some("meera@example.in"), Some(false))
    );
    assert_eq!(me["wallets"]["api"]["balance_paise"], 0);
    let partner: i64 = sqlx::query_scalar("SELECT partner_id FROM end_users WHERE id = $1")
        .bind(me["id"].as_i64().unwrap())
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(partner, a.partner.id);
    assert_eq!(
        login(&app, "acme", "meera@example.in", "Secret@123")
            .await
            .0,
        200
    );

    // A known address: the same answer, the account untouched, and a notice to its owner.
    let mut again = signup_body("meera@example.in");
    again["password"] = json!("Taken@1234");
    again["confirm_password"] = json!("Taken@1234");
    let (s, body) = signup(&app, "acme", &again).await;
    assert_eq!(
        (s, &body),
        (202, &sent),
        "the answer does not say the address is known"
    );
    let mails = queued_mails(&app).await;
    let (_, subject, text) = mails.last().unwrap();
    assert_eq!(subject, "Someone tried to sign up with your email address");
    assert!(!text.contains("/verify-email/"), "{text}");
    assert_eq!(
        login(&app, "acme", "meera@example.in", "Taken@1234")
            .await
            .0,
        401
    );
    assert_eq!(
        login(&app, "acme", "meera@example.in", "Secret@123")
            .await
            .0,
        200
    );

    // Someone else's address signed up first: the owner's own sign-up replaces it, and the
    // squatter's password does not open the owner's link.
    let mut squat = signup_body("owner@example.in");
    squat["password"] = json!("Squat@1234");
    squat["confirm_password"] = json!("Squat@1234");
    assert_eq!(signup(&app, "acme", &squat).await.0, 202);
    assert_eq!(
        signup(&app, "acme", &signup_body("owner@example.in"))
            .await
            .0,
        202
    );
    let mails = queued_mails(&app).await;
    let (_, _, text) = mails
        .iter()
        .rev()
        .find(|(to, _, _)| to == "owner@example.in")
        .unwrap();
    let link = token_after(
        text,
        &format!("{}/verify-email/", app.config.partner_site_url("acme")),
    );
    assert_eq!(verify(link.clone(), "Squat@1234", "acme").await.0, 401);
    assert_eq!(verify(link, "Secret@123", "acme").await.0, 200);

    // Terms off: no acceptance needed. The same e-mail at another partner is another account,
    // and the account of one site does not sign in on the other.
    signup_settings(&app, b.partner.id, true, true, false).await;
    let mut body = signup_body("meera@example.in");
    body["accept_terms"] = json!(false);
    body["password"] = json!("Other@1234");
    body["confirm_password"] = json!("Other@1234");
    assert_eq!(signup(&app, "beta", &body).await.0, 202);
    assert_eq!(
        login(&app, "beta", "meera@example.in", "Secret@123")
            .await
            .0,
        401
    );
    assert_eq!(
        login(&app, "acme", "meera@example.in", "Secret@123")
            .await
            .0,
        200
    );

    // Unknown site: 404.
    assert_eq!(
        signup(&app, "nope", &signup_body("z@example.in")).await.0,
        404
    );
}

#[tokio::test]
async fn portal_forgot_and_reset_password_on_the_users_own_site() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;
    let old = token(&app, "acme", &a.email).await;

    signup_settings(&app, a.partner.id, true, false, true).await;
    let forgot = |sub: &str, email: &str| {
        let (sub, email) = (sub.to_owned(), email.to_owned());
        let app = &app;
        async move {
            post_as(
                app,
                &fresh_ip(),
                &format!("/api/v1/me/forgot-password?subdomain={sub}"),
                &json!({"email": email}),
                None,
            )
            .await
        }
    };
    assert_eq!(
        forgot("acme", &a.email).await.0,
        403,
        "forgot password is off"
    );
    signup_settings(&app, a.partner.id, true, true, true).await;
    assert_eq!(forgot("acme", "").await.0, 422);
    // No enumeration: 202 for anyone; a mail only for this partner's user.
    let before = queued_mails(&app).await.len();
    assert_eq!(forgot("acme", "nobody@example.in").await.0, 202);
    assert_eq!(
        forgot("acme", &b.email).await.0,
        202,
        "beta's user is not acme's"
    );
    assert_eq!(queued_mails(&app).await.len(), before);
    assert_eq!(forgot("acme", &a.email).await.0, 202);
    let mails = queued_mails(&app).await;
    let (_, _, text) = mails
        .iter()
        .rev()
        .find(|(to, _, _)| *to == a.email)
        .expect("a reset mail");
    let prefix = format!("{}/reset-password/", app.config.partner_site_url("acme"));
    let link = token_after(text, &prefix);
    // Sent by the platform's mailer (acme has no server of its own) under acme's name.
    let brand: String = sqlx::query_scalar(
        "SELECT COALESCE(NULLIF(title, ''), user_name) FROM partners WHERE id = $1",
    )
    .bind(a.partner.id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let raw = testkit::outbox(&app.config)
        .into_iter()
        .rev()
        .find(|raw| {
            let m = testkit::parse_mail(raw);
            m.to == a.email && m.text.contains(&prefix)
        })
        .expect("the reset mail's file");
    let from = raw
        .lines()
        .find(|l| l.starts_with("From:"))
        .expect("a From header");
    assert!(from.contains(&brand), "{from} names {brand}");

    // Another partner's site does not take the link, and does not use it up.
    let (s, body) = app
        .post(
            "/api/v1/me/reset-password/verify?subdomain=beta",
            &json!({"token": link}),
            None,
        )
        .await;
    assert_eq!(
        (s, body["error"]["message"].as_str()),
        (400, Some("Session expired ! Please try again"))
    );
    let reset =
        |new: &str| json!({"token": link, "new_password": new, "confirm_new_password": new});
    assert_eq!(
        app.post(
            "/api/v1/me/reset-password?subdomain=beta",
            &reset("NewSecret@1"),
            None
        )
        .await
        .0,
        400
    );
    let (s, body) = app
        .post(
            "/api/v1/me/reset-password/verify?subdomain=acme",
            &json!({"token": link}),
            None,
        )
        .await;
    assert_eq!((s, body["first_name"].is_string()), (200, true), "{body}");
    assert_eq!(
        app.post(
            "/api/v1/me/reset-password?subdomain=acme",
            &reset("weak"),
            None
        )
        .await
        .0,
        422
    );
    let (s, body) = app
        .post(
            "/api/v1/me/reset-password?subdomain=acme",
            &reset("NewSecret@1"),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    // Used up; every session of the user ended; the new password signs in.
    assert_eq!(
        app.post(
            "/api/v1/me/reset-password?subdomain=acme",
            &reset("Newer@Secret1"),
            None
        )
        .await
        .0,
        400
    );
    assert_eq!(app.get("/api/v1/me", Some(&old)).await.0, 401);
    assert_eq!(login(&app, "acme", &a.email, PASSWORD).await.0, 401);
    assert_eq!(login(&app, "acme", &a.email, "NewSecret@1").await.0, 200);
    // A partner's reset link is no end user's, and the other way round.
    let (s, _) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": link}),
            None,
        )
        .await;
    assert_eq!(s, 400);
}

#[tokio::test]
async fn portal_profile_and_password_change() {
    let app = TestApp::spawn().await;
    let a = site(&app, "acme").await;
    let b = site(&app, "beta").await;
    let tok = token(&app, "acme", &a.email).await;
    let other_session = token(&app, "acme", &a.email).await;
    let b_tok = token(&app, "beta", &b.email).await;

    let (s, body) = patch(&app, "/api/v1/me/profile", &json!({"first_name": "Ravi", "phone_number": "9123456780", "address_line1": " 12 MG Road ", "address_line2": "Pune"}), &tok).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        (
            body["first_name"].as_str(),
            body["address_line1"].as_str(),
            body["address_line2"].as_str()
        ),
        (Some("Ravi"), Some("12 MG Road"), Some("Pune"))
    );
    let (s, body) = patch(
        &app,
        "/api/v1/me/profile",
        &json!({"address_line2": ""}),
        &tok,
    )
    .await;
    assert_eq!(
        (s, &body["address_line2"], body["first_name"].as_str()),
        (200, &Value::Null, Some("Ravi"))
    );
    let (s, body) = patch(
        &app,
        "/api/v1/me/profile",
        &json!({"first_name": "R2D2", "phone_number": "12ab"}),
        &tok,
    )
    .await;
    assert_eq!(s, 422);
    assert!(
        body["error"]["fields"]["first_name"].is_string()
            && body["error"]["fields"]["phone_number"].is_string(),
        "{body}"
    );
    assert_eq!(
        patch(
            &app,
            "/api/v1/me/profile",
            &json!({"email": "x@y.in"}),
            &tok
        )
        .await
        .0,
        422,
        "the e-mail is not editable"
    );
    let (s, body) = app.get("/api/v1/me/profile", Some(&tok)).await;
    assert_eq!(
        (s, body["phone_number"].as_str()),
        (200, Some("9123456780"))
    );
    // Beta's user is untouched and sees its own.
    let (_, body) = app.get("/api/v1/me/profile", Some(&b_tok)).await;
    assert_eq!(body["id"], b.user_id);
    assert_ne!(body["first_name"], "Ravi");
    // A partner's token is not a user's.
    assert_eq!(
        app.get("/api/v1/me/profile", Some(&a.partner.token))
            .await
            .0,
        403
    );
    assert_eq!(app.get("/api/v1/me/profile", None).await.0, 401);

    let change = |cur: &str, new: &str| json!({"current_password": cur, "new_password": new, "confirm_new_password": new});
    let (s, body) = app
        .post(
            "/api/v1/me/password",
            &change("wrong", "NewSecret@1"),
            Some(&tok),
        )
        .await;
    assert_eq!(
        (s, body["error"]["fields"]["current_password"].as_str()),
        (422, Some("Current password is incorrect"))
    );
    assert_eq!(
        app.post("/api/v1/me/password", &change(PASSWORD, "weak"), Some(&tok))
            .await
            .0,
        422
    );
    let (s, body) = app
        .post(
            "/api/v1/me/password",
            &change(PASSWORD, "NewSecret@1"),
            Some(&tok),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    // The caller stays signed in; the user's other session ends; beta's user is untouched.
    assert_eq!(app.get("/api/v1/me", Some(&tok)).await.0, 200);
    assert_eq!(app.get("/api/v1/me", Some(&other_session)).await.0, 401);
    assert_eq!(app.get("/api/v1/me", Some(&b_tok)).await.0, 200);
    assert_eq!(login(&app, "acme", &a.email, "NewSecret@1").await.0, 200);
}
