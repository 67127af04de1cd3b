//! My Account's contact details: empty until saved (404), validated, never another partner's.

use serde_json::json;

use crate::{common::TestApp, fixtures};

#[tokio::test]
async fn contact_details_are_404_until_saved_then_read_back_per_partner() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "contacta").await;
    let b = fixtures::partner(&app, "contactb").await;
    let (s, e) = app
        .get("/api/v1/partner/contact-details", Some(&a.token))
        .await;
    assert_eq!((s, e["error"]["code"].as_str()), (404, Some("not_found")));

    let (s, e) = fixtures::put(
        &app,
        "/api/v1/partner/contact-details",
        &json!({"phone_number": "98x", "email": "nope", "address": ""}),
        Some(&a.token),
    )
    .await;
    assert_eq!(s, 422, "{e}");
    for f in ["phone_number", "email", "address"] {
        assert!(e["error"]["fields"][f].is_string(), "{f}: {e}");
    }
    let body = json!({"phone_number": "9876543210", "email": "Ops@Acme.in", "address": "1 MG Road, Bengaluru"});
    let (s, saved) = fixtures::put(
        &app,
        "/api/v1/partner/contact-details",
        &body,
        Some(&a.token),
    )
    .await;
    assert_eq!(s, 200, "{saved}");
    assert_eq!(saved["email"], "ops@acme.in");
    let (s, got) = app
        .get("/api/v1/partner/contact-details", Some(&a.token))
        .await;
    assert_eq!((s, got), (200, saved));

    // Another partner has its own (none yet); no session, no details.
    let (s, _) = app
        .get("/api/v1/partner/contact-details", Some(&b.token))
        .await;
    assert_eq!(s, 404);
    assert_eq!(
        app.get("/api/v1/partner/contact-details", None).await.0,
        401
    );
    let audited = fixtures::count(
        &app,
        "SELECT count(*) FROM audit_log WHERE entity = 'contact_details'",
    )
    .await;
    assert_eq!(audited, 1);
}
