//! Batch verification: submission rules, every row through the gateway's checks and charging,
//! each successful row charged exactly once however the job is stopped, resumed or doubled, the
//! result file, and tenancy.

use jobs::Job;
use serde_json::{Value, json};

use crate::{
    common::TestApp,
    fixtures,
    gateway_support::{self as gs, FAIL_500, Upstream},
    portal::{self as site},
};

async fn fast_app() -> TestApp {
    TestApp::spawn_with(|c| c.gateway.batch_rows_per_second = 1_000).await
}

async fn enable(app: &TestApp, partner_id: i64) {
    sqlx::query("UPDATE partners SET batch_processing = true WHERE id = $1")
        .bind(partner_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
}

/// `POST /verify/{service}/batch` with `key` and a CSV body.
async fn submit(app: &TestApp, key: &str, service: &str, csv: &str) -> (u16, Value) {
    let res = app
        .client
        .post(app.url(&format!(
            "/api/v1/verify/{service}/batch?file_name=people.csv"
        )))
        .header("x-api-key", key)
        .header("content-type", "text/csv")
        .body(csv.to_owned())
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

async fn key_get(app: &TestApp, key: &str, path: &str) -> (u16, String) {
    let res = app
        .client
        .get(app.url(path))
        .header("x-api-key", key)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

fn rows(n: usize) -> String {
    let mut csv = String::from("id_number,name\n");
    for i in 1..=n {
        csv.push_str(&format!("ID{i:04},Person {i}\n"));
    }
    csv
}

async fn job_ctx(app: &TestApp) -> jobs::JobContext {
    jobs::JobContext::new(app.db.pool.clone(), app.config.clone()).unwrap()
}

/// Every gateway transaction of the batch, by row key: (charges, successes).
async fn charges_of(app: &TestApp, batch_id: i64) -> (i64, i64) {
    sqlx::query_as("SELECT count(*), count(*) FILTER (WHERE status = 'success') FROM api_transactions WHERE idempotency_key LIKE $1")
        .bind(format!("batch:{batch_id}:%"))
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn batch_rows_run_through_the_gateway_and_only_successes_are_charged() {
    let app = fast_app().await;
    let up = Upstream::start().await;
    // Ten calls' worth for the user.
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 3_000, 10_000).await;

    // Off until the super admin turns Batch Processing on; nothing is written.
    let (st, b) = submit(&app, &s.key, "pan_check", &rows(3)).await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (
            403,
            Some("Batch processing is not enabled for your account")
        ),
        "{b}"
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM batches").await,
        0
    );
    enable(&app, s.partner_id).await;

    // Twelve rows: the fifth lacks its required field, and the user can pay for ten.
    let mut csv = String::from("id_number,name\n");
    for i in 1..=12 {
        let id = if i == 5 {
            String::new()
        } else {
            format!("ID{i}")
        };
        csv.push_str(&format!("{id},Person {i}\n"));
    }
    let (st, b) = submit(&app, &s.key, "pan_check", &csv).await;
    assert_eq!(st, 202, "{b}");
    assert_eq!(
        (
            b["status"].as_str(),
            b["total_rows"].as_i64(),
            b["file_name"].as_str(),
            b["sandbox"].as_bool()
        ),
        (Some("queued"), Some(12), Some("people.csv"), Some(false))
    );
    assert!(b["job_id"].is_string());
    let id = b["id"].as_i64().unwrap();
    assert_eq!(
        gs::balance(&app, s.user_wallet).await,
        3_000,
        "nothing is charged before the job runs"
    );

    app.run_pending_jobs().await;
    let (st, text) = key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}")).await;
    let b: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        (
            b["status"].as_str(),
            b["done_rows"].as_i64(),
            b["charged_rows"].as_i64(),
            b["failed_rows"].as_i64(),
            b["charged_paise"].as_i64()
        ),
        (Some("completed"), Some(12), Some(10), Some(2), Some(3_000)),
        "{b}"
    );
    assert!(b["finished_at"].is_string());
    assert_eq!(up.hits(), 10, "the refused rows never reach the upstream");
    assert_eq!(gs::balance(&app, s.user_wallet).await, 0);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 7_000);
    assert_eq!(charges_of(&app, id).await, (10, 10));
    // The calls are in the user's API log like any other.
    assert_eq!(
        fixtures::count(
            &app,
            "SELECT count(*) FROM api_logs WHERE status_code = 200"
        )
        .await,
        10
    );
    gs::audit(&app).await;

    // The result file: a header, then every row in file order with its outcome.
    let (st, text) = key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}/result")).await;
    assert_eq!(st, 200);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "Row",
            "id_number",
            "name",
            "Status",
            "Status Code",
            "Transaction ID",
            "Amount Charged",
            "Result"
        ]
    );
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), 12);
    assert_eq!(
        (
            &recs[0][0],
            &recs[0][1],
            &recs[0][3],
            &recs[0][4],
            &recs[0][6]
        ),
        ("1", "ID1", "Success", "200", "₹3.00")
    );
    assert!(
        recs[0][7].contains("\"ok\":true"),
        "the upstream's answer: {}",
        &recs[0][7]
    );
    assert_eq!(
        (&recs[4][3], &recs[4][4], &recs[4][5], &recs[4][7]),
        ("Failed", "422", "", "id_number is required")
    );
    assert_eq!(
        (&recs[11][3], &recs[11][4], &recs[11][7]),
        ("Failed", "402", "Insufficient balance")
    );

    // The same job delivered again: nothing runs twice.
    let ctx = job_ctx(&app).await;
    jobs::RunBatch { batch_id: id }.run(&ctx).await.unwrap();
    assert_eq!((up.hits(), gs::balance(&app, s.user_wallet).await), (10, 0));
}

#[tokio::test]
async fn failed_upstream_rows_are_refunded_and_say_so() {
    let app = fast_app().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 300, 3_000, 3_000).await;
    enable(&app, s.partner_id).await;
    up.set(FAIL_500);
    let (st, b) = submit(&app, &s.key, "pan_check", &rows(3)).await;
    assert_eq!(st, 202, "{b}");
    app.run_pending_jobs().await;
    let id = b["id"].as_i64().unwrap();
    let b: Value = serde_json::from_str(
        &key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}"))
            .await
            .1,
    )
    .unwrap();
    assert_eq!(
        (
            b["charged_rows"].as_i64(),
            b["failed_rows"].as_i64(),
            b["charged_paise"].as_i64()
        ),
        (Some(0), Some(3), Some(0))
    );
    assert_eq!(charges_of(&app, id).await, (3, 0), "charged, then refunded");
    assert_eq!(
        (
            gs::balance(&app, s.user_wallet).await,
            gs::balance(&app, s.partner_wallet).await
        ),
        (3_000, 3_000)
    );
    let text = key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}/result"))
        .await
        .1;
    assert!(
        text.contains("The verification provider answered with status 500; you were not charged"),
        "{text}"
    );
    gs::audit(&app).await;
}

#[tokio::test]
async fn a_batch_stopped_resumed_or_run_twice_charges_each_row_once() {
    let app = TestApp::spawn_with(|c| c.gateway.batch_rows_per_second = 40).await;
    let up = Upstream::start().await;
    let s = gs::live(
        &app,
        "acme",
        &up.base,
        "pan_check",
        300,
        1_000_000,
        1_000_000,
    )
    .await;
    enable(&app, s.partner_id).await;
    let ctx = job_ctx(&app).await;

    // A run stopped between a row's charge and its settlement leaves the row charged: the next
    // run calls it again and settles that one transaction.
    let (_, b) = submit(&app, &s.key, "pan_check", &rows(40)).await;
    let id = b["id"].as_i64().unwrap();
    {
        let mut conn = app.db.pool.acquire().await.unwrap();
        let caller = domain::gateway::key_caller(
            &mut conn,
            sqlx::query_scalar("SELECT key_id FROM batches WHERE id = $1")
                .bind(id)
                .fetch_one(&app.db.pool)
                .await
                .unwrap(),
            "127.0.0.1".parse().unwrap(),
        )
        .await
        .unwrap();
        let input = json!({"id_number": "ID0001"}).as_object().unwrap().clone();
        let call = domain::gateway::authorize(&mut conn, &caller, "pan_check", &input)
            .await
            .unwrap();
        let charge = domain::gateway::call::charge_of(
            &app.db.pool,
            &caller,
            &call,
            Some(domain::gateway::batches::charge_key(id, 1)),
        )
        .await
        .unwrap();
        let mut tx = sqlx::Connection::begin(&mut *conn).await.unwrap();
        let out = domain::wallets::charge::apply_in(
            &mut tx,
            &[domain::wallets::charge::Item::Charge(charge)],
        )
        .await
        .unwrap();
        let domain::wallets::charge::Outcome::Charged { transaction_id, .. } = out[0] else {
            panic!("{out:?}")
        };
        domain::gateway::batches::mark_charged(&mut tx, id, 1, transaction_id)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    // Stopped again part-way (the task is dropped wherever it is, as a killed worker would be).
    let running = tokio::spawn({
        let ctx = ctx.clone();
        async move { jobs::RunBatch { batch_id: id }.run(&ctx).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    running.abort();
    let _ = running.await;
    let (_, done_part) = charges_of(&app, id).await;
    assert!(
        done_part > 0 && done_part < 40,
        "stopped part-way: {done_part} rows done"
    );
    jobs::RunBatch { batch_id: id }.run(&ctx).await.unwrap();
    assert_eq!(charges_of(&app, id).await, (40, 40));
    let b: Value = serde_json::from_str(
        &key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}"))
            .await
            .1,
    )
    .unwrap();
    assert_eq!(
        (
            b["status"].as_str(),
            b["done_rows"].as_i64(),
            b["charged_rows"].as_i64(),
            b["charged_paise"].as_i64()
        ),
        (Some("completed"), Some(40), Some(40), Some(12_000))
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000_000 - 12_000);

    // Two runs of one batch at once (a worker thought dead still running): each row once.
    let (_, b) = submit(&app, &s.key, "pan_check", &rows(30)).await;
    let id2 = b["id"].as_i64().unwrap();
    let (a, b2) = tokio::join!(
        jobs::RunBatch { batch_id: id2 }.run(&ctx),
        jobs::RunBatch { batch_id: id2 }.run(&ctx)
    );
    a.unwrap();
    b2.unwrap();
    assert_eq!(charges_of(&app, id2).await, (30, 30));
    let b: Value = serde_json::from_str(
        &key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id2}"))
            .await
            .1,
    )
    .unwrap();
    assert_eq!(
        (
            b["done_rows"].as_i64(),
            b["charged_rows"].as_i64(),
            b["charged_paise"].as_i64()
        ),
        (Some(30), Some(30), Some(9_000))
    );
    assert_eq!(gs::balance(&app, s.user_wallet).await, 1_000_000 - 21_000);
    gs::audit(&app).await;
}

#[tokio::test]
async fn portal_batches_are_the_users_own_and_bad_files_are_422() {
    let app = fast_app().await;
    let a = site::site(&app, "acme").await;
    let t = site::token(&app, "acme", &a.email).await;
    let api_id = fixtures::api(&app, "pan_check", 300).await;
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(api_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    gs::credit(&app, domain::wallets::Owner::Partner(a.partner.id), 10_000).await;
    gs::credit(
        &app,
        domain::wallets::Owner::User {
            partner_id: a.partner.id,
            user_id: a.user_id,
        },
        10_000,
    )
    .await;
    let post = |path: String, body: String, token: Option<String>| {
        let app = &app;
        async move {
            let mut req = app
                .client
                .post(app.url(&path))
                .header("content-type", "text/csv")
                .body(body);
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            let res = req.send().await.unwrap();
            (
                res.status().as_u16(),
                res.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    let me = Some(t.clone());

    assert_eq!(
        post(
            "/api/v1/me/batches?service=pan_check&mode=sandbox".into(),
            rows(2),
            None
        )
        .await
        .0,
        401
    );
    let (st, b) = post(
        "/api/v1/me/batches?service=pan_check&mode=sandbox".into(),
        rows(2),
        me.clone(),
    )
    .await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (
            403,
            Some("Batch processing is not enabled for your account")
        )
    );
    enable(&app, a.partner.id).await;

    // Bad requests: each a 4xx in the contract's shape, nothing written.
    for (path, body, status, message) in [
        (
            "/api/v1/me/batches?service=pan_check&mode=gold",
            rows(1),
            422,
            "Mode must be live or sandbox",
        ),
        (
            "/api/v1/me/batches?service=nope&mode=sandbox",
            rows(1),
            404,
            "",
        ),
        (
            "/api/v1/me/batches?service=pan_check&mode=sandbox",
            "name\nAsha\n".into(),
            422,
            "The file has no column for: id_number",
        ),
        (
            "/api/v1/me/batches?service=pan_check&mode=sandbox",
            "id_number\n".into(),
            422,
            "The file has no rows",
        ),
        (
            "/api/v1/me/batches?service=pan_check&mode=sandbox",
            String::new(),
            422,
            "The first row must name the columns",
        ),
        (
            "/api/v1/me/batches?service=pan_check&mode=sandbox",
            format!("id_number\n{}", "X\n".repeat(1_100_000)),
            413,
            "The file is larger than 2 MB",
        ),
    ] {
        let (st, b) = post(path.into(), body, me.clone()).await;
        assert_eq!(st, status, "{path}: {b}");
        assert!(b["error"]["code"].is_string(), "{b}");
        if !message.is_empty() {
            assert_eq!(b["error"]["message"], message, "{path}");
        }
    }
    // The user is a sandbox user here (partial access): a live batch is refused like a live call.
    sqlx::query("UPDATE end_users SET full_access = false WHERE id = $1")
        .bind(a.user_id)
        .execute(&app.db.pool)
        .await
        .unwrap();
    let (st, b) = post(
        "/api/v1/me/batches?service=pan_check".into(),
        rows(1),
        me.clone(),
    )
    .await;
    assert_eq!(
        (st, b["error"]["message"].as_str()),
        (403, Some("Partial access allows sandbox calls only"))
    );
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM batches").await,
        0
    );

    // Charged, to see the money of a sandbox batch: this partner charges its sandbox calls.
    gs::charge_sandbox(&app, a.partner.id).await;
    let (st, b) = post(
        "/api/v1/me/batches?service=pan_check&mode=sandbox&file_name=kyc.csv".into(),
        rows(3),
        me.clone(),
    )
    .await;
    assert_eq!(st, 202, "{b}");
    assert_eq!(b["sandbox"], true);
    let id = b["id"].as_i64().unwrap();
    app.run_pending_jobs().await;
    let (st, b) = app.get(&format!("/api/v1/me/batches/{id}"), Some(&t)).await;
    assert_eq!(
        (
            st,
            b["status"].as_str(),
            b["charged_rows"].as_i64(),
            b["charged_paise"].as_i64()
        ),
        (200, Some("completed"), Some(3), Some(900)),
        "{b}"
    );
    let (_, list) = app.get("/api/v1/me/batches", Some(&t)).await;
    assert_eq!(
        (
            list["total"].as_i64(),
            list["items"][0]["file_name"].as_str()
        ),
        (Some(1), Some("kyc.csv"))
    );
    let res = app
        .client
        .get(app.url(&format!("/api/v1/me/batches/{id}/result")))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    let text = res.text().await.unwrap();
    let first = csv::Reader::from_reader(text.as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap();
    let answer: Value = serde_json::from_str(&first[7]).unwrap();
    assert_eq!(
        crate::gateway_support::sample_of(answer),
        json!({"status": "ok"}),
        "the sample answers a sandbox batch"
    );

    // Another user of the partner, another partner's user and its key: 404, never the batch.
    let (_, email2) = site::user_with_password(&app, a.partner.id, 2).await;
    let t2 = site::token(&app, "acme", &email2).await;
    let b2 = site::site(&app, "other").await;
    let t3 = site::token(&app, "other", &b2.email).await;
    for tok in [&t2, &t3] {
        assert_eq!(
            app.get(&format!("/api/v1/me/batches/{id}"), Some(tok))
                .await
                .0,
            404
        );
        assert_eq!(
            app.get(&format!("/api/v1/me/batches/{id}/result"), Some(tok))
                .await
                .0,
            404
        );
        assert_eq!(app.get("/api/v1/me/batches", Some(tok)).await.1["total"], 0);
    }
    let other_key = gs::key(&app, b2.partner.id, b2.user_id, "live").await;
    assert_eq!(
        key_get(&app, &other_key, &format!("/api/v1/verify/batches/{id}"))
            .await
            .0,
        404
    );
    assert_eq!(
        key_get(
            &app,
            &other_key,
            &format!("/api/v1/verify/batches/{id}/result")
        )
        .await
        .0,
        404
    );
    assert_eq!(
        key_get(
            &app,
            "kyc_live_nope",
            &format!("/api/v1/verify/batches/{id}")
        )
        .await
        .0,
        401
    );
}

/// Issue 22, finding 4: users' cells come back neutralised in the result file (the column
/// names too), and a file a lenient reader would fold or pad is refused naming the line,
/// before anything is written or charged.
#[tokio::test]
async fn result_files_neutralise_formulas_and_bad_csv_is_refused_naming_the_line() {
    let app = fast_app().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "acme", &up.base, "pan_check", 100, 10_000, 10_000).await;
    enable(&app, s.partner_id).await;

    for (csv, line_msg) in [
        (
            "id_number,name\n\"ABCDE1234F,Asha\nXYZ,Ravi\n",
            "Row 2 has a quote that is never closed",
        ),
        (
            "id_number,name\nA1,Asha\nB2\n",
            "Row 3 has 1 cells but the file has 2 columns",
        ),
        (
            "id_number,name\nA1,As\"ha\n",
            "Row 2 has a quote inside a cell that does not start with one",
        ),
    ] {
        let (st, b) = submit(&app, &s.key, "pan_check", csv).await;
        assert_eq!(st, 422, "{csv:?}: {b}");
        assert_eq!(b["error"]["fields"]["file"], line_msg, "{csv:?}");
    }
    assert_eq!(
        fixtures::count(&app, "SELECT count(*) FROM batches").await,
        0
    );

    let csv = "id_number,\"=HYPERLINK(\"\"http://evil\"\")\"\n\
               \"=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",+1+2\n\
               @SUM(A1),=cmd|' /C calc'!A0\n\
               \"\t=1+1\",-3\n";
    let (st, b) = submit(&app, &s.key, "pan_check", csv).await;
    assert_eq!(st, 202, "{b}");
    let id = b["id"].as_i64().unwrap();
    app.run_pending_jobs().await;
    let (st, text) = key_get(&app, &s.key, &format!("/api/v1/verify/batches/{id}/result")).await;
    assert_eq!(st, 200);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(&r.headers().unwrap()[2], "'=HYPERLINK(\"http://evil\")");
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let cells: Vec<(&str, &str)> = recs.iter().map(|r| (&r[1], &r[2])).collect();
    assert_eq!(
        cells,
        [
            ("'=HYPERLINK(\"http://evil\",\"x\")", "'+1+2"),
            ("'@SUM(A1)", "'=cmd|' /C calc'!A0"),
            ("'=1+1", "'-3"),
        ]
    );
    for rec in &recs {
        for c in rec.iter() {
            assert!(
                !domain::infra::spreadsheet::is_formula_like(c),
                "a cell could still run: {c:?}"
            );
        }
    }
}
