//! The super admin's Update Domain: the client's site moves, through `provision_subdomain`.

use serde_json::json;

use crate::{auth_fixtures::put, common::TestApp, fixtures};

async fn branding(app: &TestApp, name: &str) -> u16 {
    app.get(&format!("/api/v1/public/branding?subdomain={name}"), None)
        .await
        .0
}

/// Whether the site at `{name}.{PLATFORM_DOMAIN}` serves the partner's branded page.
async fn site_is_the_partners(app: &TestApp, name: &str) -> bool {
    let host = format!("{name}.{}", app.config.platform_domain);
    let html = app
        .client
        .get(app.url("/"))
        .header("host", host)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    html.contains("<title>alpha - Home</title>")
}

#[tokio::test]
async fn update_domain_moves_the_site_and_the_old_name_stops_serving() {
    let dist = testkit::scratch_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><html><head><title>KYC Whitelabel</title></head><body></body></html>",
    )
    .unwrap();
    let app = TestApp::spawn_with(|c| c.web_dist = dist.clone()).await;
    let admin = app.superadmin_token();
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "bravo").await;
    for (p, name) in [(&a, "alpha-kyc"), (&b, "bravo-kyc")] {
        let (s, r) = put(
            &app,
            "/api/v1/partner/subdomain",
            &json!({"subdomain": name}),
            Some(&p.token),
        )
        .await;
        assert_eq!(s, 202, "{r}");
    }
    app.run_pending_jobs().await;
    assert_eq!(branding(&app, "alpha-kyc").await, 200);
    assert!(site_is_the_partners(&app, "alpha-kyc").await);

    let (s, r) = put(
        &app,
        &format!("/api/v1/superadmin/clients/{}/subdomain", a.id),
        &json!({"subdomain": "Alpha-New"}),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 202, "{r}");
    assert_eq!(r["subdomain"], "alpha-new");
    // The old name stops serving at once; the new one once the job has run.
    assert_eq!(branding(&app, "alpha-kyc").await, 404);
    assert!(
        !site_is_the_partners(&app, "alpha-kyc").await,
        "the old address serves the plain platform page"
    );
    assert_eq!(branding(&app, "alpha-new").await, 404);
    let (_, j) = app
        .get(
            &format!("/api/v1/jobs/{}", r["job_id"].as_str().unwrap()),
            Some(&admin),
        )
        .await;
    assert_eq!(j["kind"], "provision_subdomain");
    app.run_pending_jobs().await;
    assert_eq!(branding(&app, "alpha-new").await, 200);
    assert!(site_is_the_partners(&app, "alpha-new").await);
    assert!(!site_is_the_partners(&app, "alpha-kyc").await);
    let (_, c) = app
        .get(
            &format!("/api/v1/superadmin/clients/{}", a.id),
            Some(&admin),
        )
        .await;
    assert_eq!(c["subdomain"], "alpha-new", "{c}");
    let audited: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE action = 'partner.claim_subdomain' AND actor_kind = 'superadmin' AND partner_id = $1")
        .bind(a.id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(audited, 1);

    // Another client's name is taken; a bad name is a field error; an unknown client is 404.
    let (s, e) = put(
        &app,
        &format!("/api/v1/superadmin/clients/{}/subdomain", a.id),
        &json!({"subdomain": "bravo-kyc"}),
        Some(&admin),
    )
    .await;
    assert_eq!(
        (s, e["error"]["fields"]["subdomain"].is_string()),
        (409, true),
        "{e}"
    );
    let (s, e) = put(
        &app,
        &format!("/api/v1/superadmin/clients/{}/subdomain", a.id),
        &json!({"subdomain": "no spaces!"}),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 422, "{e}");
    let (s, _) = put(
        &app,
        "/api/v1/superadmin/clients/999999/subdomain",
        &json!({"subdomain": "free-name"}),
        Some(&admin),
    )
    .await;
    assert_eq!(s, 404);
    assert_eq!(
        branding(&app, "bravo-kyc").await,
        200,
        "the other client keeps its site"
    );
}
