//! The partner's My Account settings and the super admin's per-client settings: rules,
//! messages, who may call them, and that deactivating a client still refuses its sign-in.

use serde_json::{Value, json};

use crate::{auth_fixtures, common::TestApp, fixtures};

async fn patch(app: &TestApp, path: &str, body: &Value, token: &str) -> (u16, Value) {
    let res = app
        .client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap();
    let s = res.status().as_u16();
    (s, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn partner_settings_read_and_patch() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let (s, b) = app.get("/api/v1/partner/settings", Some(&p.token)).await;
    assert_eq!(
        (s, b),
        (
            200,
            json!({"server_security": false, "landing_page": true, "documentation_link": null, "charge_sandbox": false})
        )
    );

    let (s, b) = patch(
        &app,
        "/api/v1/partner/settings",
        &json!({"server_security": true}),
        &p.token,
    )
    .await;
    assert_eq!(
        (s, b.clone()),
        (
            200,
            json!({"server_security": true, "landing_page": true, "documentation_link": null, "charge_sandbox": false})
        ),
        "{b}"
    );
    let (s, b) = patch(&app, "/api/v1/partner/settings", &json!({"landing_page": false, "documentation_link": " https://docs.alpha.in/api?v=1#top "}), &p.token).await;
    assert_eq!(s, 200);
    assert_eq!(
        b,
        json!({"server_security": true, "landing_page": false, "documentation_link": "https://docs.alpha.in/api?v=1#top", "charge_sandbox": false})
    );
    let (_, again) = app.get("/api/v1/partner/settings", Some(&p.token)).await;
    assert_eq!(again, b);
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'partner.settings'"
        )
        .await,
        2
    );

    for bad in [
        "http://docs.alpha.in",
        "docs.alpha.in",
        "https://",
        "https://no spaces.in",
        "ftp://x.in",
        "javascript:alert(1)",
    ] {
        let (s, e) = patch(
            &app,
            "/api/v1/partner/settings",
            &json!({"documentation_link": bad}),
            &p.token,
        )
        .await;
        assert_eq!(s, 422, "{bad}");
        assert_eq!(
            e["error"]["fields"]["documentation_link"], "Invalid URL",
            "{bad}"
        );
    }
    let long = format!("https://docs.alpha.in/{}", "a".repeat(3000));
    assert_eq!(
        patch(
            &app,
            "/api/v1/partner/settings",
            &json!({"documentation_link": long}),
            &p.token
        )
        .await
        .0,
        422
    );
    for body in [
        json!({"server_security": "yes"}),
        json!({"nope": true}),
        json!({"documentation_link": 5}),
    ] {
        let (s, e) = patch(&app, "/api/v1/partner/settings", &body, &p.token).await;
        assert_eq!(s, 422, "{body}: {e}");
    }
    // Nothing changed by the refusals; an empty link clears it.
    let (_, b) = patch(
        &app,
        "/api/v1/partner/settings",
        &json!({"documentation_link": "", "charge_sandbox": true}),
        &p.token,
    )
    .await;
    assert_eq!(
        b,
        json!({"server_security": true, "landing_page": false, "documentation_link": null, "charge_sandbox": true})
    );
    assert_eq!(
        app.get("/api/v1/partner/settings", Some(&app.superadmin_token()))
            .await
            .0,
        403
    );
    assert_eq!(app.get("/api/v1/partner/settings", None).await.0, 401);
}

#[tokio::test]
async fn client_settings_read_and_patch() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "alpha").await;
    let admin = app.superadmin_token();
    let path = format!("/api/v1/superadmin/clients/{}/settings", p.id);
    let (s, b) = app.get(&path, Some(&admin)).await;
    assert_eq!(s, 200);
    assert_eq!(
        b,
        json!({"test_api": false, "batch_processing": false, "is_active": true, "restrict_all_apis": false,
               "base_url": null, "old_base_url": null, "base_url_active": false, "documentation_link": null})
    );

    let (s, e) = patch(&app, &path, &json!({"base_url_active": true}), &admin).await;
    assert_eq!(
        (s, e["error"]["fields"]["base_url"].clone()),
        (422, json!("Base URL is required")),
        "no URL to turn on"
    );
    for bad in [
        "",
        "   ",
        "upstream.example",
        "ftp://upstream.example",
        "http://",
        "http://u:p@upstream.example",
    ] {
        let (s, e) = patch(&app, &path, &json!({"base_url": bad}), &admin).await;
        assert_eq!(s, 422, "{bad}: {e}");
        assert!(e["error"]["fields"]["base_url"].is_string(), "{bad}: {e}");
    }
    let (s, e) = patch(
        &app,
        &path,
        &json!({"documentation_link": "http://docs.example.com"}),
        &admin,
    )
    .await;
    assert_eq!(
        (s, e["error"]["fields"]["documentation_link"].clone()),
        (422, json!("Invalid URL"))
    );

    let (s, b) = patch(
        &app,
        &path,
        &json!({"test_api": true, "batch_processing": true, "restrict_all_apis": true, "base_url": "http://upstream.example:8080/kyc/",
                "base_url_active": true, "documentation_link": "https://docs.example.com"}),
        &admin,
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b,
        json!({"test_api": true, "batch_processing": true, "is_active": true, "restrict_all_apis": true,
               "base_url": "http://upstream.example:8080/kyc", "old_base_url": null, "base_url_active": true,
               "documentation_link": "https://docs.example.com"})
    );
    let (_, b) = patch(
        &app,
        &path,
        &json!({"base_url": "https://new.example"}),
        &admin,
    )
    .await;
    assert_eq!(
        (b["base_url"].clone(), b["old_base_url"].clone()),
        (
            json!("https://new.example"),
            json!("http://upstream.example:8080/kyc")
        )
    );
    // The same URL again keeps the old one.
    let (_, b) = patch(
        &app,
        &path,
        &json!({"base_url": "https://new.example"}),
        &admin,
    )
    .await;
    assert_eq!(b["old_base_url"], "http://upstream.example:8080/kyc");
    // The partner's documentation link is the same setting.
    let (_, mine) = app.get("/api/v1/partner/settings", Some(&p.token)).await;
    assert_eq!(mine["documentation_link"], "https://docs.example.com");

    // Who may: a partner token 403, an unknown client 404.
    assert_eq!(app.get(&path, Some(&p.token)).await.0, 403);
    assert_eq!(
        patch(&app, &path, &json!({"is_active": false}), &p.token)
            .await
            .0,
        403
    );
    assert_eq!(
        app.get("/api/v1/superadmin/clients/999999/settings", Some(&admin))
            .await
            .0,
        404
    );
    assert_eq!(
        patch(
            &app,
            "/api/v1/superadmin/clients/999999/settings",
            &json!({"test_api": true}),
            &admin
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get("/api/v1/superadmin/clients/x/settings", Some(&admin))
            .await
            .0,
        404
    );
}

#[tokio::test]
async fn deactivating_a_client_refuses_its_sign_in_and_sessions() {
    let app = TestApp::spawn().await;
    let p = auth_fixtures::signed_up(&app, "alpha").await;
    let admin = app.superadmin_token();
    let path = format!("/api/v1/superadmin/clients/{}/settings", p.id);
    let (s, b) = patch(&app, &path, &json!({"is_active": false}), &admin).await;
    assert_eq!((s, b["is_active"].clone()), (200, json!(false)));

    let body = json!({"email": p.email, "password": auth_fixtures::PASSWORD, "captcha": null});
    let (s, _) = auth_fixtures::post_as(
        &app,
        &auth_fixtures::fresh_ip(),
        "/api/v1/partner/login",
        &body,
        None,
    )
    .await;
    assert_eq!(s, 403, "sign-in refused");
    let (s, _) = app.get("/api/v1/partner/settings", Some(&p.token)).await;
    assert!(matches!(s, 401 | 403), "session refused: {s}");

    let (s, _) = patch(&app, &path, &json!({"is_active": true}), &admin).await;
    assert_eq!(s, 200);
    auth_fixtures::login(&app, &p.email, auth_fixtures::PASSWORD).await;
    let audits = fixtures::count(
        &app,
        "SELECT count(*) FROM audit_log WHERE action = 'client.settings'",
    )
    .await;
    assert_eq!(audits, 2);
}
