//! My Account's Signup Customization: defaults until saved, every switch required, the terms
//! sanitised before they are stored, the portal reading what was saved, one partner's settings
//! never another's.

use serde_json::json;

use crate::{common::TestApp, fixtures, portal};

const PATH: &str = "/api/v1/partner/signup-customization";

fn body(terms_html: &str) -> serde_json::Value {
    json!({"forgot_password": false, "terms": true, "create_account": false, "login_with_google": true, "terms_html": terms_html, "copyright": "© 2026 Acme KYC"})
}

#[tokio::test]
async fn defaults_then_saved_sanitised_and_read_by_the_portal() {
    let app = TestApp::spawn().await;
    let a = portal::site(&app, "signupa").await;
    let t = &a.partner.token;
    let (s, got) = app.get(PATH, Some(t)).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        got,
        json!({"forgot_password": true, "terms": true, "create_account": true, "login_with_google": false, "terms_html": "", "copyright": ""})
    );

    let dirty = r#"<h2 onclick="steal()">Terms</h2><p>Pay <strong>first</strong><script>alert(document.cookie)</script></p><p><a href="javascript:alert(1)">click</a> <a href="https://acme.in/refunds" onmouseover="x()">refunds</a></p><img src="x" onerror="alert(1)"><iframe src="https://evil.test"></iframe>"#;
    let (s, saved) = fixtures::put(&app, PATH, &body(dirty), Some(t)).await;
    assert_eq!(s, 200, "{saved}");
    let html = saved["terms_html"].as_str().unwrap();
    for bad in [
        "<script",
        "alert",
        "onclick",
        "onmouseover",
        "onerror",
        "javascript:",
        "<img",
        "<iframe",
        "document.cookie",
    ] {
        assert!(!html.contains(bad), "{bad} survived: {html}");
    }
    assert!(
        html.starts_with("<h2>Terms</h2><p>Pay <strong>first</strong></p>"),
        "{html}"
    );
    assert!(
        html.contains(
            r#"<a href="https://acme.in/refunds" rel="noopener noreferrer nofollow">refunds</a>"#
        ),
        "{html}"
    );
    let stored: String =
        sqlx::query_scalar("SELECT terms_text FROM partner_signup_settings WHERE partner_id = $1")
            .bind(a.partner.id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(stored, html, "what is stored is the sanitised text");
    let (_, got) = app.get(PATH, Some(t)).await;
    assert_eq!(got, saved);
    assert_eq!(
        (
            got["forgot_password"].as_bool(),
            got["create_account"].as_bool(),
            got["login_with_google"].as_bool()
        ),
        (Some(false), Some(false), Some(true))
    );

    // The end users' site follows the saved switches and texts.
    let (_, site) = app
        .get("/api/v1/public/portal?subdomain=signupa", None)
        .await;
    assert_eq!(site["signup"]["create_account"], false);
    assert_eq!(site["signup"]["forgot_password"], false);
    assert_eq!(site["signup"]["terms_html"], saved["terms_html"]);
    assert_eq!(site["signup"]["copyright"], "© 2026 Acme KYC");
    let audited = fixtures::count(
        &app,
        "SELECT count(*) FROM audit_log WHERE entity = 'signup_customization'",
    )
    .await;
    assert_eq!(audited, 1);

    // An editor cleared to nothing stores no terms.
    let (_, cleared) = fixtures::put(&app, PATH, &body("<p></p>"), Some(t)).await;
    assert_eq!(cleared["terms_html"], "");
}

#[tokio::test]
async fn bad_inputs_are_4xx_in_the_contract_shape() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "signupbad").await;
    let t = Some(a.token.as_str());
    // Switches missing: each named.
    let (s, e) = fixtures::put(&app, PATH, &json!({"terms_html": "<p>x</p>"}), t).await;
    assert_eq!(s, 422, "{e}");
    for f in [
        "forgot_password",
        "terms",
        "create_account",
        "login_with_google",
    ] {
        assert!(e["error"]["fields"][f].is_string(), "{f}: {e}");
    }
    // Too long, a control character, wrong types, not JSON: never a 500.
    let mut long = body(&"x".repeat(100_001));
    long["copyright"] = json!("a\u{0}b");
    let (s, e) = fixtures::put(&app, PATH, &long, t).await;
    assert_eq!(s, 422, "{e}");
    assert_eq!(
        e["error"]["fields"]["terms_html"],
        "Terms must be at most 100,000 characters"
    );
    assert!(e["error"]["fields"]["copyright"].is_string(), "{e}");
    for bad in [
        json!({"forgot_password": "yes"}),
        json!({"terms_html": 5}),
        json!([1]),
        json!(null),
    ] {
        let (s, e) = fixtures::put(&app, PATH, &bad, t).await;
        assert!((400..500).contains(&s), "{bad} answered {s}");
        portal::assert_error(&e);
    }
    let raw = app
        .client
        .put(app.url(PATH))
        .bearer_auth(&a.token)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert!(raw.status().is_client_error(), "{}", raw.status());
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM partner_signup_settings").await,
        0
    );
    assert_eq!(app.get(PATH, None).await.0, 401);
}

#[tokio::test]
async fn one_partner_never_reads_or_changes_anothers() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "signupiso1").await;
    let b = fixtures::partner(&app, "signupiso2").await;
    let (s, _) = fixtures::put(&app, PATH, &body("<p>A's terms</p>"), Some(&a.token)).await;
    assert_eq!(s, 200);
    let (_, got_b) = app.get(PATH, Some(&b.token)).await;
    assert_eq!(
        got_b["terms_html"], "",
        "b sees its own defaults, not a's terms"
    );
    assert_eq!(got_b["create_account"], true);
    let (s, _) = fixtures::put(&app, PATH, &body("<p>B's terms</p>"), Some(&b.token)).await;
    assert_eq!(s, 200);
    let (_, got_a) = app.get(PATH, Some(&a.token)).await;
    assert_eq!(got_a["terms_html"], "<p>A's terms</p>");
    // An end user's token is not a partner's.
    let site = portal::site(&app, "signupiso3").await;
    let user = portal::token(&app, "signupiso3", &site.email).await;
    assert_eq!(app.get(PATH, Some(&user)).await.0, 403);
}
