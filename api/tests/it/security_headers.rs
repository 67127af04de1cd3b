//! Every response carries the browser-side protections: a CSP with `frame-ancestors 'none'`
//! and only the platform's own scripts, `X-Frame-Options: DENY`, `nosniff`, a
//! `Referrer-Policy`, and HSTS exactly when `PUBLIC_URL` is https.

use domain::infra::config::StorageConfig;

use crate::common::TestApp;

async fn headers(app: &TestApp, path: &str) -> reqwest::header::HeaderMap {
    app.client
        .get(app.url(path))
        .send()
        .await
        .unwrap()
        .headers()
        .clone()
}

#[tokio::test]
async fn pages_and_api_answers_carry_the_security_headers() {
    let app = TestApp::spawn().await;
    for path in [
        "/healthz",
        "/api/v1/public/plans",
        "/api/docs",
        "/",
        "/login",
        "/api/v1/partner/me",
        "/files/x?expires=1&sig=0",
    ] {
        let h = headers(&app, path).await;
        let csp = h
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no CSP"))
            .to_str()
            .unwrap();
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'self'",
        ] {
            assert!(csp.contains(part), "{path}: {part} missing from {csp}");
        }
        assert!(
            !csp.contains("'unsafe-eval'") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{csp}"
        );
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            h["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            h.get("strict-transport-security").is_none(),
            "{path}: HSTS over http"
        );
    }
    // The docs page's one inline script is allowed by its hash, and nothing else inline.
    let h = headers(&app, "/api/docs").await;
    let hash = api::security_headers::script_hash(api::openapi::inline_script());
    assert!(
        h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains(&hash)
    );
}

#[tokio::test]
async fn https_adds_hsts_and_s3_is_an_allowed_origin() {
    let server = testkit::S3Server::start().await;
    let cfg = server.config();
    let app = TestApp::spawn_with(move |c| {
        c.public_url = "https://kyc.example.com".into();
        c.storage = StorageConfig::S3(cfg);
    })
    .await;
    let h = headers(&app, "/healthz").await;
    assert_eq!(
        h["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
    // Browsers PUT uploads and load logos straight from the store.
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains(&format!("connect-src 'self' {}", server.endpoint)),
        "{csp}"
    );
    assert!(
        csp.contains(&format!("img-src 'self' data: blob: {}", server.endpoint)),
        "{csp}"
    );
}
