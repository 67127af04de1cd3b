//! Partner identity through HTTP: sign-up, verification mail, sign-in, captcha, rate limits,
//! forgot/reset/change password, super-admin sign-in.

use std::time::Duration;

use domain::infra::config::CaptchaConfig;
use serde_json::{Value, json};

use crate::{
    auth_fixtures::{
        PASSWORD, fresh_ip, login, mailed_token, post_as, queued_mails, signed_up, signup_body,
        token_after,
    },
    common::TestApp,
};

#[tokio::test]
async fn signup_mails_a_link_that_verifies_once_then_login_works() {
    let app = TestApp::spawn().await;
    let (s, b) = app
        .post("/api/v1/partner/signup", &signup_body("asha_rao"), None)
        .await;
    assert_eq!(s, 201, "{b}");
    let id = b["partner_id"].as_i64().unwrap();

    // Stored hashed with argon2id, e-mail lower-cased, both wallets created with the partner.
    let (hash, email): (String, String) =
        sqlx::query_as("SELECT password_hash, email::text FROM partners WHERE id = $1")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert_eq!(email, "asha_rao@partner.test");
    let wallets: Vec<String> = sqlx::query_scalar(
        "SELECT kind FROM wallets WHERE partner_id = $1 AND user_id IS NULL ORDER BY kind",
    )
    .bind(id)
    .fetch_all(&app.db.pool)
    .await
    .unwrap();
    assert_eq!(wallets, ["api", "product"]);

    // Not verified yet: 403 with a clear message, and no second mail so soon after the first.
    let creds = json!({"email": "ASHA_RAO@partner.test", "password": PASSWORD, "captcha": null});
    let (s, b) = app.post("/api/v1/partner/login", &creds, None).await;
    assert_eq!(s, 403, "{b}");
    assert_eq!(b["error"]["message"], api::routes::auth::UNVERIFIED);
    assert_eq!(queued_mails(&app).await.len(), 1);

    // A worker delivers the verification mail to the outbox.
    app.run_pending_jobs().await;
    let mail = testkit::eventually(Duration::from_secs(20), || async {
        testkit::outbox(&app.config).into_iter().next()
    })
    .await
    .expect("verification mail in the outbox");
    assert!(mail.contains("To: asha_rao@partner.test"), "{mail}");
    assert!(
        mail.contains("Subject: Verify your email address"),
        "{mail}"
    );
    let token = token_after(
        &mail.replace("=\r\n", ""),
        "http://localhost:8080/verify-email/",
    );
    assert!(token.len() >= 40, "{token}");

    let (s, b) = app
        .post(
            "/api/v1/partner/verify-email",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["message"],
        "Your email is verified successfully, You can login to your dashboard."
    );
    assert_eq!(b["partner"]["onboarding_step"], 2);
    assert!(b["token"].is_string());
    let (s, b) = app
        .post(
            "/api/v1/partner/verify-email",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(s, 400, "a link works once: {b}");

    let (s, b) = app.post("/api/v1/partner/login", &creds, None).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["partner"],
        json!({"id": id, "user_name": "asha_rao", "subdomain": null, "onboarding_step": 2})
    );
    let (s, me) = app.get("/api/v1/partner/me", b["token"].as_str()).await;
    assert_eq!(s, 200);
    assert_eq!(me["email"], "asha_rao@partner.test");
}

#[tokio::test]
async fn verification_links_expire_and_garbage_is_400() {
    let app = TestApp::spawn().await;
    let (s, _) = app
        .post("/api/v1/partner/signup", &signup_body("late_one"), None)
        .await;
    assert_eq!(s, 201);
    let token = mailed_token(&app, "late_one@partner.test", "/verify-email/").await;
    sqlx::query("UPDATE one_time_tokens SET expires_at = now() - interval '1 second'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    for t in [
        json!(token),
        json!(""),
        json!("x".repeat(5000)),
        json!("../../etc"),
        json!(42),
    ] {
        let (s, b) = app
            .post("/api/v1/partner/verify-email", &json!({"token": t}), None)
            .await;
        assert!(s == 400 || s == 422, "{t}: {s} {b}");
    }
    let (s, b) = app
        .post(
            "/api/v1/partner/verify-email",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (400, Some(api::routes::auth::VERIFY_FAILED))
    );
}

#[tokio::test]
async fn taken_email_or_user_name_is_409_naming_the_field() {
    let app = TestApp::spawn().await;
    let (s, _) = app
        .post("/api/v1/partner/signup", &signup_body("first"), None)
        .await;
    assert_eq!(s, 201);
    let mut same_email = signup_body("second");
    same_email["email"] = json!("FIRST@partner.test");
    let (s, b) = app.post("/api/v1/partner/signup", &same_email, None).await;
    assert_eq!(s, 409, "{b}");
    assert_eq!(
        b["error"]["fields"]["email"],
        "This email is already registered"
    );
    let mut same_name = signup_body("first");
    same_name["email"] = json!("other@partner.test");
    let (s, b) = app.post("/api/v1/partner/signup", &same_name, None).await;
    assert_eq!(s, 409, "{b}");
    assert_eq!(
        b["error"]["fields"]["user_name"],
        "This user name is already taken"
    );
    assert_eq!(
        queued_mails(&app).await.len(),
        1,
        "no mail for a refused sign-up"
    );
}

#[tokio::test]
async fn signup_rules_and_bad_bodies_never_500() {
    let app = TestApp::spawn().await;
    let (s, b) = app.post("/api/v1/partner/signup", &json!({}), None).await;
    assert_eq!(s, 422, "{b}");
    for f in [
        "first_name",
        "last_name",
        "email",
        "phone_number",
        "user_name",
        "password",
    ] {
        assert!(b["error"]["fields"][f].is_string(), "{f}: {b}");
    }
    let mut weak = signup_body("weakling");
    weak["password"] = json!("password");
    let (s, b) = app.post("/api/v1/partner/signup", &weak, None).await;
    assert_eq!(s, 422);
    assert_eq!(
        b["error"]["fields"]["password"],
        domain::partners::PASSWORD_RULE
    );

    let bad_bodies = [
        json!(null),
        json!([]),
        json!("text"),
        json!({"email": 5, "password": []}),
        json!({"first_name": "x".repeat(100_000)}),
        json!({"user_name": "ü\u{0}", "email": "a@b.c", "phone_number": "+++"}),
        json!({"first_name": "A\u{0}", "last_name": "\u{0}", "email": "a\u{0}@b.co", "phone_number": "98765\u{0}43210",
               "user_name": "nul\u{0}", "password": "Secret\u{0}123", "token": "\u{0}", "new_password": "Secret\u{0}12",
               "confirm_new_password": "Secret\u{0}12", "captcha": {"id": "\u{0}", "answer": "\u{0}"}}),
    ];
    for path in [
        "/api/v1/partner/signup",
        "/api/v1/partner/login",
        "/api/v1/superadmin/login",
        "/api/v1/partner/forgot-password",
        "/api/v1/partner/reset-password",
        "/api/v1/partner/reset-password/verify",
        "/api/v1/partner/verify-email",
    ] {
        for body in &bad_bodies {
            let (s, b) = post_as(&app, &fresh_ip(), path, body, None).await;
            // Forgot password answers 202 to any well-formed pair (no enumeration).
            let accepted = path.ends_with("forgot-password") && s == 202;
            assert!(
                accepted || (400..500).contains(&s),
                "{path} {body}: {s} {b}"
            );
            assert!(accepted || b["error"]["code"].is_string(), "{path}: {b}");
        }
        let res = app
            .client
            .post(app.url(path))
            .header("content-type", "application/json")
            .body("{nope")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400, "{path}");
    }
}

#[tokio::test]
async fn wrong_credentials_are_one_401_and_inactive_is_403() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "login_rules").await;
    let try_login = |email: &str, password: &str| {
        let body = json!({"email": email, "password": password, "captcha": null});
        let app = &app;
        async move { post_as(app, &fresh_ip(), "/api/v1/partner/login", &body, None).await }
    };
    let (s1, b1) = try_login("nobody@partner.test", PASSWORD).await;
    let (s2, b2) = try_login(&p.email, "Wrong-pass1").await;
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(b1, b2, "unknown e-mail and wrong password look the same");
    assert_eq!(b1["error"]["message"], "Invalid email or password");
    let (s, b) = try_login("", "").await;
    assert_eq!(s, 422, "{b}");

    sqlx::query("UPDATE partners SET is_active = false WHERE id = $1")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, b) = try_login(&p.email, PASSWORD).await;
    assert_eq!(s, 403, "{b}");
    assert_eq!(b["error"]["message"], api::routes::auth::INACTIVE);
}

#[tokio::test]
async fn builtin_captcha_works_once_and_a_wrong_answer_uses_it_up() {
    let app = TestApp::spawn_with(|c| c.captcha = CaptchaConfig::Builtin).await;
    let p = signed_up_with_captcha(&app).await;

    // The image: an SVG data URL with no text in it.
    let (s, c) = app.get("/api/v1/auth/captcha", None).await;
    assert_eq!(s, 200, "{c}");
    assert_eq!(c["mode"], "builtin");
    let image = c["image"].as_str().unwrap();
    let svg = String::from_utf8(base64_decode(
        image.strip_prefix("data:image/svg+xml;base64,").unwrap(),
    ))
    .unwrap();
    assert!(svg.starts_with("<svg") && !svg.contains("<text"), "{svg}");

    let login = |captcha: Value| {
        let body = json!({"email": p, "password": PASSWORD, "captcha": captcha});
        let app = &app;
        async move { post_as(app, &fresh_ip(), "/api/v1/partner/login", &body, None).await }
    };
    let (s, b) = login(Value::Null).await;
    assert_eq!(
        (s, b["error"]["fields"]["captcha"].as_str()),
        (422, Some(domain::auth::captcha::REQUIRED))
    );

    // Right answer (any case): signs in once; the same captcha again is refused.
    let id = domain::auth::captcha::store(&app.db.pool, &app.config, "ACE79")
        .await
        .unwrap();
    let (s, b) = login(json!({"id": id, "answer": "ace79"})).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = login(json!({"id": id, "answer": "ace79"})).await;
    assert_eq!(
        (s, b["error"]["fields"]["captcha"].as_str()),
        (422, Some(domain::auth::captcha::WRONG))
    );

    // A wrong answer fails and uses the captcha up: the right answer afterwards fails too.
    let id = domain::auth::captcha::store(&app.db.pool, &app.config, "HKM34")
        .await
        .unwrap();
    let (s, _) = login(json!({"id": id, "answer": "HKM35"})).await;
    assert_eq!(s, 422);
    let (s, _) = login(json!({"id": id, "answer": "HKM34"})).await;
    assert_eq!(s, 422);

    // A failed sign-in (wrong password) uses its captcha up as well.
    let id = domain::auth::captcha::store(&app.db.pool, &app.config, "TUV79")
        .await
        .unwrap();
    let body =
        json!({"email": p, "password": "Wrong-pass1", "captcha": {"id": id, "answer": "TUV79"}});
    let (s, _) = post_as(&app, &fresh_ip(), "/api/v1/partner/login", &body, None).await;
    assert_eq!(s, 401);
    let (s, _) = login(json!({"id": id, "answer": "TUV79"})).await;
    assert_eq!(s, 422);

    // Expired challenges fail.
    let id = domain::auth::captcha::store(&app.db.pool, &app.config, "XY349")
        .await
        .unwrap();
    sqlx::query("UPDATE captchas SET expires_at = now() - interval '1 second'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, _) = login(json!({"id": id, "answer": "XY349"})).await;
    assert_eq!(s, 422);
    for junk in [
        json!("string"),
        json!({"id": "not-a-uuid", "answer": "x"}),
        json!({"id": 5}),
        json!([1]),
    ] {
        let (s, b) = login(junk.clone()).await;
        assert_eq!(s, 422, "{junk}: {b}");
    }
}

/// A verified partner made with CAPTCHA=builtin (sign-up needs a captcha too); its e-mail.
async fn signed_up_with_captcha(app: &TestApp) -> String {
    let mut body = signup_body("captcha_user");
    let (s, _) = app.post("/api/v1/partner/signup", &body, None).await;
    assert_eq!(s, 422, "sign-up without a captcha is refused");
    let id = domain::auth::captcha::store(&app.db.pool, &app.config, "MNP47")
        .await
        .unwrap();
    body["captcha"] = json!({"id": id, "answer": " mnp47 "});
    let (s, b) = app.post("/api/v1/partner/signup", &body, None).await;
    assert_eq!(s, 201, "{b}");
    let token = mailed_token(app, "captcha_user@partner.test", "/verify-email/").await;
    let (s, _) = app
        .post(
            "/api/v1/partner/verify-email",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(s, 200);
    "captcha_user@partner.test".into()
}

fn base64_decode(s: &str) -> Vec<u8> {
    // A tiny decoder: the test crate has no base64 dependency of its own.
    let table = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').map(table).collect();
    bytes
        .chunks(4)
        .flat_map(|ch| {
            let n = ch
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &v)| acc | (u32::from(v) << (18 - 6 * i)));
            let out = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.into_iter().take(ch.len() - 1).collect::<Vec<_>>()
        })
        .collect()
}

#[tokio::test]
async fn a_burst_of_sign_ins_from_one_ip_gets_429() {
    let app = TestApp::spawn().await;
    // Requests that fail fast (422): the limiter counts every attempt, and a debug build's
    // argon2 is slow enough for the bucket to refill during a burst of real password checks.
    let body = json!({"email": "", "password": "", "captcha": null});
    let mut statuses = vec![];
    for _ in 0..12 {
        let res = app
            .client
            .post(app.url("/api/v1/partner/login"))
            .json(&body)
            .send()
            .await
            .unwrap();
        statuses.push((
            res.status().as_u16(),
            res.headers().get("retry-after").is_some(),
            res.json::<Value>().await.unwrap(),
        ));
    }
    assert!(
        statuses[..10].iter().all(|(s, _, _)| *s == 422),
        "{statuses:?}"
    );
    let (s, retry_after, b) = &statuses[10];
    assert_eq!(*s, 429, "{b}");
    assert!(retry_after);
    assert_eq!(b["error"]["code"], "rate_limited");
    // The super-admin sign-in shares the budget; another client has its own.
    let (s, _) = app.post("/api/v1/superadmin/login", &body, None).await;
    assert_eq!(s, 429);
    let (s, _) = post_as(&app, "203.0.113.50", "/api/v1/partner/login", &body, None).await;
    assert_eq!(s, 422);
}

#[tokio::test]
async fn sign_up_forgot_password_and_contact_are_limited_too() {
    let app = TestApp::spawn().await;
    for (path, body, burst) in [
        ("/api/v1/partner/signup", json!({}), 10),
        (
            "/api/v1/partner/forgot-password",
            json!({"email": "a@b.co", "user_name": "x"}),
            5,
        ),
        ("/api/v1/public/contact", json!({}), 5),
    ] {
        let ip = fresh_ip();
        for i in 0..burst {
            let (s, b) = post_as(&app, &ip, path, &body, None).await;
            assert_ne!(s, 429, "{path} request {i}: {b}");
        }
        let (s, b) = post_as(&app, &ip, path, &body, None).await;
        assert_eq!(s, 429, "{path}: {b}");
    }
}

#[tokio::test]
async fn forgot_and_reset_password_with_one_use_links() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "forgetful").await;
    let mails_before = queued_mails(&app).await.len();

    // No enumeration: 202 whether or not the pair matches; a mail only when it does.
    for body in [
        json!({"email": "nobody@partner.test", "user_name": "forgetful"}),
        json!({"email": p.email, "user_name": "someone"}),
    ] {
        let (s, b) = post_as(
            &app,
            &fresh_ip(),
            "/api/v1/partner/forgot-password",
            &body,
            None,
        )
        .await;
        assert_eq!(s, 202, "{b}");
    }
    assert_eq!(queued_mails(&app).await.len(), mails_before);
    let (s, b) = post_as(
        &app,
        &fresh_ip(),
        "/api/v1/partner/forgot-password",
        &json!({"email": "", "user_name": ""}),
        None,
    )
    .await;
    assert_eq!(s, 422, "{b}");
    let (s, _) = post_as(
        &app,
        &fresh_ip(),
        "/api/v1/partner/forgot-password",
        &json!({"email": " FORGETFUL@Partner.test ", "user_name": "forgetful"}),
        None,
    )
    .await;
    assert_eq!(s, 202);
    let token = mailed_token(&app, &p.email, "/reset-password-admin/").await;

    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b, json!({"user_id": p.id, "user_name": "forgetful"}));

    let reset = |new: &str, confirm: &str| json!({"token": token, "new_password": new, "confirm_new_password": confirm});
    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password",
            &reset("NewSecret1", "NewSecret2"),
            None,
        )
        .await;
    assert_eq!(s, 422);
    assert_eq!(
        b["error"]["message"],
        "New Password and Confirm Password didnot match!"
    );
    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password",
            &reset("lowercase", "lowercase"),
            None,
        )
        .await;
    assert_eq!(s, 422);
    assert_eq!(b["error"]["message"], domain::partners::PASSWORD_RULE);
    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password",
            &reset("NewSecret1", "NewSecret1"),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");

    // Used: both the check and the reset say the session expired.
    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (400, Some("Session expired ! Please try again"))
    );
    let (s, b) = app
        .post(
            "/api/v1/partner/reset-password",
            &reset("Another1!", "Another1!"),
            None,
        )
        .await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (400, Some("Session expired ! Please try again"))
    );
    login(&app, &p.email, "NewSecret1").await;

    // Expired links too, and a newer link replaces an older one.
    for _ in 0..2 {
        let (s, _) = post_as(
            &app,
            &fresh_ip(),
            "/api/v1/partner/forgot-password",
            &json!({"email": p.email, "user_name": "forgetful"}),
            None,
        )
        .await;
        assert_eq!(s, 202);
    }
    let mails = queued_mails(&app).await;
    let links: Vec<String> = mails
        .iter()
        .filter(|(_, _, t)| t.contains("/reset-password-admin/"))
        .map(|(_, _, t)| token_after(t, "http://localhost:8080/reset-password-admin/"))
        .collect();
    let (older, newest) = (&links[links.len() - 2], &links[links.len() - 1]);
    let (s, _) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": older}),
            None,
        )
        .await;
    assert_eq!(s, 400, "the older link stopped working");
    sqlx::query("UPDATE one_time_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (s, _) = app
        .post(
            "/api/v1/partner/reset-password/verify",
            &json!({"token": newest}),
            None,
        )
        .await;
    assert_eq!(s, 400, "expired");
}

#[tokio::test]
async fn change_password_while_signed_in() {
    let app = TestApp::spawn().await;
    let p = signed_up(&app, "changer").await;
    let path = "/api/v1/partner/change-password";
    let (s, _) = app
        .post(
            path,
            &json!({"current_password": PASSWORD, "new_password": "Changed123"}),
            None,
        )
        .await;
    assert_eq!(s, 401);
    let (s, b) = app
        .post(
            path,
            &json!({"current_password": "Nope12345", "new_password": "Changed123"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 422);
    assert_eq!(
        b["error"]["fields"]["current_password"],
        "Current password is incorrect"
    );
    let (s, b) = app.post(path, &json!({"current_password": PASSWORD, "new_password": "Changed123", "confirm_new_password": "Changed124"}), Some(&p.token)).await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (422, Some("New Password and Confirm Password didnot match!"))
    );
    let (s, _) = app
        .post(
            path,
            &json!({"current_password": PASSWORD, "new_password": "short"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 422);
    let (s, b) = app
        .post(
            path,
            &json!({"current_password": PASSWORD, "new_password": "Changed123"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    login(&app, &p.email, "Changed123").await;
}

#[tokio::test]
async fn superadmin_login_and_me() {
    let app = TestApp::spawn().await;
    domain::auth::superadmins::upsert(&app.db.pool, "root@kyc.test", "Admin-pass1")
        .await
        .unwrap();
    let (s, b) = app
        .post(
            "/api/v1/superadmin/login",
            &json!({"email": "ROOT@kyc.test", "password": "wrong-pass", "captcha": null}),
            None,
        )
        .await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (401, Some("Invalid email or password"))
    );
    let (s, b) = app
        .post(
            "/api/v1/superadmin/login",
            &json!({"email": "ROOT@kyc.test", "password": "Admin-pass1", "captcha": null}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let token = b["token"].as_str().unwrap();
    let (s, me) = app.get("/api/v1/superadmin/me", Some(token)).await;
    assert_eq!((s, me), (200, json!({"email": "root@kyc.test"})));
    let (s, _) = app.get("/api/v1/superadmin/me", None).await;
    assert_eq!(s, 401);
    let p = signed_up(&app, "not_admin").await;
    let (s, _) = app.get("/api/v1/superadmin/me", Some(&p.token)).await;
    assert_eq!(s, 403);
    let (s, _) = app.get("/api/v1/partner/me", Some(token)).await;
    assert_eq!(s, 403);
}
