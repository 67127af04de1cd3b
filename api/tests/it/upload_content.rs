//! Uploads are what they claim to be, on both stores: a page or an SVG with a script sent
//! under an `image/png` link is found by its bytes when branding references it, removed, and
//! answered 422; an upload link works once.

use domain::infra::config::StorageConfig;
use serde_json::{Value, json};

use crate::{auth_fixtures::put, common::TestApp, uploads::partner};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-rest-of-a-png";
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF\0-rest";
const HTML: &[u8] = b"<!doctype html><script>alert(document.cookie)</script>";
const SVG: &[u8] = b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(2)</script></svg>";

/// Asks for a link and PUTs `bytes` as a browser would (every returned header); returns the
/// key, the link and the PUT's status.
async fn upload(
    app: &TestApp,
    token: &str,
    purpose: &str,
    name: &str,
    ct: &str,
    bytes: &[u8],
) -> (String, Value, u16) {
    let (s, link) = app.post("/api/v1/uploads", &json!({"purpose": purpose, "file_name": name, "content_type": ct, "size": bytes.len()}), Some(token)).await;
    assert_eq!(s, 200, "{link}");
    let status = put_again(app, &link, bytes).await;
    (link["key"].as_str().unwrap().to_owned(), link, status)
}

async fn put_again(app: &TestApp, link: &Value, bytes: &[u8]) -> u16 {
    let url = link["url"]
        .as_str()
        .unwrap()
        .replacen(&app.config.public_url, &app.base, 1);
    let mut req = app.client.put(url).body(bytes.to_vec());
    for (k, v) in link["headers"].as_object().unwrap() {
        req = req.header(k, v.as_str().unwrap());
    }
    req.send().await.unwrap().status().as_u16()
}

async fn branding(app: &TestApp, token: &str, logo: &str, favicon: &str) -> (u16, Value) {
    let body = json!({"title": "Acme - Home", "description": "KYC", "logo_key": logo, "favicon_key": favicon,
                      "theme": {"primary": "#0F766E", "secondary": "#7C3AED", "tertiary": "#F59E0B"}});
    put(app, "/api/v1/partner/branding", &body, Some(token)).await
}

async fn content_is_checked_and_links_work_once(app: TestApp, second_put: u16) {
    let (_, token) = partner(&app, "magic").await;
    let (logo, logo_link, s) = upload(&app, &token, "logo", "logo.png", "image/png", PNG).await;
    assert_eq!(s, 200);
    // The same link again, even with the same bytes, is refused and changes nothing.
    assert_eq!(put_again(&app, &logo_link, PNG).await, second_put);
    assert_eq!(app.state.storage.get_bytes(&logo).await.unwrap(), PNG);

    let (html, _, s) = upload(&app, &token, "logo", "page.png", "image/png", HTML).await;
    assert_eq!(
        s, 200,
        "the store takes the bytes; using them is what is checked"
    );
    let (svg, _, _) = upload(&app, &token, "favicon", "icon.png", "image/png", SVG).await;
    let (fav, _, _) = upload(&app, &token, "favicon", "fav.jpg", "image/jpeg", JPEG).await;

    let (s, b) = branding(&app, &token, &html, &fav).await;
    assert_eq!(
        (s, b["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Please select a png, jpg or jpeg file")),
        "{b}"
    );
    assert!(
        !app.state.storage.exists(&html).await.unwrap(),
        "the page was removed"
    );
    let (s, b) = branding(&app, &token, &logo, &svg).await;
    assert_eq!(
        (s, b["error"]["fields"]["favicon_key"].as_str()),
        (422, Some("Please select a png, jpg or jpeg file")),
        "{b}"
    );
    assert!(
        !app.state.storage.exists(&svg).await.unwrap(),
        "the SVG was removed"
    );
    // Removed means gone: saving it again is 'no file'.
    let (s, b) = branding(&app, &token, &html, &fav).await;
    assert_eq!(
        (s, b["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Please select a file")),
        "{b}"
    );

    let (s, b) = branding(&app, &token, &logo, &fav).await;
    assert_eq!(s, 200, "{b}");
    assert!(
        app.state.storage.exists(&logo).await.unwrap()
            && app.state.storage.exists(&fav).await.unwrap()
    );
}

#[tokio::test]
async fn local_store_checks_content_and_links_work_once() {
    content_is_checked_and_links_work_once(TestApp::spawn().await, 409).await;
}

#[tokio::test]
async fn s3_store_checks_content_and_links_work_once() {
    let server = testkit::S3Server::start().await;
    let cfg = server.config();
    let app = TestApp::spawn_with(move |c| c.storage = StorageConfig::S3(cfg)).await;
    content_is_checked_and_links_work_once(app, 412).await;
}
