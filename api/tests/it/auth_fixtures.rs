//! Partners made through the real sign-up and verification endpoints, and the mails the api
//! enqueued (delivered by running the queued jobs in-process, so tests need no live worker).

#![allow(dead_code)]

use serde_json::{Value, json};

use crate::common::TestApp;

pub const PASSWORD: &str = "Secret123";

pub struct Session {
    pub id: i64,
    pub email: String,
    pub user_name: String,
    pub token: String,
}

pub fn signup_body(user_name: &str) -> Value {
    json!({
        "first_name": "Asha", "last_name": "Rao", "email": format!("{user_name}@Partner.Test"),
        "phone_number": "9876543210", "user_name": user_name, "password": PASSWORD, "captcha": null
    })
}

/// POSTs as client `ip` (the test config trusts loopback as a proxy, so X-Forwarded-For names
/// the client), so tests that make many partners stay clear of the per-IP limits.
pub async fn post_as(
    app: &TestApp,
    ip: &str,
    path: &str,
    body: &Value,
    token: Option<&str>,
) -> (u16, Value) {
    let mut req = app
        .client
        .post(app.url(path))
        .header("x-forwarded-for", ip)
        .json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

pub async fn put(app: &TestApp, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
    let mut req = app.client.put(app.url(path)).json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// The mails the api queued so far, delivered (this runs the due jobs in-process first; the
/// queue holds no mail text to read): `(to, subject, text)`, oldest first.
pub async fn queued_mails(app: &TestApp) -> Vec<(String, String, String)> {
    app.run_pending_jobs().await;
    testkit::outbox_mails(&app.config)
        .into_iter()
        .map(|m| (m.to, m.subject, m.text))
        .collect()
}

/// The token of the last link `{PUBLIC_URL}{prefix}{token}` mailed to `to`.
pub async fn mailed_token(app: &TestApp, to: &str, prefix: &str) -> String {
    let mails = queued_mails(app).await;
    let (_, _, text) = mails
        .iter()
        .rev()
        .find(|(t, _, text)| t == to && text.contains(prefix))
        .unwrap_or_else(|| panic!("no mail with {prefix} to {to}: {mails:?}"));
    token_after(text, &format!("{}{prefix}", app.config.public_url))
}

pub fn token_after(text: &str, prefix: &str) -> String {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix} not in {text}"))
        + prefix.len();
    text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// Signs up, verifies the e-mail through the mailed link and signs in.
pub async fn signed_up(app: &TestApp, user_name: &str) -> Session {
    let (s, b) = post_as(
        app,
        &fresh_ip(),
        "/api/v1/partner/signup",
        &signup_body(user_name),
        None,
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let email = format!("{user_name}@partner.test");
    let token = mailed_token(app, &email, "/verify-email/").await;
    let (s, b) = app
        .post(
            "/api/v1/partner/verify-email",
            &json!({"token": token}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let session = login(app, &email, PASSWORD).await;
    Session {
        id: b["partner"]["id"].as_i64().unwrap(),
        email,
        user_name: user_name.into(),
        token: session["token"].as_str().unwrap().into(),
    }
}

/// A client address of its own, so a test's many requests do not share one rate-limit budget.
pub fn fresh_ip() -> String {
    let b = *uuid::Uuid::new_v4().as_bytes();
    format!("10.{}.{}.{}", b[0], b[1], b[2])
}

pub async fn login(app: &TestApp, email: &str, password: &str) -> Value {
    let body = json!({"email": email, "password": password, "captcha": null});
    let (s, b) = post_as(app, &fresh_ip(), "/api/v1/partner/login", &body, None).await;
    assert_eq!(s, 200, "{b}");
    b
}
