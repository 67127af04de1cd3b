//! The landing page's policy pages: the platform's text, or the partner's terms on its site.

use serde_json::json;

use crate::{auth_fixtures::put, common::TestApp, fixtures};

#[tokio::test]
async fn policies_are_the_platforms_unless_the_partner_wrote_its_terms() {
    let app = TestApp::spawn().await;
    for (kind, title) in [
        ("privacy", "Privacy policy"),
        ("terms", "Terms and conditions"),
        ("cancellation", "Cancellation policy"),
    ] {
        let (s, b) = app
            .get(&format!("/api/v1/public/policies/{kind}"), None)
            .await;
        assert_eq!(
            (s, b["title"].as_str(), b["source"].as_str()),
            (200, Some(title), Some("platform")),
            "{b}"
        );
        assert!(b["paragraphs"].as_array().unwrap().len() > 3);
    }
    assert_eq!(
        app.get("/api/v1/public/policies/refunds", None).await.0,
        404
    );

    let p = fixtures::partner(&app, "alpha").await;
    let (s, r) = put(
        &app,
        "/api/v1/partner/subdomain",
        &json!({"subdomain": "alpha-kyc"}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 202, "{r}");
    app.run_pending_jobs().await;
    // No terms written yet: the platform's.
    let (_, b) = app
        .get("/api/v1/public/policies/terms?subdomain=alpha-kyc", None)
        .await;
    assert_eq!(b["source"], "platform");
    sqlx::query("INSERT INTO partner_signup_settings (partner_id, terms_text) VALUES ($1, '<p>Alpha&nbsp;terms</p><p><b>Second</b> rule</p>')")
        .bind(p.id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (_, b) = app
        .get("/api/v1/public/policies/terms?subdomain=alpha-kyc", None)
        .await;
    assert_eq!(
        (b["source"].as_str(), b["paragraphs"].clone()),
        (Some("partner"), json!(["Alpha terms", "Second rule"]))
    );
    let host = format!("alpha-kyc.{}", app.config.platform_domain);
    let by_host: serde_json::Value = app
        .client
        .get(app.url("/api/v1/public/policies/terms"))
        .header("host", host)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(by_host["source"], "partner");
    // The partner wrote no privacy policy, and the platform's own address has no partner.
    let (_, b) = app
        .get("/api/v1/public/policies/privacy?subdomain=alpha-kyc", None)
        .await;
    assert_eq!(b["source"], "platform");
    let (_, b) = app.get("/api/v1/public/policies/terms", None).await;
    assert_eq!(b["source"], "platform");
}
