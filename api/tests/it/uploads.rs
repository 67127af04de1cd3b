//! `POST /api/v1/uploads` and the local store's signed `/files` links, end to end over HTTP:
//! the spec's type and size rules, a browser-style PUT then GET, and the links that must fail.

use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use crate::common::TestApp;

/// Inserts a partner and returns its id and a partner session token.
pub async fn partner(app: &TestApp, user_name: &str) -> (i64, String) {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash)
         VALUES ('Asha', 'Rao', $1, '9876543210', $2, 'x') RETURNING id",
    )
    .bind(format!("{user_name}@example.com"))
    .bind(user_name)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    let token = crate::fixtures::partner_token(app, id, user_name).await;
    (id, token)
}

/// Local links carry `PUBLIC_URL`; the test server listens elsewhere.
fn on_test_server(app: &TestApp, url: &str) -> String {
    url.replacen(&app.config.public_url, &app.base, 1)
}

async fn ask(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.post("/api/v1/uploads", &body, Some(token)).await
}

#[tokio::test]
async fn upload_rules_and_messages() {
    let app = TestApp::spawn().await;
    let (id, token) = partner(&app, "uploader").await;

    let (s, b) = ask(&app, &token, json!({"purpose": "logo", "file_name": "My Logo.png", "content_type": "image/png", "size": 20_000})).await;
    assert_eq!(s, 200, "{b}");
    let key = b["key"].as_str().unwrap();
    let rest = key
        .strip_prefix(&format!("partners/{id}/logo/"))
        .unwrap_or_else(|| panic!("key {key}"));
    let (prefix, name) = rest.split_once('_').unwrap();
    assert!(
        prefix.len() == 5 && prefix.bytes().all(|c| c.is_ascii_uppercase()),
        "{prefix}"
    );
    assert_eq!(name, "My_Logo.png");
    assert_eq!(b["method"], "PUT");
    assert_eq!(b["headers"]["Content-Type"], "image/png");
    let expires: chrono::DateTime<Utc> = b["expires_at"].as_str().unwrap().parse().unwrap();
    let ttl = expires - Utc::now();
    assert!(
        ttl > chrono::Duration::minutes(14) && ttl <= chrono::Duration::minutes(15),
        "{ttl}"
    );
    assert!(
        b["url"]
            .as_str()
            .unwrap()
            .contains(&format!("/files/{key}?"))
    );

    let cases = [
        (
            json!({"purpose": "logo", "file_name": "a.png", "content_type": "image/png", "size": 1_048_577}),
            413,
            "File size is too large. Please select a file smaller than 1MB.",
        ),
        (
            json!({"purpose": "favicon", "file_name": "f.png", "content_type": "image/png", "size": 10_241}),
            413,
            "File size is too large. Please select a file smaller than 10KB.",
        ),
        (
            json!({"purpose": "qr", "file_name": "qr.jpg", "content_type": "image/jpeg", "size": 2_000_000}),
            413,
            "File size is too large. Please select a file smaller than 1MB.",
        ),
        (
            json!({"purpose": "logo", "file_name": "", "content_type": "image/png", "size": 10}),
            422,
            "Please select a file",
        ),
        (
            json!({"purpose": "logo", "file_name": "a.gif", "content_type": "image/gif", "size": 10}),
            422,
            "Please select a png, jpg or jpeg file",
        ),
        (
            json!({"purpose": "statement", "file_name": "s.png", "content_type": "image/png", "size": 10}),
            422,
            "Please select a PDF file",
        ),
        (
            json!({"purpose": "banner", "file_name": "a.png", "content_type": "image/png", "size": 10}),
            422,
            "Purpose must be one of logo, favicon, qr, statement",
        ),
    ];
    for (body, status, message) in cases {
        let (s, b) = ask(&app, &token, body.clone()).await;
        assert_eq!(
            (s, b["error"]["message"].as_str().unwrap_or("")),
            (status, message),
            "{body} -> {b}"
        );
    }
    for ok in [
        json!({"purpose": "favicon", "file_name": "fav.jpeg", "content_type": "image/jpeg", "size": 10_240}),
        json!({"purpose": "statement", "file_name": "bank statement.pdf", "content_type": "application/pdf", "size": 5_000_000}),
    ] {
        assert_eq!(ask(&app, &token, ok.clone()).await.0, 200, "{ok}");
    }

    // Partners only, and signed in.
    let body =
        json!({"purpose": "logo", "file_name": "a.png", "content_type": "image/png", "size": 10});
    assert_eq!(app.post("/api/v1/uploads", &body, None).await.0, 401);
    assert_eq!(
        app.post("/api/v1/uploads", &body, Some(&app.superadmin_token()))
            .await
            .0,
        403
    );
}

#[tokio::test]
async fn files_round_trip_through_signed_links() {
    let app = TestApp::spawn().await;
    let (_, token) = partner(&app, "roundtrip").await;
    let png: Vec<u8> = [&b"\x89PNG\r\n\x1a\n"[..], &[7u8; 5000]].concat();
    let (s, b) = ask(&app, &token, json!({"purpose": "logo", "file_name": "logo.png", "content_type": "image/png", "size": png.len()})).await;
    assert_eq!(s, 200, "{b}");
    let key = b["key"].as_str().unwrap().to_owned();
    let put_url = on_test_server(&app, b["url"].as_str().unwrap());

    // The wrong content type is refused and stores nothing.
    let res = app
        .client
        .put(&put_url)
        .header("Content-Type", "text/html")
        .body(png.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert!(!app.state.storage.exists(&key).await.unwrap());

    let res = app
        .client
        .put(&put_url)
        .header("Content-Type", "image/png")
        .body(png.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(app.state.storage.get_bytes(&key).await.unwrap(), png);

    let get_url = on_test_server(&app, &app.state.storage.public_url_for(&key).await.unwrap());
    let res = app.client.get(&get_url).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert_eq!(res.bytes().await.unwrap().as_ref(), &png[..]);

    // An upload link is not a download link, and a bare path is nothing.
    assert_eq!(app.client.get(&put_url).send().await.unwrap().status(), 403);
    assert_eq!(
        app.client
            .get(app.url(&format!("/files/{key}")))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
}

#[tokio::test]
async fn expired_tampered_and_oversize_links_fail() {
    let app = TestApp::spawn().await;
    let local = app
        .state
        .storage
        .local()
        .expect("tests default to the local store")
        .clone();
    local
        .put_bytes("exports/report.csv", b"a,b\n1,2\n")
        .await
        .unwrap();

    let expired = local
        .presign_get(
            "exports/report.csv",
            Utc::now() - chrono::Duration::seconds(1),
        )
        .unwrap();
    let res = app
        .client
        .get(on_test_server(&app, &expired.url))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["message"], "This link has expired");

    let good = on_test_server(
        &app,
        &local
            .presign_get(
                "exports/report.csv",
                Utc::now() + chrono::Duration::minutes(5),
            )
            .unwrap()
            .url,
    );
    assert_eq!(app.client.get(&good).send().await.unwrap().status(), 200);
    let tampered = [
        good.replace("exports/report.csv", "exports/other.csv"),
        good.replace("expires=", "expires=9"),
        {
            let mut g = good.clone();
            let last = g.pop().unwrap();
            g.push(if last == '0' { '1' } else { '0' });
            g
        },
        good.split("&sig=").next().unwrap().to_owned(),
    ];
    for url in tampered {
        assert_eq!(
            app.client.get(&url).send().await.unwrap().status(),
            403,
            "{url}"
        );
    }
    // Traversal never reaches the file system, signed or not.
    let res = app
        .client
        .get(app.url("/files/..%2F..%2Fetc%2Fpasswd?expires=9999999999&sig=00"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    // A PUT past the signed size: 413 whether the client announces the length or streams it.
    let put = local
        .presign_put(
            "partners/1/logo/ABCDE_x.png",
            "image/png",
            1000,
            Utc::now() + chrono::Duration::minutes(5),
        )
        .unwrap();
    let url = on_test_server(&app, &put.url);
    let res = app
        .client
        .put(&url)
        .header("Content-Type", "image/png")
        .body(vec![0u8; 1001])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    assert_eq!(
        chunked_put(&url, "image/png", &[&[1u8; 400][..]; 4]).await,
        413
    );
    assert!(!local.exists("partners/1/logo/ABCDE_x.png").await.unwrap());
    let res = app
        .client
        .put(&url)
        .header("Content-Type", "image/png")
        .body(vec![0u8; 1000])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    let expired_put = local
        .presign_put(
            "partners/1/logo/ABCDE_y.png",
            "image/png",
            10,
            Utc::now() - chrono::Duration::seconds(1),
        )
        .unwrap();
    let res = app
        .client
        .put(on_test_server(&app, &expired_put.url))
        .header("Content-Type", "image/png")
        .body(vec![0u8; 5])
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

/// A PUT with a chunked body and no Content-Length, so the server has to count; returns the
/// status. Raw HTTP/1.1, as reqwest here has no streaming bodies.
async fn chunked_put(url: &str, content_type: &str, chunks: &[&[u8]]) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut sock = tokio::net::TcpStream::connect(host).await.unwrap();
    let head = format!(
        "PUT {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    sock.write_all(head.as_bytes()).await.unwrap();
    for c in chunks {
        // The server may answer 413 and close before the last chunk: later writes may fail.
        if sock
            .write_all(format!("{:x}\r\n", c.len()).as_bytes())
            .await
            .is_err()
            || sock.write_all(c).await.is_err()
            || sock.write_all(b"\r\n").await.is_err()
        {
            break;
        }
    }
    let _ = sock.write_all(b"0\r\n\r\n").await;
    let mut reply = Vec::new();
    let _ = sock.read_to_end(&mut reply).await;
    let line = String::from_utf8_lossy(&reply);
    line.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}
