//! What the screens' lists and their files say about money is the ledger's truth (issue 23): a
//! refunded call nets to ₹0 with the balance after its refund, manual credits and refunds are
//! rows of a user's API Transactions, an export holds exactly its screen's rows and side with
//! Status and Transaction ID, and its total equals the screen's; days are IST days in the
//! filter, on the list and in the file.

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    exports::{download, export, lines},
    fixtures,
    gateway_support::{self as gs, FAIL_500, OK, Upstream},
};

/// The rows of an export's one file as maps of header to cell.
async fn file(app: &TestApp, e: &Value) -> Vec<std::collections::BTreeMap<String, String>> {
    assert_eq!(e["status"], "completed", "{e}");
    let urls = e["urls"].as_array().unwrap();
    assert!(urls.len() <= 1, "{e}");
    let Some(url) = urls.first() else {
        return Vec::new();
    };
    let (s, bytes) = download(app, url.as_str().unwrap()).await;
    assert_eq!(s, 200);
    let rows = lines(&bytes);
    let header: Vec<String> = rows[0].split('|').map(str::to_owned).collect();
    rows[1..]
        .iter()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.split('|').map(str::to_owned))
                .collect()
        })
        .collect()
}

/// `₹1,234.50` (or `-₹…`) as paise.
fn paise(cell: &str) -> i64 {
    let neg = cell.starts_with('-');
    let digits: String = cell.chars().filter(char::is_ascii_digit).collect();
    let v: i64 = digits.parse().unwrap();
    if neg { -v } else { v }
}

/// Credits minus debits of an export's rows.
fn net_of(rows: &[std::collections::BTreeMap<String, String>]) -> i64 {
    rows.iter()
        .map(|r| {
            let a = paise(&r["Amount"]);
            if r["Type"] == "Credit" { a } else { -a }
        })
        .sum()
}

#[tokio::test]
async fn a_refunded_call_and_a_manual_credit_read_alike_on_every_list_and_file() {
    let app = TestApp::spawn().await;
    let up = Upstream::start().await;
    let s = gs::live(&app, "truth", &up.base, "pan_check", 300, 0, 10_000).await;
    let token = fixtures::partner_token(&app, s.partner_id, "truth").await;
    let entries = format!("/api/v1/partner/users/{}/wallets/api/entries", s.user_id);
    let (st, b) = app
        .post(
            &entries,
            &json!({"type": "credit", "amount_paise": 100_000}),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    up.set(OK);
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "X1"}),
    )
    .await;
    assert_eq!(st, 200);
    let paid: i64 = h["x-transaction-id"].to_str().unwrap().parse().unwrap();
    up.set(FAIL_500);
    let (st, h, _) = gs::verify(
        &app,
        &app.base,
        &s.key,
        "pan_check",
        &json!({"id_number": "X2"}),
    )
    .await;
    assert_eq!(st, 502);
    let refunded: i64 = h["x-transaction-id"].to_str().unwrap().parse().unwrap();
    assert_eq!(gs::balance(&app, s.user_wallet).await, 99_700);
    assert_eq!(gs::balance(&app, s.partner_wallet).await, 9_700);

    // User Detail's API Transactions: the ledger, manual credit and refund included.
    let (st, b) = app
        .get(
            &format!("/api/v1/partner/users/{}/api-transactions", s.user_id),
            Some(&token),
        )
        .await;
    assert_eq!(st, 200, "{b}");
    let items = b["items"].as_array().unwrap();
    let shape: Vec<(String, String, i64, i64)> = items
        .iter()
        .map(|r| {
            (
                r["amount_type"].as_str().unwrap().to_owned(),
                r["reason"].as_str().unwrap().to_owned(),
                r["amount_paise"].as_i64().unwrap(),
                r["remaining_paise"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("credit".into(), "refund".into(), 300, 99_700),
            ("debit".into(), "api_call".into(), 300, 99_400),
            ("debit".into(), "api_call".into(), 300, 99_700),
            ("credit".into(), "manual".into(), 100_000, 100_000),
        ]
    );
    assert_eq!(
        (
            items[0]["status"].clone(),
            items[0]["transaction_id"].clone()
        ),
        (json!("refunded"), json!(refunded))
    );
    let screen_net: i64 = items
        .iter()
        .map(|r| {
            r["amount_paise"].as_i64().unwrap() * if r["amount_type"] == "credit" { 1 } else { -1 }
        })
        .sum();
    assert_eq!(screen_net, 99_700, "the rows net to the balance");

    // Its export: the same four rows with Status and Transaction ID, the same total.
    let e = export(&app, &token, json!({"kind": "api_transactions", "user_id": s.user_id, "from": "2026-01-01", "to": domain::infra::ist::today().to_string()})).await;
    let rows = file(&app, &e).await;
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(net_of(&rows), screen_net);
    assert_eq!(
        (
            rows[0]["Status"].as_str(),
            rows[0]["Transaction ID"].as_str(),
            rows[0]["Type"].as_str(),
            rows[0]["Balance"].as_str()
        ),
        ("Refund", refunded.to_string().as_str(), "Credit", "₹997.00")
    );
    assert_eq!(
        (rows[1]["Status"].as_str(), rows[1]["Services"].as_str()),
        ("Refunded", "pan_check")
    );
    assert_eq!(
        (
            rows[3]["Services"].as_str(),
            rows[3]["Status"].as_str(),
            rows[3]["Transaction ID"].as_str()
        ),
        ("Manual credit", "_", "_")
    );

    // User Transactions (the users' side) and My Transactions (the partner's): the refunded call
    // nets to ₹0 with the balance after its refund; the paid one is ₹3.00.
    let (_, list) = app
        .get("/api/v1/partner/api-transactions", Some(&token))
        .await;
    let by_id = |id: i64| {
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()
            .clone()
    };
    let r = by_id(refunded);
    assert_eq!(
        (
            r["status"].clone(),
            r["user_net_paise"].clone(),
            r["net_paise"].clone(),
            r["remaining_paise"].clone(),
            r["partner_remaining_paise"].clone()
        ),
        (
            json!("refunded"),
            json!(0),
            json!(0),
            json!(99_700),
            json!(9_700)
        )
    );
    let p = by_id(paid);
    assert_eq!(
        (
            p["user_net_paise"].clone(),
            p["net_paise"].clone(),
            p["remaining_paise"].clone()
        ),
        (json!(300), json!(300), json!(99_700))
    );
    let list_total: i64 = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["user_net_paise"].as_i64().unwrap())
        .sum();
    let today = domain::infra::ist::today().to_string();
    for (side, balance_key) in [
        ("user", "remaining_paise"),
        ("partner", "partner_remaining_paise"),
    ] {
        let e = export(
            &app,
            &token,
            json!({"kind": "api_transactions", "side": side, "from": today, "to": today}),
        )
        .await;
        let rows = file(&app, &e).await;
        assert_eq!(rows.len(), 2, "{side}: {rows:?}");
        assert_eq!(
            -net_of(&rows),
            list_total,
            "{side}: the file's total is the screen's"
        );
        let row = rows
            .iter()
            .find(|r| r["Transaction ID"] == refunded.to_string())
            .unwrap();
        assert_eq!(
            (
                row["Status Code"].as_str(),
                row["Status"].as_str(),
                row["Amount"].as_str(),
                row["Email"].is_empty()
            ),
            ("500", "Refunded", "₹0.00", false),
            "{side}"
        );
        assert_eq!(
            paise(&row["Balance"]),
            r[balance_key].as_i64().unwrap(),
            "{side}"
        );
    }
}

/// Calls of one user on a day, `n` of them at 10:00 IST onwards.
async fn calls(app: &TestApp, partner_id: i64, user_id: i64, service: &str, n: i64) {
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, remaining_paise, partner_remaining_paise, created_at)
         SELECT $1, $2, $3, 'PID' || $2 || '-' || g, 'success', 200, 250, 300, 1000 - g, 5000 - g, timestamptz '2026-11-01 04:30:00+00' + g * interval '1 minute'
           FROM generate_series(1, $4) g",
    )
    .bind(partner_id).bind(user_id).bind(service).bind(n)
    .execute(&app.db.pool).await.unwrap();
}

#[tokio::test]
async fn an_export_of_a_filtered_screen_holds_only_that_screens_rows() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "filtered").await;
    let u1 = fixtures::user(&app, p.id, 1).await;
    let u2 = fixtures::user(&app, p.id, 2).await;
    calls(&app, p.id, u1, "pan_check", 5).await;
    calls(&app, p.id, u2, "gst_check", 3).await;
    calls(&app, p.id, u2, "pan_check", 2).await;
    let email2: String = sqlx::query_scalar("SELECT email::text FROM end_users WHERE id = $1")
        .bind(u2)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();

    for (query, body) in [
        (
            format!("user_id={u2}"),
            json!({"user_id": u2, "ledger": false}),
        ),
        (
            format!("email={}", &email2[..email2.find('@').unwrap()]),
            json!({"email": &email2[..email2.find('@').unwrap()]}),
        ),
        ("services=pan".to_owned(), json!({"services": "pan"})),
        (
            format!("email={}&services=pan", &email2[..4]),
            json!({"email": &email2[..4], "services": "pan"}),
        ),
        (
            "pid=PID".to_owned() + &u1.to_string(),
            json!({"pid": format!("PID{u1}")}),
        ),
    ] {
        let (st, list) = app
            .get(
                &format!("/api/v1/partner/api-transactions?{query}&from=2026-11-01&to=2026-11-01"),
                Some(&p.token),
            )
            .await;
        assert_eq!(st, 200, "{list}");
        let mut req = body.clone();
        req["kind"] = json!("api_transactions");
        req["from"] = json!("2026-11-01");
        req["to"] = json!("2026-11-01");
        let e = export(&app, &p.token, req).await;
        assert_eq!(e["total_records"], list["total"], "{query}: {e}");
        let rows = file(&app, &e).await;
        let mut from_file: Vec<String> = rows.iter().map(|r| r["Transaction ID"].clone()).collect();
        let mut on_screen: Vec<String> = list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].to_string())
            .collect();
        from_file.sort();
        on_screen.sort();
        assert_eq!(from_file, on_screen, "{query}");
        assert!(
            !on_screen.is_empty() && on_screen.len() < 10,
            "{query} narrows the list"
        );
    }
}

#[tokio::test]
async fn a_row_near_midnight_ist_is_on_its_ist_day_in_filter_list_and_file() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "midnight").await;
    let u = fixtures::user(&app, p.id, 1).await;
    // 25 Nov 23:45 IST and 26 Nov 00:15 IST: both 25 Nov on the UTC clock.
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, created_at)
         VALUES ($1, $2, 'pan_check', 'LATE', 'success', 200, 100, 100, timestamptz '2026-11-25 18:15:00+00'),
                ($1, $2, 'pan_check', 'EARLY', 'success', 200, 100, 100, timestamptz '2026-11-25 18:45:00+00')",
    )
    .bind(p.id)
    .bind(u)
    .execute(&app.db.pool)
    .await
    .unwrap();
    for (day, pid, shown) in [
        ("2026-11-25", "LATE", "Wed Nov 25 2026 23:45:00"),
        ("2026-11-26", "EARLY", "Thu Nov 26 2026 00:15:00"),
    ] {
        let (st, list) = app
            .get(
                &format!("/api/v1/partner/api-transactions?from={day}&to={day}"),
                Some(&p.token),
            )
            .await;
        assert_eq!(st, 200, "{list}");
        assert_eq!(list["total"], 1, "{day}: {list}");
        assert_eq!(list["items"][0]["pid"], pid, "{day}");
        // The per-user list, counted from the same IST-day counters.
        let (_, one) = app
            .get(
                &format!("/api/v1/partner/api-transactions?user_id={u}&from={day}&to={day}"),
                Some(&p.token),
            )
            .await;
        assert_eq!(
            (one["total"].as_i64(), one["items"][0]["pid"].as_str()),
            (Some(1), Some(pid)),
            "{day}"
        );
        let e = export(
            &app,
            &p.token,
            json!({"kind": "api_transactions", "from": day, "to": day}),
        )
        .await;
        let rows = file(&app, &e).await;
        assert_eq!(rows.len(), 1, "{day}: {rows:?}");
        assert_eq!(
            (rows[0]["PID"].as_str(), rows[0]["Date (IST)"].as_str()),
            (pid, shown)
        );
    }
}
