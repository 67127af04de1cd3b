//! The local store's links and files, and the upload rules. The S3 backend is tested against
//! a real S3 server in the api's integration tests (`api/tests/it/storage.rs`).

use chrono::{Duration, Utc};

use super::*;
use crate::Error;

const SIGNING_KEY: &str = "test-link-signing-key-of-32-characters!";

fn store() -> (LocalStore, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "kyc-storage-unit-{}",
        uuid::Uuid::new_v4().simple()
    ));
    (
        LocalStore::new(dir.clone(), "http://localhost:8080/", SIGNING_KEY),
        dir,
    )
}

/// Splits a link into its key and query, as the api's route receives them.
fn parse(url: &str) -> (String, LinkQuery) {
    let rest = url
        .strip_prefix("http://localhost:8080/files/")
        .expect("a /files link");
    let (key, query) = rest.split_once('?').unwrap();
    let mut q = LinkQuery {
        expires: 0,
        sig: String::new(),
        ct: None,
        max: None,
    };
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap();
        match k {
            "expires" => q.expires = v.parse().unwrap(),
            "sig" => q.sig = v.to_owned(),
            "ct" => q.ct = Some(v.replace("%2F", "/")),
            "max" => q.max = Some(v.parse().unwrap()),
            other => panic!("unexpected parameter {other}"),
        }
    }
    (key.to_owned(), q)
}

fn forbidden(r: crate::Result<impl std::fmt::Debug>) -> String {
    match r {
        Err(Error::Forbidden(m)) => m,
        other => panic!("expected Forbidden, got {other:?}"),
    }
}

#[test]
fn get_links_verify_until_they_expire() {
    let (s, _) = store();
    let now = Utc::now();
    let link = s
        .presign_get("partners/1/logo/AB_x.png", now + Duration::minutes(5))
        .unwrap();
    assert_eq!(link.method, "GET");
    let (key, q) = parse(&link.url);
    assert_eq!(key, "partners/1/logo/AB_x.png");
    s.verify_get(&key, &q, now).unwrap();
    s.verify_get(&key, &q, now + Duration::minutes(5)).unwrap();
    assert_eq!(
        forbidden(s.verify_get(&key, &q, now + Duration::minutes(5) + Duration::seconds(1))),
        "This link has expired"
    );
}

#[test]
fn tampered_links_are_refused() {
    let (s, _) = store();
    let now = Utc::now();
    let (key, q) = parse(
        &s.presign_get("a/b.png", now + Duration::minutes(5))
            .unwrap()
            .url,
    );
    // Another key, a later expiry, a flipped signature, a signature from another secret.
    forbidden(s.verify_get("a/c.png", &q, now));
    forbidden(s.verify_get(
        &key,
        &LinkQuery {
            expires: q.expires + 3600,
            ..q.clone()
        },
        now,
    ));
    let mut sig = q.sig.clone().into_bytes();
    sig[0] = if sig[0] == b'0' { b'1' } else { b'0' };
    forbidden(s.verify_get(
        &key,
        &LinkQuery {
            sig: String::from_utf8(sig).unwrap(),
            ..q.clone()
        },
        now,
    ));
    forbidden(s.verify_get(
        &key,
        &LinkQuery {
            sig: "not hex".into(),
            ..q.clone()
        },
        now,
    ));
    let other = LocalStore::new(
        "/tmp/x".into(),
        "http://localhost:8080",
        "another-signing-key-of-32-characters!!",
    );
    forbidden(other.verify_get(&key, &q, now));
    // A GET link is no upload link, and the other way round.
    forbidden(s.verify_put(
        &key,
        &LinkQuery {
            ct: Some("image/png".into()),
            max: Some(10),
            ..q.clone()
        },
        now,
    ));
    let (pkey, pq) = parse(
        &s.presign_put("a/b.png", "image/png", 100, now + Duration::minutes(5))
            .unwrap()
            .url,
    );
    forbidden(s.verify_get(&pkey, &pq, now));
}

#[test]
fn put_links_bind_type_and_size() {
    let (s, _) = store();
    let now = Utc::now();
    let link = s
        .presign_put("a/b.png", "image/png", 1000, now + Duration::minutes(15))
        .unwrap();
    assert_eq!(link.method, "PUT");
    assert_eq!(
        link.headers.get("Content-Type").map(String::as_str),
        Some("image/png")
    );
    assert!(link.url.contains("ct=image%2Fpng"), "{}", link.url);
    let (key, q) = parse(&link.url);
    assert_eq!(
        s.verify_put(&key, &q, now).unwrap(),
        PutGrant {
            content_type: "image/png".into(),
            max_size: 1000
        }
    );
    forbidden(s.verify_put(
        &key,
        &LinkQuery {
            max: Some(1_000_000),
            ..q.clone()
        },
        now,
    ));
    forbidden(s.verify_put(
        &key,
        &LinkQuery {
            ct: Some("text/html".into()),
            ..q.clone()
        },
        now,
    ));
    forbidden(s.verify_put(
        &key,
        &LinkQuery {
            ct: None,
            ..q.clone()
        },
        now,
    ));
    assert_eq!(
        forbidden(s.verify_put(&key, &q, now + Duration::minutes(16))),
        "This link has expired"
    );
}

#[test]
fn traversal_keys_never_become_paths_or_links() {
    let (s, dir) = store();
    for bad in [
        "../secret",
        "/etc/passwd",
        "a/../../b",
        ".tmp/x",
        "a\\..\\b",
    ] {
        assert!(s.path(bad).is_err(), "{bad}");
        assert!(s.presign_get(bad, Utc::now()).is_err(), "{bad}");
        assert!(
            s.presign_put(bad, "image/png", 1, Utc::now()).is_err(),
            "{bad}"
        );
    }
    assert!(s.path("a/b.png").unwrap().starts_with(&dir));
    // A link signed for a good key does not verify for a traversal key.
    let (_, q) = parse(
        &s.presign_get("a/b.png", Utc::now() + Duration::minutes(1))
            .unwrap()
            .url,
    );
    forbidden(s.verify_get("../b.png", &q, Utc::now()));
}

#[tokio::test]
async fn local_files_round_trip() {
    let (s, dir) = store();
    let store = Storage::Local(s.clone());
    assert!(!store.exists("x/y.txt").await.unwrap());
    assert!(matches!(
        store.get_bytes("x/y.txt").await,
        Err(Error::NotFound)
    ));
    store
        .put_bytes("x/y.txt", b"hello".to_vec(), "text/plain")
        .await
        .unwrap();
    assert!(store.exists("x/y.txt").await.unwrap());
    assert_eq!(store.get_bytes("x/y.txt").await.unwrap(), b"hello");

    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let src = dir.join("src.bin");
    std::fs::write(&src, &big).unwrap();
    assert_eq!(
        store
            .put_file("exports/big.csv", &src, "text/csv")
            .await
            .unwrap(),
        big.len() as u64
    );
    assert_eq!(store.get_bytes("exports/big.csv").await.unwrap(), big);

    store.delete("x/y.txt").await.unwrap();
    store.delete("x/y.txt").await.unwrap();
    assert!(!store.exists("x/y.txt").await.unwrap());

    // An abandoned upload leaves neither the file nor its temporary copy.
    let mut up = s.begin("x/abandoned.png").await.unwrap();
    up.write(b"partial").await.unwrap();
    drop(up);
    assert!(!store.exists("x/abandoned.png").await.unwrap());
    assert_eq!(std::fs::read_dir(dir.join(".tmp")).unwrap().count(), 0);
    let public = store.public_url_for("exports/big.csv").await.unwrap();
    assert!(public.starts_with("http://localhost:8080/files/exports/big.csv?expires="));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn upload_rules_follow_the_spec() {
    let logo = UploadPlan::new(
        7,
        UploadPurpose::Logo,
        "my company logo.png",
        "image/png",
        1000,
    )
    .unwrap();
    let (prefix, name) = logo
        .key
        .strip_prefix("partners/7/logo/")
        .unwrap()
        .split_once('_')
        .unwrap();
    assert_eq!(name, "my_company_logo.png");
    assert!(
        prefix.len() == 5 && prefix.bytes().all(|b| b.is_ascii_uppercase()),
        "{prefix}"
    );

    let msg = |r: crate::Result<UploadPlan>| match r {
        Err(Error::TooLarge(m)) => (413, m),
        Err(Error::Invalid { message, .. }) => (422, message),
        other => panic!("{other:?}"),
    };
    let too_big_1mb = (
        413,
        "File size is too large. Please select a file smaller than 1MB.".to_owned(),
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Logo,
            "a.png",
            "image/png",
            1024 * 1024 + 1
        )),
        too_big_1mb
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Qr,
            "a.jpg",
            "image/jpeg",
            2_000_000
        )),
        too_big_1mb
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Favicon,
            "f.png",
            "image/png",
            10 * 1024 + 1
        ))
        .1,
        "File size is too large. Please select a file smaller than 10KB."
    );
    UploadPlan::new(1, UploadPurpose::Favicon, "f.png", "image/png", 10 * 1024).unwrap();
    UploadPlan::new(
        1,
        UploadPurpose::Logo,
        "a.JPEG",
        "image/jpeg; charset=binary",
        1024 * 1024,
    )
    .unwrap();
    assert_eq!(
        UploadPlan::new(1, UploadPurpose::Logo, "a.jpg", "image/jpg", 10)
            .unwrap()
            .content_type,
        "image/jpeg"
    );
    assert_eq!(
        msg(UploadPlan::new(1, UploadPurpose::Logo, "", "image/png", 10)),
        (422, "Please select a file".into())
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Logo,
            "a.png",
            "image/png",
            0
        )),
        (422, "Please select a file".into())
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Logo,
            "a.gif",
            "image/gif",
            10
        ))
        .0,
        422
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Logo,
            "a.svg",
            "image/png",
            10
        ))
        .0,
        422
    );
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Statement,
            "s.png",
            "image/png",
            10
        )),
        (422, "Please select a PDF file".into())
    );
    UploadPlan::new(
        1,
        UploadPurpose::Statement,
        "bank statement.pdf",
        "application/pdf",
        9 * 1024 * 1024,
    )
    .unwrap();
    assert_eq!(
        msg(UploadPlan::new(
            1,
            UploadPurpose::Statement,
            "s.pdf",
            "application/pdf",
            11 * 1024 * 1024
        ))
        .0,
        413
    );
    assert!(UploadPurpose::parse("banner").is_err());
    assert_eq!(UploadPurpose::parse("QR").unwrap(), UploadPurpose::Qr);
}

#[test]
fn magic_bytes_decide_what_a_file_is() {
    let png = b"\x89PNG\r\n\x1a\n....";
    let jpeg = b"\xff\xd8\xff\xe0..";
    let pdf = b"%PDF-1.7\n";
    for p in [
        UploadPurpose::Logo,
        UploadPurpose::Favicon,
        UploadPurpose::Qr,
    ] {
        assert!(p.accepts(png) && p.accepts(jpeg));
        for bad in [
            &pdf[..],
            b"<html>",
            b"<svg onload=alert(1)>",
            b"GIF89a",
            b"",
            b"\x89PN",
        ] {
            assert!(!p.accepts(bad), "{p:?} {bad:?}");
        }
    }
    assert!(UploadPurpose::Statement.accepts(pdf));
    assert!(
        !UploadPurpose::Statement.accepts(png) && !UploadPurpose::Statement.accepts(b"<html>%PDF-")
    );
}
