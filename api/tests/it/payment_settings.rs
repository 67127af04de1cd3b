//! My Account's Payment tab: the card provider's key id and secret sealed at rest and never
//! answered in clear, every field required, the QR code with the 1 MB rule and the default
//! instruction, files checked by their bytes, what the end users' top-up page reads, and one
//! partner never reading or changing another's.

use serde_json::{Value, json};

use crate::{common::TestApp, fixtures, portal};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-rest-of-a-png";
const HTML: &[u8] = b"<!doctype html><script>alert(document.cookie)</script>";
const KEY_ID: &str = "rzp_live_AbCdEf123456";
const SECRET: &str = "sEcReT_9f8e7d6c5b4a";

/// A file stored under this partner's own upload prefix, as a finished upload leaves it.
async fn stored(app: &TestApp, partner_id: i64, purpose: &str, name: &str, bytes: &[u8]) -> String {
    let key = format!("partners/{partner_id}/{purpose}/ABCDE_{name}");
    app.state
        .storage
        .put_bytes(&key, bytes.to_vec(), "image/png")
        .await
        .unwrap();
    key
}

fn card(logo_key: &str) -> Value {
    json!({"key_id": KEY_ID, "key_secret": SECRET, "name": "Razorpay", "description": "Cards, UPI and netbanking",
           "logo_key": logo_key, "minimum_api_amount_paise": 50_000, "minimum_product_amount_paise": 100_000,
           "theme_color": "#3399cc", "currency": "INR"})
}

/// The settings with each signed link cut at its query: a link's expiry counts from the second
/// it is signed, so two reads a moment apart may differ only there.
fn unsigned(mut body: Value) -> Value {
    for part in ["card", "qr"] {
        for (_, v) in body[part].as_object_mut().into_iter().flatten() {
            if let Some(link) = v.as_str().and_then(|l| l.split_once('?')) {
                *v = Value::String(link.0.to_owned());
            }
        }
    }
    body
}

fn no_secret_in(body: &Value) {
    let text = body.to_string();
    for clear in [KEY_ID, "AbCdEf", SECRET, "sEcReT"] {
        assert!(!text.contains(clear), "{clear} answered in clear: {text}");
    }
}

#[tokio::test]
async fn card_keys_are_sealed_and_only_shown_masked() {
    let app = TestApp::spawn().await;
    let a = portal::site(&app, "paya").await;
    let t = Some(a.partner.token.as_str());
    let (s, got) = app.get("/api/v1/partner/payment-settings", t).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(got["card"]["configured"], false);
    assert_eq!(got["card"]["currency"], "INR");
    assert_eq!(got["qr"]["qr_key"], Value::Null);
    assert_eq!(
        got["qr"]["default_description"],
        domain::portal::top_up::DEFAULT_QR_INSTRUCTION
    );

    let logo = stored(&app, a.partner.id, "logo", "card.png", PNG).await;
    let (s, saved) = fixtures::put(
        &app,
        "/api/v1/partner/payment-settings/card",
        &card(&logo),
        t,
    )
    .await;
    assert_eq!(s, 200, "{saved}");
    no_secret_in(&saved);
    assert_eq!(saved["card"]["configured"], true);
    assert_eq!(saved["card"]["key_id"], "********3456");
    assert_eq!(saved["card"]["key_secret"], "********");
    assert_eq!(saved["card"]["theme_color"], "#3399CC");
    assert_eq!(saved["card"]["minimum_product_amount_paise"], 100_000);
    assert!(saved["card"]["logo_url"].is_string(), "{saved}");
    let (_, got) = app.get("/api/v1/partner/payment-settings", t).await;
    assert_eq!(unsigned(got), unsigned(saved.clone()));

    // At rest: neither key is in the row in clear, and both open with ENCRYPTION_KEY.
    let row: (Vec<u8>, Vec<u8>) = sqlx::query_as(
        "SELECT key_id_enc, key_secret_enc FROM partner_payment_settings WHERE partner_id = $1",
    )
    .bind(a.partner.id)
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    for sealed in [&row.0, &row.1] {
        let as_text = String::from_utf8_lossy(sealed);
        assert!(!as_text.contains(KEY_ID) && !as_text.contains(SECRET));
    }
    let secrets = domain::infra::crypto::SecretBox::new(&app.config.encryption_key);
    let mut conn = app.db.pool.acquire().await.unwrap();
    let keys = domain::partners::payment_settings::card_keys(&mut conn, &secrets, a.partner.id)
        .await
        .unwrap();
    assert_eq!(keys, (KEY_ID.to_owned(), SECRET.to_owned()));
    // Nor in the audit log.
    let audit: Vec<String> =
        sqlx::query_scalar("SELECT after::text FROM audit_log WHERE entity = 'payment_card'")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(audit.len(), 1);
    assert!(
        !audit[0].contains(KEY_ID) && !audit[0].contains(SECRET),
        "{}",
        audit[0]
    );

    // The masks sent back keep the keys; a new key id alone needs its secret again.
    let mut again = card(&logo);
    again["key_id"] = saved["card"]["key_id"].clone();
    again["key_secret"] = saved["card"]["key_secret"].clone();
    again["name"] = json!("Razorpay Cards");
    let (s, b) = fixtures::put(&app, "/api/v1/partner/payment-settings/card", &again, t).await;
    assert_eq!(
        (s, b["card"]["name"].as_str()),
        (200, Some("Razorpay Cards")),
        "{b}"
    );
    assert_eq!(
        domain::partners::payment_settings::card_keys(&mut conn, &secrets, a.partner.id)
            .await
            .unwrap(),
        keys
    );
    again["key_id"] = json!("rzp_live_Other0001");
    let (s, b) = fixtures::put(&app, "/api/v1/partner/payment-settings/card", &again, t).await;
    assert_eq!(
        (s, b["error"]["fields"]["key_secret"].as_str()),
        (422, Some(domain::partners::payment_settings::SECRET_AGAIN)),
        "{b}"
    );

    // The end users' top-up page shows the provider's public face, never a key.
    let user = portal::token(&app, "paya", &a.email).await;
    let (_, top_up) = app.get("/api/v1/me/top-up", Some(&user)).await;
    assert_eq!(top_up["card"]["name"], "Razorpay Cards");
    assert_eq!(top_up["card"]["minimum_api_amount_paise"], 50_000);
    assert_eq!(
        top_up["qr"]["description"],
        domain::portal::top_up::DEFAULT_QR_INSTRUCTION
    );
    no_secret_in(&top_up);
}

#[tokio::test]
async fn card_rules_and_bad_inputs_are_4xx() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "paybad").await;
    let t = Some(a.token.as_str());
    let path = "/api/v1/partner/payment-settings/card";
    // Nothing given: every field is named.
    let (s, e) = fixtures::put(&app, path, &json!({}), t).await;
    assert_eq!(s, 422, "{e}");
    for f in [
        "name",
        "description",
        "logo_key",
        "minimum_api_amount_paise",
        "minimum_product_amount_paise",
        "theme_color",
        "currency",
    ] {
        assert!(e["error"]["fields"][f].is_string(), "{f}: {e}");
    }
    // Keys are required while none are stored.
    let logo = stored(&app, a.id, "logo", "card.png", PNG).await;
    let mut no_keys = card(&logo);
    no_keys["key_id"] = json!("");
    no_keys["key_secret"] = json!("");
    let (s, e) = fixtures::put(&app, path, &no_keys, t).await;
    assert_eq!(
        (
            s,
            e["error"]["fields"]["key_id"].as_str(),
            e["error"]["fields"]["key_secret"].as_str()
        ),
        (
            422,
            Some("Key id is required"),
            Some("Key secret is required")
        ),
        "{e}"
    );
    // Wrong values, each on its field.
    for (field, value) in [
        ("minimum_api_amount_paise", json!(-1)),
        ("minimum_product_amount_paise", json!(1_000_000_001_i64)),
        ("theme_color", json!("blue")),
        ("currency", json!("USD")),
        ("key_id", json!("has spaces in it")),
        ("name", json!("x".repeat(101))),
        ("logo_key", json!("partners/999/logo/ABCDE_card.png")),
        ("logo_key", json!("../../etc/passwd")),
    ] {
        let mut b = card(&logo);
        b[field] = value.clone();
        let (s, e) = fixtures::put(&app, path, &b, t).await;
        assert_eq!(s, 422, "{field}={value}: {e}");
        assert!(
            e["error"]["fields"][field].is_string(),
            "{field}={value}: {e}"
        );
    }
    // Wrong JSON types and shapes: 4xx in the contract's shape, never a 500.
    for bad in [
        json!({"minimum_api_amount_paise": "fifty"}),
        json!({"minimum_api_amount_paise": 1.5}),
        json!({"name": 7}),
        json!([]),
        json!("card"),
    ] {
        let (s, e) = fixtures::put(&app, path, &bad, t).await;
        assert!((400..500).contains(&s), "{bad} answered {s}");
        portal::assert_error(&e);
    }
    // A logo that is not an image is removed and refused.
    let page = stored(&app, a.id, "logo", "page.png", HTML).await;
    let (s, e) = fixtures::put(&app, path, &card(&page), t).await;
    assert_eq!(
        (s, e["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Please select a png, jpg or jpeg file")),
        "{e}"
    );
    assert!(!app.state.storage.exists(&page).await.unwrap());
    // A key that names no stored file.
    let (s, e) = fixtures::put(
        &app,
        path,
        &card(&format!("partners/{}/logo/ABCDE_none.png", a.id)),
        t,
    )
    .await;
    assert_eq!(
        (s, e["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Please select a file")),
        "{e}"
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM partner_payment_settings").await,
        0
    );
    assert_eq!(
        app.get("/api/v1/partner/payment-settings", None).await.0,
        401
    );
}

#[tokio::test]
async fn qr_code_with_the_1mb_rule_description_and_default_instruction() {
    let app = TestApp::spawn().await;
    let a = portal::site(&app, "payqr").await;
    let t = Some(a.partner.token.as_str());
    // The upload link refuses a QR image over 1 MB with the spec's message, and a wrong type.
    let (s, e) = app.post("/api/v1/uploads", &json!({"purpose": "qr", "file_name": "qr.png", "content_type": "image/png", "size": 1024 * 1024 + 1}), t).await;
    assert_eq!(
        (s, e["error"]["message"].as_str()),
        (
            413,
            Some("File size is too large. Please select a file smaller than 1MB.")
        ),
        "{e}"
    );
    let (s, _) = app.post("/api/v1/uploads", &json!({"purpose": "qr", "file_name": "qr.gif", "content_type": "image/gif", "size": 10}), t).await;
    assert_eq!(s, 422);
    let (s, link) = app.post("/api/v1/uploads", &json!({"purpose": "qr", "file_name": "my qr.png", "content_type": "image/png", "size": 1024 * 1024}), t).await;
    assert_eq!(s, 200, "{link}");

    let path = "/api/v1/partner/payment-settings/qr";
    let (s, e) = fixtures::put(&app, path, &json!({"description": "Pay us"}), t).await;
    assert_eq!(
        (s, e["error"]["fields"]["qr_key"].as_str()),
        (422, Some("Please select a file")),
        "{e}"
    );
    let logo = stored(&app, a.partner.id, "logo", "card.png", PNG).await;
    let (s, e) = fixtures::put(&app, path, &json!({"qr_key": logo}), t).await;
    assert_eq!(
        (s, e["error"]["fields"]["qr_key"].as_str()),
        (422, Some("Invalid file key: upload the file first")),
        "{e}"
    );
    let page = stored(&app, a.partner.id, "qr", "page.png", HTML).await;
    let (s, _) = fixtures::put(&app, path, &json!({"qr_key": page}), t).await;
    assert_eq!(s, 422);

    // No description: the end users read the default instruction.
    let qr = stored(&app, a.partner.id, "qr", "qr.png", PNG).await;
    let (s, saved) =
        fixtures::put(&app, path, &json!({"qr_key": qr, "description": "   "}), t).await;
    assert_eq!(s, 200, "{saved}");
    assert_eq!(
        (
            saved["qr"]["qr_key"].as_str(),
            saved["qr"]["description"].as_str()
        ),
        (Some(qr.as_str()), Some(""))
    );
    assert!(saved["qr"]["image_url"].is_string());
    assert_eq!(
        saved["card"]["configured"], false,
        "a QR code alone is no card provider"
    );
    let user = portal::token(&app, "payqr", &a.email).await;
    let (_, top_up) = app.get("/api/v1/me/top-up", Some(&user)).await;
    assert_eq!(
        top_up["qr"]["description"],
        domain::portal::top_up::DEFAULT_QR_INSTRUCTION
    );
    assert!(top_up["qr"]["image_url"].is_string());
    assert_eq!(top_up["card"], Value::Null);

    let (s, saved) = fixtures::put(
        &app,
        path,
        &json!({"qr_key": qr, "description": "UPI: acme@upi, GST included"}),
        t,
    )
    .await;
    assert_eq!(
        (s, saved["qr"]["description"].as_str()),
        (200, Some("UPI: acme@upi, GST included"))
    );
    let (_, top_up) = app.get("/api/v1/me/top-up", Some(&user)).await;
    assert_eq!(top_up["qr"]["description"], "UPI: acme@upi, GST included");
    for bad in [
        json!({"qr_key": 5}),
        json!({"qr_key": qr, "description": "x".repeat(1001)}),
        json!({"qr_key": qr, "description": "a\u{0}b"}),
    ] {
        let (s, e) = fixtures::put(&app, path, &bad, t).await;
        assert!((400..500).contains(&s), "{bad} answered {s}");
        portal::assert_error(&e);
    }
}

#[tokio::test]
async fn one_partner_never_reads_or_uses_anothers() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "payiso1").await;
    let b = fixtures::partner(&app, "payiso2").await;
    let logo = stored(&app, a.id, "logo", "card.png", PNG).await;
    let qr = stored(&app, a.id, "qr", "qr.png", PNG).await;
    assert_eq!(
        fixtures::put(
            &app,
            "/api/v1/partner/payment-settings/card",
            &card(&logo),
            Some(&a.token)
        )
        .await
        .0,
        200
    );
    assert_eq!(
        fixtures::put(
            &app,
            "/api/v1/partner/payment-settings/qr",
            &json!({"qr_key": qr}),
            Some(&a.token)
        )
        .await
        .0,
        200
    );
    let (_, got_b) = app
        .get("/api/v1/partner/payment-settings", Some(&b.token))
        .await;
    assert_eq!(
        (
            got_b["card"]["configured"].as_bool(),
            &got_b["qr"]["qr_key"]
        ),
        (Some(false), &Value::Null),
        "{got_b}"
    );
    // b cannot make a's files its own.
    let (s, e) = fixtures::put(
        &app,
        "/api/v1/partner/payment-settings/card",
        &card(&logo),
        Some(&b.token),
    )
    .await;
    assert_eq!(
        (s, e["error"]["fields"]["logo_key"].as_str()),
        (422, Some("Invalid file key: upload the file first"))
    );
    let (s, _) = fixtures::put(
        &app,
        "/api/v1/partner/payment-settings/qr",
        &json!({"qr_key": qr}),
        Some(&b.token),
    )
    .await;
    assert_eq!(s, 422);
    // b saving its own leaves a's untouched.
    let b_logo = stored(&app, b.id, "logo", "b.png", PNG).await;
    let mut b_card = card(&b_logo);
    b_card["key_id"] = json!("rzp_live_BBBB9999");
    assert_eq!(
        fixtures::put(
            &app,
            "/api/v1/partner/payment-settings/card",
            &b_card,
            Some(&b.token)
        )
        .await
        .0,
        200
    );
    let (_, got_a) = app
        .get("/api/v1/partner/payment-settings", Some(&a.token))
        .await;
    assert_eq!(got_a["card"]["key_id"], "********3456");
    assert_eq!(got_a["qr"]["qr_key"], qr.as_str());
}
