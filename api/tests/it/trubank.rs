//! TruBank: the product API (`/products/bank-statements`, an end user's API key) and the
//! partner's queue (`/partner/bank-statements`): a request is charged once, in one transaction
//! with its row; a short wallet is 402 and writes nothing; files are checked; every key check
//! of the gateway holds; another partner's request is 404 everywhere; a decision mails the user.

use domain::{
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures::{self, count, put},
    gateway_support::key,
};

const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
const HTML: &[u8] = b"<!doctype html><script>alert(1)</script>";

struct Shop {
    partner_id: i64,
    partner_token: String,
    user_id: i64,
    key: String,
    user_wallet: i64,
    partner_wallet: i64,
}

async fn fund(app: &TestApp, owner: Owner, amount: i64) -> i64 {
    let mut conn = app.db.pool.acquire().await.unwrap();
    let w = wallets::wallet_id(&mut conn, owner, WalletKind::Product)
        .await
        .unwrap();
    if amount > 0 {
        let m = Movement {
            wallet_id: w,
            entry_type: EntryType::Credit,
            amount_paise: amount,
            reason: Reason::Manual,
            reference: None,
            idempotency_key: None,
            actor: Actor::system(),
        };
        wallets::apply(&mut conn, &m).await.unwrap();
    }
    w
}

/// A partner, a full-access user with a live key, both product wallets funded.
async fn shop(app: &TestApp, name: &str, user_funds: i64, partner_funds: i64) -> Shop {
    let p = fixtures::partner(app, name).await;
    let user_id = fixtures::user(app, p.id, 1).await;
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let user_wallet = fund(
        app,
        Owner::User {
            partner_id: p.id,
            user_id,
        },
        user_funds,
    )
    .await;
    let partner_wallet = fund(app, Owner::Partner(p.id), partner_funds).await;
    let key = key(app, p.id, user_id, "live").await;
    Shop {
        partner_id: p.id,
        partner_token: p.token,
        user_id,
        key,
        user_wallet,
        partner_wallet,
    }
}

async fn with_key(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    key: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let mut req = app
        .client
        .request(method, app.url(path))
        .header("x-api-key", key);
    if let Some(b) = body {
        req = req.json(b);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn put_file(app: &TestApp, link: &Value, bytes: &[u8]) -> u16 {
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

/// A statement uploaded through the product API's signed link; its key.
async fn upload(app: &TestApp, key: &str, bytes: &[u8]) -> String {
    let body = json!({"file_name": "my statement.pdf", "content_type": "application/pdf", "size": bytes.len()});
    let (s, link) = with_key(
        app,
        reqwest::Method::POST,
        "/api/v1/products/bank-statements/uploads",
        key,
        Some(&body),
    )
    .await;
    assert_eq!(s, 200, "{link}");
    assert_eq!(put_file(app, &link, bytes).await, 200);
    link["key"].as_str().unwrap().to_owned()
}

fn summary(file_key: &str) -> Value {
    json!({"file_key": file_key, "account_name": "Asha Rao", "account_number": "50100123459012", "bank_name": "HDFC Bank"})
}

async fn submit(app: &TestApp, key: &str, body: &Value) -> (u16, Value) {
    with_key(
        app,
        reqwest::Method::POST,
        "/api/v1/products/bank-statements",
        key,
        Some(body),
    )
    .await
}

async fn balance(app: &TestApp, wallet: i64) -> i64 {
    sqlx::query_scalar("SELECT balance_paise FROM wallets WHERE id = $1")
        .bind(wallet)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn queued_mails(app: &TestApp) -> i64 {
    count(
        app,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail'",
    )
    .await
}

#[tokio::test]
async fn a_request_is_charged_once_and_the_partner_decides_it() {
    let app = TestApp::spawn().await;
    let s = shop(&app, "trubank_a", 10_000, 10_000).await;
    // The user pays the product's price plus the partner's margin; the partner pays the price.
    sqlx::query("UPDATE partners SET default_margin_bps = 1250 WHERE id = $1")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let file_key = upload(&app, &s.key, PDF).await;
    assert!(
        file_key.starts_with(&format!(
            "partners/{}/users/{}/statement/",
            s.partner_id, s.user_id
        )),
        "{file_key}"
    );
    assert!(file_key.ends_with("_my_statement.pdf"), "{file_key}");

    let (st, r) = submit(&app, &s.key, &summary(&file_key)).await;
    assert_eq!(st, 201, "{r}");
    let rid = r["request_id"].as_str().unwrap().to_owned();
    assert!(rid.starts_with("TRB"), "{r}");
    assert_eq!(
        (r["status"].as_str(), r["charged_paise"].as_i64()),
        (Some("pending"), Some(5513))
    );
    assert_eq!(
        (
            balance(&app, s.user_wallet).await,
            balance(&app, s.partner_wallet).await
        ),
        (10_000 - 5513, 10_000 - 4900)
    );

    // A retry of the same submission answers the first request and charges nothing.
    let (st, again) = submit(&app, &s.key, &summary(&file_key)).await;
    assert_eq!(
        (st, again["request_id"].as_str()),
        (200, Some(rid.as_str())),
        "{again}"
    );
    // The same file with another summary is a conflict, not a second request.
    let mut other = summary(&file_key);
    other["account_number"] = json!("11112222333344");
    assert_eq!(submit(&app, &s.key, &other).await.0, 409);
    assert_eq!(
        (
            balance(&app, s.user_wallet).await,
            balance(&app, s.partner_wallet).await
        ),
        (10_000 - 5513, 10_000 - 4900)
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM bank_statement_requests").await,
        1
    );

    // The purchase is in the ledgers, the product transactions and logs, by its request id.
    let refs: Vec<(i64, String, i64)> = sqlx::query_as("SELECT wallet_id, reason, amount_paise FROM wallet_entries WHERE reference = $1 ORDER BY id")
        .bind(&rid)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(
        refs,
        vec![
            (s.user_wallet, "product".into(), 5513),
            (s.partner_wallet, "product".into(), 4900)
        ]
    );
    let (product, amount, user_amount, remaining): (String, i64, i64, Option<i64>) =
        sqlx::query_as("SELECT product, amount_paise, user_amount_paise, remaining_paise FROM product_transactions WHERE pid = $1")
            .bind(&rid)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(
        (product.as_str(), amount, user_amount, remaining),
        (
            "Bank Statement Verification",
            4900,
            5513,
            Some(10_000 - 5513)
        )
    );
    assert_eq!(count(&app, "SELECT count(*) FROM product_logs").await, 1);

    // The user reads its own request.
    let (st, mine) = with_key(
        &app,
        reqwest::Method::GET,
        &format!("/api/v1/products/bank-statements/{rid}"),
        &s.key,
        None,
    )
    .await;
    assert_eq!(
        (st, mine["status"].as_str(), mine["bank_name"].as_str()),
        (200, Some("pending"), Some("HDFC Bank")),
        "{mine}"
    );
    assert!(
        mine.get("amount_paise").is_none(),
        "the partner's cost is the partner's business"
    );

    // The partner's queue: the row, and a link that serves the statement.
    let (st, list) = app
        .get("/api/v1/partner/bank-statements", Some(&s.partner_token))
        .await;
    assert_eq!(
        (st, list["total"].as_i64(), list["per_page"].as_i64()),
        (200, Some(1), Some(50)),
        "{list}"
    );
    let item = &list["items"][0];
    assert_eq!(
        (
            item["request_id"].as_str(),
            item["account_name"].as_str(),
            item["account_number"].as_str()
        ),
        (Some(rid.as_str()), Some("Asha Rao"), Some("50100123459012"))
    );
    assert_eq!(
        (
            item["amount_paise"].as_i64(),
            item["user_amount_paise"].as_i64(),
            item["user_id"].as_i64()
        ),
        (Some(4900), Some(5513), Some(s.user_id))
    );
    let id = item["id"].as_i64().unwrap();
    let file_url =
        item["file_url"]
            .as_str()
            .unwrap()
            .replacen(&app.config.public_url, &app.base, 1);
    let res = app.client.get(file_url).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
    let (st, link) = app
        .get(
            &format!("/api/v1/partner/bank-statements/{id}/file"),
            Some(&s.partner_token),
        )
        .await;
    assert_eq!(st, 200, "{link}");
    assert!(
        link["url"].as_str().unwrap().contains("statement"),
        "{link}"
    );

    // Change Status, with the partner's own file and a comment: the user is mailed.
    let (st, up) = app
        .post("/api/v1/uploads", &json!({"purpose": "statement", "file_name": "report.pdf", "content_type": "application/pdf", "size": PDF.len()}), Some(&s.partner_token))
        .await;
    assert_eq!(st, 200, "{up}");
    assert_eq!(put_file(&app, &up, PDF).await, 200);
    let mails = queued_mails(&app).await;
    let body = json!({"status": "Not verified", "comment": "Two pages are missing", "file_key": up["key"]});
    let (st, decided) = put(
        &app,
        &format!("/api/v1/partner/bank-statements/{id}/status"),
        &body,
        Some(&s.partner_token),
    )
    .await;
    assert_eq!(st, 200, "{decided}");
    assert_eq!(
        (decided["status"].as_str(), decided["comment"].as_str()),
        (Some("not_verified"), Some("Two pages are missing"))
    );
    assert!(
        decided["result_file_url"].is_string() && decided["decided_at"].is_string(),
        "{decided}"
    );
    assert_eq!(
        queued_mails(&app).await,
        mails + 1,
        "the mail job was queued with the change"
    );
    let payload: String = sqlx::query_scalar("SELECT convert_from(job, 'UTF8') FROM apalis.jobs WHERE job_type = 'send_mail' ORDER BY id DESC LIMIT 1")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let payload: Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(
        payload["mail"],
        json!({"mail": "bank_statement_decided", "request_id": id}),
        "ids only: {payload}"
    );
    app.run_pending_jobs().await;
    let mail = testkit::outbox_mails(&app.config)
        .into_iter()
        .find(|m| m.subject.contains(&rid))
        .expect("the decision mail");
    assert_eq!(mail.to, format!("user1.{}@example.in", s.partner_id));
    assert_eq!(
        mail.subject,
        format!("Bank statement verification {rid}: Not verified")
    );
    assert!(
        mail.text.contains("Comment: Two pages are missing")
            && mail.text.contains("account ending 9012"),
        "{}",
        mail.text
    );

    // The user sees the decision and the partner's file.
    let (_, mine) = with_key(
        &app,
        reqwest::Method::GET,
        &format!("/api/v1/products/bank-statements/{rid}"),
        &s.key,
        None,
    )
    .await;
    assert_eq!(
        (mine["status"].as_str(), mine["comment"].as_str()),
        (Some("not_verified"), Some("Two pages are missing"))
    );
    assert!(mine["result_file_url"].is_string());

    // Filters.
    let (_, verified) = app
        .get(
            "/api/v1/partner/bank-statements?status=verified",
            Some(&s.partner_token),
        )
        .await;
    assert_eq!(verified["total"], 0);
    let (_, not) = app
        .get(
            &format!(
                "/api/v1/partner/bank-statements?status=not_verified&user_id={}",
                s.user_id
            ),
            Some(&s.partner_token),
        )
        .await;
    assert_eq!(not["total"], 1);
}

#[tokio::test]
async fn a_short_wallet_is_402_and_writes_nothing() {
    let app = TestApp::spawn().await;
    let poor_user = shop(&app, "trubank_poor_user", 4899, 10_000).await;
    let file_key = upload(&app, &poor_user.key, PDF).await;
    let (st, b) = submit(&app, &poor_user.key, &summary(&file_key)).await;
    assert_eq!(
        (st, b["error"]["code"].as_str()),
        (402, Some("insufficient_balance")),
        "{b}"
    );
    assert_eq!(
        (
            balance(&app, poor_user.user_wallet).await,
            balance(&app, poor_user.partner_wallet).await
        ),
        (4899, 10_000)
    );

    let poor_partner = shop(&app, "trubank_poor_partner", 10_000, 100).await;
    let file_key2 = upload(&app, &poor_partner.key, PDF).await;
    assert_eq!(
        submit(&app, &poor_partner.key, &summary(&file_key2))
            .await
            .0,
        402
    );
    assert_eq!(
        (
            balance(&app, poor_partner.user_wallet).await,
            balance(&app, poor_partner.partner_wallet).await
        ),
        (10_000, 100),
        "the user's debit rolled back"
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM bank_statement_requests").await,
        0
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM product_transactions").await,
        0
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM wallet_entries WHERE type = 'debit'"
        )
        .await,
        0
    );

    // Funded, the same upload goes through (the refused attempt did not use it up).
    fund(
        &app,
        Owner::User {
            partner_id: poor_user.partner_id,
            user_id: poor_user.user_id,
        },
        1,
    )
    .await;
    assert_eq!(
        submit(&app, &poor_user.key, &summary(&file_key)).await.0,
        201
    );
    assert_eq!(balance(&app, poor_user.user_wallet).await, 0);
}

#[tokio::test]
async fn files_are_checked() {
    let app = TestApp::spawn().await;
    let s = shop(&app, "trubank_files", 100_000, 100_000).await;
    let link = |body: Value| {
        let app = &app;
        let key = s.key.clone();
        async move {
            with_key(
                app,
                reqwest::Method::POST,
                "/api/v1/products/bank-statements/uploads",
                &key,
                Some(&body),
            )
            .await
        }
    };
    let (st, b) =
        link(json!({"file_name": "statement.png", "content_type": "image/png", "size": 100})).await;
    assert_eq!(
        (st, b["error"]["fields"]["content_type"].as_str()),
        (422, Some("Please select a PDF file")),
        "{b}"
    );
    let (st, b) = link(json!({"file_name": "statement.pdf", "content_type": "application/pdf", "size": 11 * 1024 * 1024})).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (
            413,
            Some("File size is too large. Please select a file smaller than 10MB.")
        ),
        "{b}"
    );
    let (st, b) =
        link(json!({"file_name": "", "content_type": "application/pdf", "size": 0})).await;
    assert_eq!(
        (st, b["error"]["fields"]["file_name"].as_str()),
        (422, Some("Please select a file")),
        "{b}"
    );
    assert_eq!(link(json!({"file_name": 7})).await.0 / 100, 4);

    // A page sent as a PDF is found by its bytes, removed, and refused.
    let html = upload(&app, &s.key, HTML).await;
    let (st, b) = submit(&app, &s.key, &summary(&html)).await;
    assert_eq!(
        (st, b["error"]["fields"]["file_key"].as_str()),
        (422, Some("Please select a PDF file")),
        "{b}"
    );
    assert!(!app.state.storage.exists(&html).await.unwrap());
    // A key never uploaded, another user's folder, or no key at all.
    let folder = format!("partners/{}/users/{}/statement/", s.partner_id, s.user_id);
    let (st, b) = submit(&app, &s.key, &summary(&format!("{folder}ABCDE_none.pdf"))).await;
    assert_eq!(
        (st, b["error"]["fields"]["file_key"].as_str()),
        (422, Some("Please select a file")),
        "{b}"
    );
    let other = fixtures::user(&app, s.partner_id, 2).await;
    let (st, b) = submit(
        &app,
        &s.key,
        &summary(&format!(
            "partners/{}/users/{other}/statement/ABCDE_x.pdf",
            s.partner_id
        )),
    )
    .await;
    assert_eq!(
        (st, b["error"]["fields"]["file_key"].as_str()),
        (422, Some("Invalid file key: upload the file first")),
        "{b}"
    );
    let (st, b) = submit(&app, &s.key, &json!({})).await;
    assert_eq!(st, 422, "{b}");
    for field in ["file_key", "account_name", "account_number", "bank_name"] {
        assert!(b["error"]["fields"][field].is_string(), "{field}: {b}");
    }
    let pdf = upload(&app, &s.key, PDF).await;
    let mut bad = summary(&pdf);
    bad["account_number"] = json!("12-34");
    let (st, b) = submit(&app, &s.key, &bad).await;
    assert_eq!(
        (st, b["error"]["fields"]["account_number"].as_str()),
        (422, Some("Account number must be 6 to 20 digits"))
    );
    bad["account_number"] = json!(123456);
    assert_eq!(
        submit(&app, &s.key, &bad).await.0 / 100,
        4,
        "a number where text is expected is a 4xx"
    );
    let res = app
        .client
        .post(app.url("/api/v1/products/bank-statements"))
        .header("x-api-key", &s.key)
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16() / 100, 4);
    assert_eq!(
        count(&app, "SELECT count(*) FROM bank_statement_requests").await,
        0
    );
    assert_eq!(balance(&app, s.user_wallet).await, 100_000);
}

#[tokio::test]
async fn the_gateway_key_checks_hold() {
    let app = TestApp::spawn().await;
    let s = shop(&app, "trubank_keys", 100_000, 100_000).await;
    let file_key = upload(&app, &s.key, PDF).await;
    let body = summary(&file_key);
    assert_eq!(
        app.post("/api/v1/products/bank-statements", &body, None)
            .await
            .0,
        401
    );
    assert_eq!(submit(&app, "kyc_live_nope", &body).await.0, 401);
    assert_eq!(
        submit(&app, "kyc_live_0123456789abcdefghijABCDEFGHIJ01", &body)
            .await
            .0,
        401
    );
    // A partner's session is not an API key.
    assert_eq!(
        app.post(
            "/api/v1/products/bank-statements",
            &body,
            Some(&s.partner_token)
        )
        .await
        .0,
        401
    );

    let sandbox = key(&app, s.partner_id, s.user_id, "sandbox").await;
    let (st, b) = submit(&app, &sandbox, &body).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (
            403,
            Some("Bank statement verification needs a live API key")
        ),
        "{b}"
    );

    let set = |sql: &'static str, id: i64| {
        let pool = app.db.pool.clone();
        async move { sqlx::query(sql).bind(id).execute(&pool).await.unwrap() }
    };
    set(
        "UPDATE end_users SET full_access = false WHERE id = $1",
        s.user_id,
    )
    .await;
    assert_eq!(submit(&app, &s.key, &body).await.0, 403);
    set(
        "UPDATE end_users SET full_access = true, is_active = false WHERE id = $1",
        s.user_id,
    )
    .await;
    assert_eq!(submit(&app, &s.key, &body).await.0, 403);
    set(
        "UPDATE end_users SET is_active = true WHERE id = $1",
        s.user_id,
    )
    .await;
    set(
        "UPDATE partners SET restrict_all_apis = true WHERE id = $1",
        s.partner_id,
    )
    .await;
    assert_eq!(submit(&app, &s.key, &body).await.0, 403);
    set(
        "UPDATE partners SET restrict_all_apis = false, is_active = false WHERE id = $1",
        s.partner_id,
    )
    .await;
    assert_eq!(submit(&app, &s.key, &body).await.0, 403);
    set(
        "UPDATE partners SET is_active = true, server_security = true WHERE id = $1",
        s.partner_id,
    )
    .await;
    let (st, b) = submit(&app, &s.key, &body).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("This IP address is not allow-listed"))
    );
    set(
        "UPDATE partners SET server_security = false WHERE id = $1",
        s.partner_id,
    )
    .await;
    sqlx::query("INSERT INTO blocked_ips (partner_id, user_id, ip, comments) VALUES ($1, $2, '127.0.0.1', 'abuse')")
        .bind(s.partner_id)
        .bind(s.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (st, b) = submit(&app, &s.key, &body).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("This IP address is blocked"))
    );
    sqlx::query("DELETE FROM blocked_ips")
        .execute(&app.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE api_keys SET revoked_at = now() WHERE partner_id = $1 AND mode = 'live'")
        .bind(s.partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(submit(&app, &s.key, &body).await.0, 401);
    assert_eq!(
        count(&app, "SELECT count(*) FROM bank_statement_requests").await,
        0
    );
    assert_eq!(
        balance(&app, s.user_wallet).await,
        100_000,
        "no refusal moved money"
    );
}

#[tokio::test]
async fn another_tenant_gets_404_everywhere() {
    let app = TestApp::spawn().await;
    let a = shop(&app, "trubank_tenant_a", 100_000, 100_000).await;
    let b = shop(&app, "trubank_tenant_b", 100_000, 100_000).await;
    let file_key = upload(&app, &a.key, PDF).await;
    let (_, r) = submit(&app, &a.key, &summary(&file_key)).await;
    let rid = r["request_id"].as_str().unwrap().to_owned();
    let id: i64 =
        sqlx::query_scalar("SELECT id FROM bank_statement_requests WHERE request_id = $1")
            .bind(&rid)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();

    // Partner B sees nothing of A's queue.
    let (st, list) = app
        .get("/api/v1/partner/bank-statements", Some(&b.partner_token))
        .await;
    assert_eq!((st, list["total"].as_i64()), (200, Some(0)));
    let (st, list) = app
        .get(
            &format!("/api/v1/partner/bank-statements?user_id={}", a.user_id),
            Some(&b.partner_token),
        )
        .await;
    assert_eq!((st, list["total"].as_i64()), (200, Some(0)));
    assert_eq!(
        app.get(
            &format!("/api/v1/partner/bank-statements/{id}"),
            Some(&b.partner_token)
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get(
            &format!("/api/v1/partner/bank-statements/{id}/file"),
            Some(&b.partner_token)
        )
        .await
        .0,
        404
    );
    let mails = queued_mails(&app).await;
    let (st, _) = put(
        &app,
        &format!("/api/v1/partner/bank-statements/{id}/status"),
        &json!({"status": "verified"}),
        Some(&b.partner_token),
    )
    .await;
    assert_eq!(st, 404);
    assert_eq!(queued_mails(&app).await, mails);
    let status: String =
        sqlx::query_scalar("SELECT status FROM bank_statement_requests WHERE id = $1")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(status, "pending");

    // Another partner's user, and another user of the same partner, cannot read it.
    assert_eq!(
        with_key(
            &app,
            reqwest::Method::GET,
            &format!("/api/v1/products/bank-statements/{rid}"),
            &b.key,
            None
        )
        .await
        .0,
        404
    );
    let neighbour = fixtures::user(&app, a.partner_id, 2).await;
    sqlx::query("UPDATE end_users SET full_access = true WHERE id = $1")
        .bind(neighbour)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let neighbour_key = key(&app, a.partner_id, neighbour, "live").await;
    assert_eq!(
        with_key(
            &app,
            reqwest::Method::GET,
            &format!("/api/v1/products/bank-statements/{rid}"),
            &neighbour_key,
            None
        )
        .await
        .0,
        404
    );
    // Nor submit A's upload as its own.
    let (st, body) = submit(&app, &neighbour_key, &summary(&file_key)).await;
    assert_eq!(
        (st, body["error"]["fields"]["file_key"].as_str()),
        (422, Some("Invalid file key: upload the file first"))
    );

    // The super admin and end users are not partners.
    assert_eq!(
        app.get(
            "/api/v1/partner/bank-statements",
            Some(&app.superadmin_token())
        )
        .await
        .0,
        403
    );
    assert_eq!(
        app.get("/api/v1/partner/bank-statements", None).await.0,
        401
    );
}

#[tokio::test]
async fn bad_inputs_on_the_queue_are_4xx() {
    let app = TestApp::spawn().await;
    let s = shop(&app, "trubank_bad", 100_000, 100_000).await;
    let file_key = upload(&app, &s.key, PDF).await;
    submit(&app, &s.key, &summary(&file_key)).await;
    let id: i64 = sqlx::query_scalar("SELECT id FROM bank_statement_requests")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let path = format!("/api/v1/partner/bank-statements/{id}/status");
    let t = Some(s.partner_token.as_str());

    let (st, b) = put(&app, &path, &json!({}), t).await;
    assert_eq!(
        (st, b["error"]["fields"]["status"].as_str()),
        (422, Some("Status is required")),
        "{b}"
    );
    let (st, b) = put(&app, &path, &json!({"status": "pending"}), t).await;
    assert_eq!(
        (st, b["error"]["fields"]["status"].as_str()),
        (422, Some("Status must be Verified or Not verified"))
    );
    let (st, b) = put(
        &app,
        &path,
        &json!({"status": "verified", "comment": "x".repeat(1001)}),
        t,
    )
    .await;
    assert_eq!(
        (st, b["error"]["fields"]["comment"].as_str()),
        (422, Some("Comment must be at most 1000 characters"))
    );
    let (st, b) = put(
        &app,
        &path,
        &json!({"status": "verified", "file_key": file_key}),
        t,
    )
    .await;
    assert_eq!(
        (st, b["error"]["fields"]["file_key"].as_str()),
        (422, Some("Invalid file key: upload the file first")),
        "the user's file is not the partner's upload"
    );
    let (st, b) = put(&app, &path, &json!({"status": "verified", "file_key": format!("partners/{}/statement/ABCDE_gone.pdf", s.partner_id)}), t).await;
    assert_eq!(
        (st, b["error"]["fields"]["file_key"].as_str()),
        (422, Some("Please select a file"))
    );
    assert_eq!(put(&app, &path, &json!({"status": 1}), t).await.0 / 100, 4);
    assert_eq!(
        put(
            &app,
            &path,
            &json!({"status": "verified", "comment": "\u{0}"}),
            t
        )
        .await
        .0 / 100,
        4
    );
    assert_eq!(
        put(
            &app,
            "/api/v1/partner/bank-statements/abc/status",
            &json!({"status": "verified"}),
            t
        )
        .await
        .0 / 100,
        4
    );
    assert_eq!(
        put(
            &app,
            "/api/v1/partner/bank-statements/99999999999/status",
            &json!({"status": "verified"}),
            t
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get("/api/v1/partner/bank-statements/abc/file", t)
            .await
            .0
            / 100,
        4
    );
    assert_eq!(
        app.get("/api/v1/partner/bank-statements?status=maybe", t)
            .await
            .0,
        422
    );
    assert_eq!(
        app.get("/api/v1/partner/bank-statements?user_id=12a", t)
            .await
            .0,
        422
    );
    assert_eq!(
        app.get(
            "/api/v1/partner/bank-statements?user_id=99999999999999999999",
            t
        )
        .await
        .0,
        422
    );
    assert_eq!(
        app.get("/api/v1/partner/bank-statements?page=-1&per_page=100000", t)
            .await
            .0,
        200
    );
    assert_eq!(
        with_key(
            &app,
            reqwest::Method::GET,
            "/api/v1/products/bank-statements/%00",
            &s.key,
            None
        )
        .await
        .0,
        404
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail'"
        )
        .await,
        0
    );

    // A plain decision, then another: the later one replaces it.
    let (st, b) = put(&app, &path, &json!({"status": "Verified"}), t).await;
    assert_eq!(
        (st, b["status"].as_str(), b["comment"].clone()),
        (200, Some("verified"), Value::Null),
        "{b}"
    );
    let (st, b) = put(
        &app,
        &path,
        &json!({"status": "not_verified", "comment": "Blurred"}),
        t,
    )
    .await;
    assert_eq!(
        (st, b["status"].as_str(), b["comment"].as_str()),
        (200, Some("not_verified"), Some("Blurred"))
    );
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail'"
        )
        .await,
        2
    );
}
