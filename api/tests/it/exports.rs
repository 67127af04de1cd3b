//! CSV exports: the request rules, the bytes of the files, the part split, a retried job,
//! tenancy, expiring links, retention, and the S3 path against the tests' S3 server.

use std::time::Duration;

use domain::infra::config::StorageConfig;
use serde_json::{Value, json};
use testkit::S3Server;

use crate::{common::TestApp, fixtures};

/// `n` API calls of one user, one a second from 1 Nov 2026 10:00 IST (04:30 UTC); every
/// seventh has a service name that needs quoting and every fifth a formula-leading PID.
async fn calls(app: &TestApp, partner_id: i64, user_id: i64, n: i64) {
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_type, amount_paise, user_amount_paise, remaining_paise, created_at)
         SELECT $1, $2,
                CASE WHEN g % 7 = 0 THEN 'pan, \"lite\"' || chr(10) || 'v2' ELSE 'pan_verification' END,
                CASE WHEN g % 5 = 0 THEN '=cmd|calc' ELSE 'PID' || g END,
                'success', 200, CASE WHEN g % 2 = 0 THEN 'credit' ELSE 'debit' END, 250, 12345678 + g,
                CASE WHEN g % 3 = 0 THEN NULL ELSE 100000 * g END,
                timestamptz '2026-11-01 04:30:00+00' + (g - 1) * interval '1 second'
           FROM generate_series(1, $3) g",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(n)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

/// One user's rows (`user_id`) are its calls here, not its wallet ledger (User Detail's
/// export, tested in `ledger_truth`): these tests are about the files themselves.
fn body(from: &str, to: &str, kind: &str, user_id: Option<i64>) -> Value {
    let mut b = json!({"kind": kind, "from": from, "to": to});
    if let Some(u) = user_id {
        b["user_id"] = json!(u);
        b["ledger"] = json!(false);
    }
    b
}

/// Requests an export (202), runs the queue, and returns the export as its requester reads it.
pub async fn export(app: &TestApp, token: &str, req: Value) -> Value {
    let (s, b) = app.post("/api/v1/exports", &req, Some(token)).await;
    assert_eq!(s, 202, "{b}");
    assert!(b["job_id"].is_string());
    app.run_pending_jobs().await;
    let (s, e) = app
        .get(&format!("/api/v1/exports/{}", b["export_id"]), Some(token))
        .await;
    assert_eq!(s, 200, "{e}");
    e
}

/// A local-store link is signed for PUBLIC_URL; the test server listens elsewhere.
fn local(app: &TestApp, url: &str) -> String {
    url.replacen(&app.config.public_url, &app.base, 1)
}

pub async fn download(app: &TestApp, url: &str) -> (u16, Vec<u8>) {
    let res = app.client.get(local(app, url)).send().await.unwrap();
    (res.status().as_u16(), res.bytes().await.unwrap().to_vec())
}

pub fn lines(bytes: &[u8]) -> Vec<String> {
    let text = std::str::from_utf8(bytes)
        .unwrap()
        .strip_prefix('\u{feff}')
        .expect("a UTF-8 BOM");
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().collect::<Vec<_>>().join("|"))
        .collect()
}

#[tokio::test]
async fn a_users_transactions_export_as_the_screen_shows_them() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "exporter").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 10).await;
    // Outside the range (31 Oct IST): not exported.
    sqlx::query("UPDATE api_transactions SET created_at = timestamptz '2026-10-31 18:29:59+00' WHERE pid = 'PID1'").execute(&app.db.pool).await.unwrap();

    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-02", "api_transactions", Some(u)),
    )
    .await;
    assert_eq!(e["status"], "completed", "{e}");
    assert_eq!(e["total_records"], 9);
    assert_eq!(e["rows_written"], 9);
    assert_eq!(
        (e["kind"].as_str(), e["from"].as_str(), e["to"].as_str()),
        (
            Some("api_transactions"),
            Some("2026-11-01"),
            Some("2026-11-02")
        )
    );
    let urls = e["urls"].as_array().unwrap();
    assert_eq!(urls.len(), 1);
    let res = app
        .client
        .get(local(&app, urls[0].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"api_transactions_2026-11-01_2026-11-02_part1.csv\""
    );
    let (s, bytes) = download(&app, urls[0].as_str().unwrap()).await;
    assert_eq!(s, 200);
    let text = String::from_utf8(bytes.clone()).unwrap();
    // Header, newest first, IST dates, Indian grouping, quoting and defused formulas.
    let id_at = |secs: i64| {
        let pool = app.db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT id FROM api_transactions WHERE created_at = timestamptz '2026-11-01 04:30:00+00' + make_interval(secs => $1)",
            )
            .bind(secs as f64)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    let (i9, i6, i5, i4) = (
        id_at(9).await,
        id_at(6).await,
        id_at(5).await,
        id_at(4).await,
    );
    assert!(text.starts_with(&format!("\u{feff}#,Date (IST),Transaction ID,PID,Services,Status Code,Status,Amount,Balance,Type\n1,Sun Nov 01 2026 10:00:09,{i9},'=cmd|calc,pan_verification,200,Success,\"₹1,23,456.88\",\"₹10,000.00\",Credit\n")), "{text}");
    assert!(text.contains(&format!("\n4,Sun Nov 01 2026 10:00:06,{i6},PID7,\"pan, \"\"lite\"\"\nv2\",200,Success,\"₹1,23,456.85\",\"₹7,000.00\",Debit\n")), "{text}");
    assert!(text.contains(&format!("\n6,Sun Nov 01 2026 10:00:04,{i4},'=cmd|calc,pan_verification,200,Success,\"₹1,23,456.83\",\"₹5,000.00\",Debit\n")), "{text}");
    assert!(
        text.contains(&format!(
            "\n5,Sun Nov 01 2026 10:00:05,{i5},PID6,pan_verification,200,Success,\"₹1,23,456.84\",NA,Credit\n"
        )),
        "{text}"
    );
    let rows = lines(&bytes);
    assert_eq!(rows.len(), 10, "header and 9 rows");
    assert!(!text.contains("PID1,"), "a row outside the range");

    // The partner may poll the job too, and the list shows the export.
    let (s, j) = app
        .get(
            &format!("/api/v1/jobs/{}", e["job_id"].as_str().unwrap()),
            Some(&p.token),
        )
        .await;
    assert_eq!((s, j["status"].as_str()), (200, Some("done")), "{j}");
    let (s, l) = app.get("/api/v1/exports", Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (l["total"].as_i64(), l["items"][0]["id"].clone()),
        (Some(1), e["id"].clone())
    );
    assert_eq!(l["items"][0]["urls"].as_array().unwrap().len(), 1);
    let (_, l) = app
        .get(
            &format!("/api/v1/exports?kind=api_transactions&user_id={u}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(l["total"], 1);
    let (_, l) = app
        .get(
            &format!("/api/v1/exports?kind=api_logs&user_id={u}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(l["total"], 0);
    let (s, _) = app.get("/api/v1/exports?kind=nope", Some(&p.token)).await;
    assert_eq!(s, 400);
}

#[tokio::test]
async fn an_empty_range_completes_with_no_records() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "emptyexp").await;
    let e = export(
        &app,
        &p.token,
        body("2026-01-01", "2026-01-31", "api_logs", None),
    )
    .await;
    assert_eq!(
        (e["status"].as_str(), e["total_records"].as_i64()),
        (Some("completed"), Some(0)),
        "{e}"
    );
    assert_eq!(e["urls"], json!([]));
}

#[tokio::test]
async fn request_rules_answer_422_in_the_contracts_shape() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "rules").await;
    let today = domain::exports::today_ist(chrono::Utc::now());
    let d = |days: i64| (today + chrono::Duration::days(days)).to_string();
    let cases = [
        (
            json!({"kind": "api_logs", "from": d(1), "to": d(1)}),
            "from",
            "From date cannot be later than today",
        ),
        (
            json!({"kind": "api_logs", "from": d(0), "to": d(2)}),
            "to",
            "To date cannot be later than tomorrow",
        ),
        (
            json!({"kind": "api_logs", "from": d(-1), "to": d(-2)}),
            "from",
            "From date cannot be after To date",
        ),
        (
            json!({"kind": "api_logs", "to": d(0)}),
            "from",
            "From date is required",
        ),
        (
            json!({"kind": "api_logs", "from": "01/11/2026", "to": d(0)}),
            "from",
            "From date must be a date as YYYY-MM-DD",
        ),
        (
            json!({"kind": "everything", "from": d(0), "to": d(0)}),
            "kind",
            "Unknown export kind",
        ),
        (
            json!({"from": d(0), "to": d(0)}),
            "kind",
            "Choose what to export",
        ),
        (
            json!({"kind": "api_logs", "from": d(0), "to": d(0), "partner_id": p.id + 1}),
            "partner_id",
            "Only the super admin",
        ),
    ];
    for (req, field, message) in cases {
        let (s, b) = app.post("/api/v1/exports", &req, Some(&p.token)).await;
        assert_eq!(s, 422, "{req} → {b}");
        assert_eq!(b["error"]["code"], "validation_failed");
        assert!(
            b["error"]["fields"][field]
                .as_str()
                .unwrap_or_default()
                .starts_with(message),
            "{req} → {b}"
        );
    }
    // Today and tomorrow are the latest allowed.
    let (s, b) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "api_logs", "from": d(0), "to": d(1)}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 202, "{b}");
    let (s, _) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "api_logs", "from": d(0), "to": d(0)}),
            None,
        )
        .await;
    assert_eq!(s, 401);
    let (s, b) = app
        .post(
            "/api/v1/exports",
            &json!({"kind": "api_logs", "from": d(0), "to": d(0), "user_id": "x"}),
            Some(&p.token),
        )
        .await;
    assert!(s == 400 || s == 422, "{s} {b}");
    let (s, _) = app.get("/api/v1/exports/abc", Some(&p.token)).await;
    assert!(s == 400 || s == 404);
}

#[tokio::test]
async fn parts_split_at_the_boundary_with_a_header_each() {
    let app = TestApp::spawn_with(|c| c.exports.part_rows = 3).await;
    let p = fixtures::partner(&app, "parts").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 6).await;
    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    assert_eq!(e["total_records"], 6);
    let urls = e["urls"].as_array().unwrap();
    assert_eq!(urls.len(), 2, "exactly two full parts, no empty third: {e}");
    for (i, url) in urls.iter().enumerate() {
        let url = url.as_str().unwrap();
        assert!(url.contains(&format!("_part{}.csv", i + 1)), "{url}");
        let (_, bytes) = download(&app, url).await;
        let rows = lines(&bytes);
        assert_eq!(rows.len(), 4, "header + 3 rows");
        assert!(rows[0].starts_with("#|Date (IST)|"));
        // The running number continues across parts.
        assert!(rows[1].starts_with(&format!("{}|", i * 3 + 1)), "{rows:?}");
    }

    calls(&app, p.id, u, 1).await;
    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    let urls = e["urls"].as_array().unwrap();
    assert_eq!((e["total_records"].as_i64(), urls.len()), (Some(7), 3));
    let (_, bytes) = download(&app, urls[2].as_str().unwrap()).await;
    assert_eq!(
        lines(&bytes).len(),
        2,
        "the last part holds the seventh row alone"
    );
}

/// The files stored under an export's folder (local store).
fn stored_parts(app: &TestApp, export_id: i64) -> Vec<String> {
    let StorageConfig::Local { dir } = &app.config.storage else {
        panic!("local store")
    };
    let mut names: Vec<String> = std::fs::read_dir(dir.join(format!("exports/{export_id}")))
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[tokio::test]
async fn a_retried_job_ends_with_one_set_of_parts_and_one_status() {
    let app = TestApp::spawn_with(|c| c.exports.part_rows = 3).await;
    let p = fixtures::partner(&app, "retried").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 8).await;
    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    let id = e["id"].as_i64().unwrap();
    assert_eq!(stored_parts(&app, id).len(), 3);

    // A worker that uploaded every part and died before writing the status: the row says
    // running, and the queue hands the job out again. Meanwhile two rows left the range, so
    // the retry writes two parts and must remove the third.
    sqlx::query("UPDATE exports SET status = 'running', total_records = NULL, file_keys = '{}', completed_at = NULL WHERE id = $1").bind(id).execute(&app.db.pool).await.unwrap();
    sqlx::query("DELETE FROM api_transactions WHERE pid IN ('PID1', 'PID2')")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let ctx = jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap();
    jobs::Job::run(jobs::ExportCsv { export_id: id }, &ctx)
        .await
        .unwrap();
    let (_, e) = app
        .get(&format!("/api/v1/exports/{id}"), Some(&p.token))
        .await;
    assert_eq!(
        (e["status"].as_str(), e["total_records"].as_i64()),
        (Some("completed"), Some(6)),
        "{e}"
    );
    assert_eq!(e["urls"].as_array().unwrap().len(), 2);
    assert_eq!(
        stored_parts(&app, id),
        [
            "api_transactions_2026-11-01_2026-11-01_part1.csv",
            "api_transactions_2026-11-01_2026-11-01_part2.csv"
        ]
    );

    // A duplicate run after completion changes nothing.
    sqlx::query("DELETE FROM api_transactions")
        .execute(&app.db.pool)
        .await
        .unwrap();
    jobs::Job::run(jobs::ExportCsv { export_id: id }, &ctx)
        .await
        .unwrap();
    let (_, again) = app
        .get(&format!("/api/v1/exports/{id}"), Some(&p.token))
        .await;
    assert_eq!(
        (
            again["total_records"].as_i64(),
            again["completed_at"].clone()
        ),
        (Some(6), e["completed_at"].clone())
    );
    assert_eq!(stored_parts(&app, id).len(), 2);
}

#[tokio::test]
async fn an_export_that_keeps_failing_ends_failed() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "failing").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 2).await;
    // Storage that cannot be written: its folder is a file.
    let StorageConfig::Local { dir } = &app.config.storage else {
        panic!()
    };
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::write(dir, b"not a folder").unwrap();
    let (s, b) = app
        .post(
            "/api/v1/exports",
            &body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 202);
    let path = format!("/api/v1/exports/{}", b["export_id"]);
    for attempt in 1..=5 {
        app.run_pending_jobs().await;
        let (_, e) = app.get(&path, Some(&p.token)).await;
        let expected = if attempt < 5 { "running" } else { "failed" };
        assert_eq!(e["status"], expected, "after attempt {attempt}: {e}");
        // Skip the backoff.
        sqlx::query("UPDATE apalis.jobs SET run_at = now() WHERE id = $1")
            .bind(b["job_id"].as_str().unwrap())
            .execute(&app.db.pool)
            .await
            .unwrap();
    }
    let (_, e) = app.get(&path, Some(&p.token)).await;
    assert_eq!(
        (e["urls"].clone(), e["error"].as_str()),
        (json!([]), Some("The export could not be written"))
    );
}

#[tokio::test]
async fn a_partners_export_never_holds_another_partners_rows() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "tenanta").await;
    let b = fixtures::partner(&app, "tenantb").await;
    let (a1, a2) = (
        fixtures::user(&app, a.id, 1).await,
        fixtures::user(&app, a.id, 2).await,
    );
    let b1 = fixtures::user(&app, b.id, 1).await;
    calls(&app, a.id, a1, 3).await;
    calls(&app, a.id, a2, 2).await;
    calls(&app, b.id, b1, 4).await;

    let e = export(
        &app,
        &a.token,
        body("2026-11-01", "2026-11-01", "api_transactions", None),
    )
    .await;
    assert_eq!(e["total_records"], 5, "{e}");
    let (_, bytes) = download(&app, e["urls"][0].as_str().unwrap()).await;
    let rows = lines(&bytes);
    assert_eq!(
        rows[0],
        "#|Date (IST)|User ID|Email|Transaction ID|PID|Services|Status Code|Status|Amount|Balance|Type"
    );
    let users: std::collections::BTreeSet<i64> = rows[1..]
        .iter()
        .map(|r| r.split('|').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(users, [a1, a2].into());

    // Another partner's user, export and job are 404, as if they did not exist.
    let (s, _) = app
        .post(
            "/api/v1/exports",
            &body("2026-11-01", "2026-11-01", "api_logs", Some(b1)),
            Some(&a.token),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .get(&format!("/api/v1/exports/{}", e["id"]), Some(&b.token))
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .get(
            &format!("/api/v1/jobs/{}", e["job_id"].as_str().unwrap()),
            Some(&b.token),
        )
        .await;
    assert_eq!(s, 404);
    let (_, l) = app.get("/api/v1/exports", Some(&b.token)).await;
    assert_eq!(l["total"], 0);

    // The super admin exports every partner's rows, with a Partner ID column; that export is
    // the super admin's, not a partner's.
    let admin = app.superadmin_token();
    let all = export(
        &app,
        &admin,
        body("2026-11-01", "2026-11-01", "api_transactions", None),
    )
    .await;
    assert_eq!(all["total_records"], 9);
    let (_, bytes) = download(&app, all["urls"][0].as_str().unwrap()).await;
    assert!(lines(&bytes)[0].starts_with("#|Date (IST)|Partner ID|User ID|Email|"));
    let one = export(&app, &admin, json!({"kind": "api_transactions", "from": "2026-11-01", "to": "2026-11-01", "partner_id": b.id})).await;
    assert_eq!(one["total_records"], 4);
    let (s, _) = app
        .get(&format!("/api/v1/exports/{}", one["id"]), Some(&b.token))
        .await;
    assert_eq!(s, 404);
    let (s, _) = app.post("/api/v1/exports", &json!({"kind": "api_logs", "from": "2026-11-01", "to": "2026-11-01", "partner_id": a.id, "user_id": b1}), Some(&admin)).await;
    assert_eq!(s, 404, "a user of another partner than the one named");
}

#[tokio::test]
async fn wallet_entries_of_the_partners_own_wallets() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "walletexp").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let mut conn = app.db.pool.acquire().await.unwrap();
    for (owner, amount) in [
        (domain::wallets::Owner::Partner(p.id), 50_000 * 100),
        (
            domain::wallets::Owner::User {
                partner_id: p.id,
                user_id: u,
            },
            7_00,
        ),
    ] {
        let wallet_id =
            domain::wallets::wallet_id(&mut conn, owner, domain::wallets::WalletKind::Api)
                .await
                .unwrap();
        sqlx::query(
            "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, actor_kind) VALUES ($1, 'credit', $2, $2, 'manual', 'superadmin')",
        )
        .bind(wallet_id)
        .bind(amount)
        .execute(&mut *conn)
        .await
        .unwrap();
    }
    drop(conn);
    let today = domain::exports::today_ist(chrono::Utc::now()).to_string();
    let e = export(
        &app,
        &p.token,
        json!({"kind": "wallet_entries", "from": today, "to": today}),
    )
    .await;
    assert_eq!(e["total_records"], 1, "the partner's own wallet only: {e}");
    let (_, bytes) = download(&app, e["urls"][0].as_str().unwrap()).await;
    let rows = lines(&bytes);
    assert_eq!(rows[0], "#|Date (IST)|Wallet|Type|Amount|Balance");
    assert!(
        rows[1].ends_with("|API|Credit|₹50,000.00|₹50,000.00"),
        "{rows:?}"
    );
    let e = export(
        &app,
        &p.token,
        json!({"kind": "wallet_entries", "from": today, "to": today, "user_id": u}),
    )
    .await;
    assert_eq!(e["total_records"], 1, "{e}");
}

#[tokio::test]
async fn links_expire_and_each_read_signs_fresh_ones() {
    let app = TestApp::spawn_with(|c| c.exports.link_ttl = Duration::from_secs(1)).await;
    let p = fixtures::partner(&app, "expiring").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 2).await;
    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    let old = e["urls"][0].as_str().unwrap().to_owned();
    assert_eq!(download(&app, &old).await.0, 200);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (s, body) = download(&app, &old).await;
    assert_eq!(s, 403, "{}", String::from_utf8_lossy(&body));
    let (_, again) = app
        .get(&format!("/api/v1/exports/{}", e["id"]), Some(&p.token))
        .await;
    let fresh = again["urls"][0].as_str().unwrap();
    assert_ne!(fresh, old);
    assert_eq!(download(&app, fresh).await.0, 200);
}

#[tokio::test]
async fn old_exports_are_removed_after_the_retention() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "retention").await;
    let u = fixtures::user(&app, p.id, 1).await;
    calls(&app, p.id, u, 2).await;
    let old = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    let new = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-01", "api_transactions", Some(u)),
    )
    .await;
    let old_id = old["id"].as_i64().unwrap();
    sqlx::query("UPDATE exports SET completed_at = now() - interval '169 hours' WHERE id = $1")
        .bind(old_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(stored_parts(&app, old_id).len(), 1);
    let ctx = jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap();
    jobs::registry::enqueue_periodic::<jobs::PruneExports>(&ctx, chrono::Utc::now())
        .await
        .unwrap()
        .expect("queued");
    app.run_pending_jobs().await;
    assert!(stored_parts(&app, old_id).is_empty());
    let (s, _) = app
        .get(&format!("/api/v1/exports/{old_id}"), Some(&p.token))
        .await;
    assert_eq!(s, 404);
    let (s, kept) = app
        .get(&format!("/api/v1/exports/{}", new["id"]), Some(&p.token))
        .await;
    assert_eq!((s, kept["status"].as_str()), (200, Some("completed")));
    assert_eq!(
        download(&app, kept["urls"][0].as_str().unwrap()).await.0,
        200
    );
}

#[tokio::test]
async fn exports_go_to_s3_in_multipart_uploads() {
    let server = S3Server::start().await;
    let cfg = server.config();
    let app = TestApp::spawn_with(move |c| {
        c.storage = StorageConfig::S3(cfg);
        c.exports.part_rows = 100_000;
    })
    .await;
    let p = fixtures::partner(&app, "s3exports").await;
    let u = fixtures::user(&app, p.id, 1).await;
    // 130,000 rows: a first part of 100,000 (over 8 MiB, so a multipart upload) and a second
    // of 30,000 (one PutObject).
    calls(&app, p.id, u, 130_000).await;
    let e = export(
        &app,
        &p.token,
        body("2026-11-01", "2026-11-02", "api_transactions", Some(u)),
    )
    .await;
    assert_eq!(
        (e["status"].as_str(), e["total_records"].as_i64()),
        (Some("completed"), Some(130_000)),
        "{e}"
    );
    let urls = e["urls"].as_array().unwrap();
    assert_eq!(urls.len(), 2);
    let mut total = 0;
    for (i, url) in urls.iter().enumerate() {
        let url = url.as_str().unwrap();
        assert!(
            url.starts_with(&server.endpoint),
            "a presigned S3 link: {url}"
        );
        let res = app.client.get(url).send().await.unwrap();
        assert_eq!(res.status(), 200);
        let etag = res
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = res.bytes().await.unwrap();
        let rows = lines(&bytes);
        assert!(rows[1].starts_with(&format!("{}|", i * 100_000 + 1)));
        total += rows.len() - 1;
        if i == 0 {
            assert!(bytes.len() > 8 * 1024 * 1024, "{} bytes", bytes.len());
            assert!(
                etag.trim_matches('"').contains('-'),
                "a multipart object's ETag: {etag}"
            );
        }
    }
    assert_eq!(total, 130_000);
}
