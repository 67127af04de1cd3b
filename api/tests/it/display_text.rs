//! Issue 22, finding 5: bidirectional overrides and isolates (U+202E reversed a partner's
//! landing title) and control characters are refused in every display field when it is saved,
//! by the one rule `domain::infra::text::is_plain_text`.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, Upstream},
};

/// (method, path, body, the field refused, partner or admin token, API key).
type Case<'a> = (
    &'a str,
    String,
    Value,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
);

const BIDI: [&str; 4] = ["\u{202e}", "\u{2066}", "\u{202d}", "\u{200f}"];

async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    body: &Value,
    token: Option<&str>,
    key: Option<&str>,
) -> (u16, Value) {
    let mut req = app
        .client
        .request(method.parse().unwrap(), app.url(path))
        .json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    let res = req.send().await.unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

fn field_refused(st: u16, b: &Value, field: &str) -> bool {
    st == 422
        && b["error"]["fields"][field]
            .as_str()
            .is_some_and(|m| m.contains("invalid characters") || m.contains("special characters"))
}

#[tokio::test]
async fn bidi_and_control_characters_are_refused_in_every_display_field() {
    // Six rounds of the contact form from one address.
    let app = TestApp::spawn_with(|c| c.rate_limits.contact = 1000).await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    sqlx::query("UPDATE partners SET batch_processing = true WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let token = fixtures::partner_token(&app, s.partner_id, "acme").await;
    let admin = app.superadmin_token();

    for mark in BIDI.iter().chain(["\u{1b}", "\u{7}"].iter()) {
        let text = format!("Acme{mark}gnp.exe");
        // (method, path, body, field, partner token?, api key?)
        let cases: Vec<Case> = vec![
            (
                "PUT",
                "/api/v1/partner/branding".into(),
                json!({"title": text, "description": text, "logo_key": "", "favicon_key": "", "theme": {"primary": "#112233", "secondary": "#112233", "tertiary": "#112233"}}),
                "title",
                Some(&token),
                None,
            ),
            (
                "PUT",
                "/api/v1/partner/branding".into(),
                json!({"title": "Acme", "description": text, "logo_key": "", "favicon_key": "", "theme": {"primary": "#112233", "secondary": "#112233", "tertiary": "#112233"}}),
                "description",
                Some(&token),
                None,
            ),
            (
                "POST",
                "/api/v1/partner/ip-whitelist".into(),
                json!({"user_id": s.user_id, "ip": "203.0.113.7", "comments": text}),
                "comments",
                Some(&token),
                None,
            ),
            (
                "POST",
                "/api/v1/partner/blocked-ips".into(),
                json!({"user_id": s.user_id, "ip": "203.0.113.7", "comments": text}),
                "comments",
                Some(&token),
                None,
            ),
            (
                "PUT",
                "/api/v1/partner/smtp".into(),
                json!({"host": "smtp.example.com", "port": 587, "user": "u", "password": "p",
                    "from": "ops@acme.in", "company_name": text, "secure": false, "active": false}),
                "company_name",
                Some(&token),
                None,
            ),
            (
                "PUT",
                "/api/v1/partner/contact-details".into(),
                json!({"phone_number": "9876543210", "email": "ops@acme.in", "address": text}),
                "address",
                Some(&token),
                None,
            ),
            (
                "POST",
                "/api/v1/products/bank-statements".into(),
                json!({"file_key": "x", "account_name": text, "account_number": "50100123459012", "bank_name": "HDFC"}),
                "account_name",
                None,
                Some(&s.key),
            ),
            (
                "POST",
                "/api/v1/products/bank-statements".into(),
                json!({"file_key": "x", "account_name": "Asha", "account_number": "50100123459012", "bank_name": text}),
                "bank_name",
                None,
                Some(&s.key),
            ),
            (
                "POST",
                "/api/v1/public/contact".into(),
                json!({"name": text, "email": "a@b.in", "mobile": "9876543210", "message": "hi"}),
                "name",
                None,
                None,
            ),
            (
                "POST",
                "/api/v1/superadmin/apis".into(),
                json!({"name": text, "category": "Identity", "service": "x_check", "description": "d",
                    "endpoint": "/x", "documentation_link": "https://docs.example.com", "curl_code": "curl",
                    "response_code": {"ok": true}}),
                "name",
                Some(&admin),
                None,
            ),
        ];
        for (method, path, body, field, token, key) in cases {
            let (st, b) = send(&app, method, &path, &body, token, key).await;
            assert!(
                field_refused(st, &b, field),
                "{method} {path} {field} with {mark:?}: {st} {b}"
            );
        }

        // A batch's file name is display text too (the portal lists it).
        let name: String = url_encode(&format!("people{mark}vsc.csv"));
        let res = app
            .client
            .post(app.url(&format!("/api/v1/verify/pan_check/batch?file_name={name}")))
            .header("x-api-key", &s.key)
            .header("content-type", "text/csv")
            .body("id_number\nABCDE1234F\n")
            .send()
            .await
            .unwrap();
        let st = res.status().as_u16();
        let b: Value = res.json().await.unwrap_or(Value::Null);
        assert!(
            field_refused(st, &b, "file_name"),
            "batch file name with {mark:?}: {st} {b}"
        );
    }
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM batches").await,
        0
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM ip_whitelist").await,
        0
    );
}

fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
