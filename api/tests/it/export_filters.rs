//! Every export holds its screen's rows (issue 23): the filters each screen applies beyond the
//! dates reach its file. Wallet transactions (My Transactions): Wallet and Type; API logs (User
//! Transactions, and the portal's Logs for an end user): Status Code. For each filtered screen
//! the file has exactly the list's rows, and its total equals the list's.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::{
    common::TestApp,
    exports::{download, export, lines},
    portal,
};

/// The rows of an export's one file, as maps of header to cell.
async fn file(app: &TestApp, e: &Value) -> Vec<BTreeMap<String, String>> {
    assert_eq!(e["status"], "completed", "{e}");
    let Some(url) = e["urls"].as_array().and_then(|u| u.first()) else {
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

/// `₹1,234.50` as paise.
fn paise(cell: &str) -> i64 {
    cell.chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

/// The list at `path` (one page holds it all here): its total and the sum of `amount`.
async fn screen(app: &TestApp, token: &str, path: &str) -> (i64, i64) {
    let (s, list) = app.get(path, Some(token)).await;
    assert_eq!(s, 200, "{path}: {list}");
    let items = list["items"].as_array().unwrap();
    assert_eq!(
        items.len() as i64,
        list["total"].as_i64().unwrap(),
        "{path}"
    );
    let sum = items
        .iter()
        .map(|r| r["amount_paise"].as_i64().unwrap())
        .sum();
    (list["total"].as_i64().unwrap(), sum)
}

#[tokio::test]
async fn each_export_holds_its_filtered_screens_rows_and_total() {
    let app = TestApp::spawn().await;
    let site = portal::site(&app, "filterexp").await;
    let p = &site.partner;
    let u2 = crate::fixtures::user(&app, p.id, 2).await;
    let today = domain::exports::today_ist(chrono::Utc::now()).to_string();

    // The partner's own wallets: credits and debits on both.
    let mut conn = app.db.pool.acquire().await.unwrap();
    for (kind, entries) in [
        (
            domain::wallets::WalletKind::Api,
            [("credit", 50_000), ("debit", 1_200), ("debit", 800)],
        ),
        (
            domain::wallets::WalletKind::Product,
            [("credit", 9_000), ("debit", 300), ("credit", 100)],
        ),
    ] {
        let wallet =
            domain::wallets::wallet_id(&mut conn, domain::wallets::Owner::Partner(p.id), kind)
                .await
                .unwrap();
        for (t, amount) in entries {
            sqlx::query(
                "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, actor_kind)
                 VALUES ($1, $2, $3, $3, 'manual', 'superadmin')",
            )
            .bind(wallet)
            .bind(t)
            .bind(amount)
            .execute(&mut *conn)
            .await
            .unwrap();
        }
    }
    // API logs of two users today: answered 200, 402 and 422.
    for (user, code, amount) in [
        (site.user_id, 200, 500),
        (site.user_id, 402, 0),
        (site.user_id, 402, 0),
        (site.user_id, 422, 0),
        (u2, 200, 700),
        (u2, 402, 0),
    ] {
        sqlx::query(
            "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, amount_paise)
             VALUES ($1, $2, 'pan_check', 'PID1', 'VID1', 'VPID1', $3, $4)",
        )
        .bind(p.id)
        .bind(user)
        .bind(code)
        .bind(amount)
        .execute(&mut *conn)
        .await
        .unwrap();
    }
    drop(conn);

    // My Transactions, Wallet transactions: each Wallet and Type, alone and together.
    for (query, filter) in [
        ("kind=api", json!({"wallet": "api"})),
        ("type=debit", json!({"type": "debit"})),
        (
            "kind=product&type=credit",
            json!({"wallet": "product", "type": "credit"}),
        ),
        (
            "kind=api&type=debit",
            json!({"wallet": "api", "type": "debit"}),
        ),
    ] {
        let (total, sum) = screen(
            &app,
            &p.token,
            &format!("/api/v1/partner/wallet-entries?{query}&from={today}&to={today}"),
        )
        .await;
        let mut req = filter.clone();
        req["kind"] = json!("wallet_entries");
        req["from"] = json!(today);
        req["to"] = json!(today);
        let e = export(&app, &p.token, req).await;
        assert_eq!(e["total_records"].as_i64(), Some(total), "{query}: {e}");
        assert_eq!(
            (e["wallet"].clone(), e["type"].clone()),
            (filter["wallet"].clone(), filter["type"].clone()),
            "{e}"
        );
        let rows = file(&app, &e).await;
        assert_eq!(rows.len() as i64, total, "{query}");
        assert!(total > 0 && total < 6, "{query} narrows the list");
        assert_eq!(
            rows.iter().map(|r| paise(&r["Amount"])).sum::<i64>(),
            sum,
            "{query}"
        );
        for r in &rows {
            if let Some(w) = filter["wallet"].as_str() {
                assert_eq!(
                    r["Wallet"],
                    if w == "api" { "API" } else { "Product" },
                    "{query}"
                );
            }
            if let Some(t) = filter["type"].as_str() {
                assert_eq!(r["Type"].to_lowercase(), t, "{query}");
            }
        }
    }

    // User Transactions, API logs, by Status Code (with and without a user).
    for (query, filter) in [
        ("status_code=402".to_owned(), json!({"status_code": 402})),
        (
            format!("status_code=402&user_id={u2}"),
            json!({"status_code": 402, "user_id": u2}),
        ),
        ("status_code=422".to_owned(), json!({"status_code": 422})),
    ] {
        let (total, sum) = screen(
            &app,
            &p.token,
            &format!("/api/v1/partner/api-logs?{query}&from={today}&to={today}"),
        )
        .await;
        let mut req = filter.clone();
        req["kind"] = json!("api_logs");
        req["from"] = json!(today);
        req["to"] = json!(today);
        let e = export(&app, &p.token, req).await;
        assert_eq!(e["total_records"].as_i64(), Some(total), "{query}: {e}");
        let rows = file(&app, &e).await;
        assert!(total > 0 && total < 6, "{query} narrows the list");
        assert_eq!(rows.len() as i64, total, "{query}");
        assert_eq!(
            rows.iter().map(|r| paise(&r["Amount"])).sum::<i64>(),
            sum,
            "{query}"
        );
        let code = filter["status_code"].to_string();
        assert!(
            rows.iter().all(|r| r["Status Code"] == code),
            "{query}: {rows:?}"
        );
    }

    // The portal's Logs: the end user's own, by Status Code.
    let token = portal::token(&app, "filterexp", &site.email).await;
    let (total, _) = screen(
        &app,
        &token,
        &format!("/api/v1/me/api-logs?status_code=402&from={today}&to={today}"),
    )
    .await;
    assert_eq!(total, 2);
    let e = export(
        &app,
        &token,
        json!({"kind": "api_logs", "status_code": 402, "from": today, "to": today}),
    )
    .await;
    assert_eq!(e["total_records"].as_i64(), Some(total), "{e}");

    // A value no screen offers is a 422 on its field, nothing queued.
    for (bad, field) in [
        (json!({"status_code": 99}), "status_code"),
        (json!({"wallet": "savings"}), "wallet"),
        (json!({"type": "refund"}), "type"),
    ] {
        let mut req = bad.clone();
        req["kind"] = json!("wallet_entries");
        req["from"] = json!(today);
        req["to"] = json!(today);
        let (s, b) = app.post("/api/v1/exports", &req, Some(&p.token)).await;
        assert_eq!(s, 422, "{bad}: {b}");
        assert!(b["error"]["fields"][field].is_string(), "{bad}: {b}");
    }
}
