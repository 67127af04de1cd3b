//! The S3 backend against a real S3 server on loopback (`testkit::S3Server`, s3s-fs): presigned
//! PUT and GET over plain HTTP as a browser makes them, the object operations, a multipart
//! upload, and the uploads endpoint with `STORAGE=s3`.

use std::time::Duration;

use domain::{
    infra::config::StorageConfig,
    infra::storage::{S3Store, Storage},
};
use serde_json::json;
use testkit::S3Server;

use crate::{common::TestApp, uploads::partner};

async fn s3() -> (S3Server, Storage) {
    let server = S3Server::start().await;
    let store = Storage::S3(S3Store::new(&server.config()));
    (server, store)
}

#[tokio::test]
async fn s3_presigned_put_and_get() {
    let (server, store) = s3().await;
    let http = reqwest::Client::new();
    let body = b"\x89PNG fake image bytes".to_vec();
    let put = store
        .presign_put(
            "partners/9/logo/ABCDE_a.png",
            "image/png",
            body.len() as u64,
            Duration::from_secs(900),
        )
        .await
        .unwrap();
    assert!(put.url.starts_with(&server.endpoint), "{}", put.url);
    assert!(put.url.contains("X-Amz-Signature="), "{}", put.url);
    assert_eq!(
        put.headers.get("Content-Type").map(String::as_str),
        Some("image/png")
    );
    assert!(
        !put.headers
            .keys()
            .any(|k| k.eq_ignore_ascii_case("content-length"))
    );

    // The signed content type and length are part of the signature.
    let res = http
        .put(&put.url)
        .header("Content-Type", "text/html")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "{}", res.text().await.unwrap());
    let res = http
        .put(&put.url)
        .header("Content-Type", "image/png")
        .body([&body[..], b"more"].concat())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "{}", res.text().await.unwrap());
    assert!(!store.exists("partners/9/logo/ABCDE_a.png").await.unwrap());

    let mut req = http.put(&put.url).body(body.clone());
    for (k, v) in &put.headers {
        req = req.header(k, v);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    // The link works once: `If-None-Match: *` is signed, so S3 refuses to overwrite.
    assert!(
        put.headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("if-none-match") && v == "*"),
        "{:?}",
        put.headers
    );
    let mut again = http
        .put(&put.url)
        .body(b"\x89PNG fake image BYTES".to_vec());
    for (k, v) in &put.headers {
        again = again.header(k, v);
    }
    assert_eq!(again.send().await.unwrap().status(), 412);
    assert_eq!(
        store
            .get_bytes("partners/9/logo/ABCDE_a.png")
            .await
            .unwrap(),
        body
    );

    let get = store
        .presign_get("partners/9/logo/ABCDE_a.png", Duration::from_secs(60))
        .await
        .unwrap();
    let res = http.get(&get.url).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.bytes().await.unwrap().as_ref(), &body[..]);
    let public = store
        .public_url_for("partners/9/logo/ABCDE_a.png")
        .await
        .unwrap();
    assert_eq!(http.get(&public).send().await.unwrap().status(), 200);

    // A tampered signature, and a link past its expiry.
    // One hex digit changed, the length kept (a malformed signature is a 400, not a 403).
    let (head, sig) = get.url.split_once("X-Amz-Signature=").unwrap();
    let (sig, tail) = sig.split_at(64);
    let flipped = match sig.strip_prefix('0') {
        Some(rest) => format!("1{rest}"),
        None => format!("0{}", &sig[1..]),
    };
    let tampered = format!("{head}X-Amz-Signature={flipped}{tail}");
    assert_eq!(http.get(&tampered).send().await.unwrap().status(), 403);
    let short = store
        .presign_get("partners/9/logo/ABCDE_a.png", Duration::from_secs(1))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(http.get(&short.url).send().await.unwrap().status(), 403);
}

#[tokio::test]
async fn s3_object_operations() {
    let (_server, store) = s3().await;
    assert!(!store.exists("exports/a.csv").await.unwrap());
    assert!(matches!(
        store.get_bytes("exports/a.csv").await,
        Err(domain::Error::NotFound)
    ));
    store
        .put_bytes("exports/a.csv", b"id,amount\n1,100\n".to_vec(), "text/csv")
        .await
        .unwrap();
    assert!(store.exists("exports/a.csv").await.unwrap());
    assert_eq!(
        store.get_bytes("exports/a.csv").await.unwrap(),
        b"id,amount\n1,100\n"
    );
    store.delete("exports/a.csv").await.unwrap();
    assert!(!store.exists("exports/a.csv").await.unwrap());
    store.delete("exports/a.csv").await.unwrap();
    assert!(
        store
            .put_bytes("../escape", vec![1], "text/plain")
            .await
            .is_err()
    );
}

#[tokio::test]
async fn s3_multipart_upload_of_a_big_file() {
    let server = S3Server::start().await;
    // 5 MiB parts (S3's minimum): 12 MiB makes three parts, the last one short.
    let store = Storage::S3(S3Store::new(&server.config()).with_part_size(5 * 1024 * 1024));
    let data: Vec<u8> = (0..12 * 1024 * 1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let path = testkit::scratch_dir("export").join("big.csv");
    std::fs::write(&path, &data).unwrap();
    assert_eq!(
        store
            .put_file("exports/big.csv", &path, "text/csv")
            .await
            .unwrap(),
        data.len() as u64
    );
    assert!(
        store.get_bytes("exports/big.csv").await.unwrap() == data,
        "multipart object differs"
    );
    // S3 marks multipart objects with an ETag ending in -{parts}.
    let Storage::S3(s3) = &store else {
        unreachable!()
    };
    let head = s3
        .client()
        .head_object()
        .bucket(s3.bucket())
        .key("exports/big.csv")
        .send()
        .await
        .unwrap();
    let etag = head.e_tag().unwrap_or_default().to_owned();
    assert!(etag.trim_matches('"').ends_with("-3"), "ETag {etag}");
    assert_eq!(head.content_length(), Some(data.len() as i64));
}

#[tokio::test]
async fn uploads_endpoint_with_s3_storage() {
    let server = S3Server::start().await;
    let cfg = server.config();
    let app = TestApp::spawn_with(move |c| c.storage = StorageConfig::S3(cfg)).await;
    let (id, token) = partner(&app, "s3uploader").await;
    let file = vec![42u8; 8000];
    let (s, b) = app
        .post("/api/v1/uploads", &json!({"purpose": "favicon", "file_name": "fav icon.png", "content_type": "image/png", "size": file.len()}), Some(&token))
        .await;
    assert_eq!(s, 200, "{b}");
    let key = b["key"].as_str().unwrap();
    assert!(
        key.starts_with(&format!("partners/{id}/favicon/")) && key.ends_with("_fav_icon.png"),
        "{key}"
    );
    let url = b["url"].as_str().unwrap();
    assert!(url.starts_with(&server.endpoint), "{url}");
    let mut req = app.client.put(url).body(file.clone());
    for (k, v) in b["headers"].as_object().unwrap() {
        req = req.header(k, v.as_str().unwrap());
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    assert_eq!(app.state.storage.get_bytes(key).await.unwrap(), file);
    // No local store: the /files route has nothing to serve.
    assert_eq!(
        app.client
            .get(app.url(&format!("/files/{key}?expires=1&sig=00")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}
