//! The wallet ledger through HTTP and through the domain function the gateway will call:
//! no overspending under concurrency, idempotency, tenancy, 402 with nothing written,
//! low-balance mails once per crossing, validation and roles.

use std::time::Duration;

use domain::{
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use serde_json::json;

use crate::{
    common::TestApp,
    fixtures::{self, count, put},
};

async fn user_wallet_id(app: &TestApp, partner_id: i64, user_id: i64) -> i64 {
    let mut conn = app.db.pool.acquire().await.unwrap();
    wallets::wallet_id(
        &mut conn,
        Owner::User {
            partner_id,
            user_id,
        },
        WalletKind::Api,
    )
    .await
    .unwrap()
}

async fn balance(app: &TestApp, wallet_id: i64) -> i64 {
    sqlx::query_scalar("SELECT balance_paise FROM wallets WHERE id = $1")
        .bind(wallet_id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn ledger_sum(app: &TestApp, wallet_id: i64) -> i64 {
    sqlx::query_scalar("SELECT COALESCE(sum(CASE WHEN type = 'credit' THEN amount_paise ELSE -amount_paise END), 0)::bigint FROM wallet_entries WHERE wallet_id = $1")
        .bind(wallet_id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn wallet_200_concurrent_debits_never_overspend() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "concurrent").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let (s, b) = app
        .post(
            &format!("/api/v1/partner/users/{u}/wallets/api/entries"),
            &json!({"type": "credit", "amount_paise": 50_000}),
            Some(&p.token),
        )
        .await;
    assert_eq!((s, b["balance_paise"].as_i64()), (200, Some(50_000)), "{b}");
    let wallet = user_wallet_id(&app, p.id, u).await;

    // Demand of about twice the balance, so that many debits must be refused.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let amounts: Vec<i64> = (0..200)
        .map(|_| {
            // xorshift: reproducible pseudo-random amounts of 1 to 1000 paise.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 1000) as i64 + 1
        })
        .collect();
    let mut tasks = Vec::new();
    for (i, amount) in amounts.iter().copied().enumerate() {
        if i % 4 == 0 {
            // A quarter through HTTP, as a partner would deduct credits.
            let (client, url, token) = (
                app.client.clone(),
                app.url(&format!("/api/v1/partner/users/{u}/wallets/api/entries")),
                p.token.clone(),
            );
            tasks.push(tokio::spawn(async move {
                let res = client
                    .post(url)
                    .bearer_auth(token)
                    .json(&json!({"type": "debit", "amount_paise": amount}))
                    .send()
                    .await
                    .unwrap();
                match res.status().as_u16() {
                    200 => Some(amount),
                    402 => None,
                    other => panic!("unexpected status {other}: {}", res.text().await.unwrap()),
                }
            }));
        } else {
            // The rest through the ledger function, in a transaction of their own (as the gateway).
            let pool = app.db.pool.clone();
            tasks.push(tokio::spawn(async move {
                let mut tx = pool.begin().await.unwrap();
                let m = Movement {
                    wallet_id: wallet,
                    entry_type: EntryType::Debit,
                    amount_paise: amount,
                    reason: Reason::ApiCall,
                    reference: Some("concurrency"),
                    idempotency_key: None,
                    actor: Actor::user(u),
                };
                match domain::wallets::apply(&mut tx, &m).await {
                    Ok(moved) => {
                        assert!(moved.balance_paise >= 0);
                        tx.commit().await.unwrap();
                        Some(amount)
                    }
                    Err(domain::Error::InsufficientFunds) => None,
                    Err(e) => panic!("unexpected error {e:?}"),
                }
            }));
        }
    }
    let mut spent = 0;
    let mut refused = 0;
    for t in tasks {
        match t.await.unwrap() {
            Some(a) => spent += a,
            None => refused += 1,
        }
    }
    assert!(refused > 0, "the test must drive the wallet to its limit");
    assert!(spent <= 50_000, "overspent: {spent}");
    let final_balance = balance(&app, wallet).await;
    assert_eq!(final_balance, 50_000 - spent);
    assert!(final_balance >= 0);
    assert_eq!(
        ledger_sum(&app, wallet).await,
        final_balance,
        "balance equals the ledger sum"
    );
    // Every entry's balance_after is the running sum in ledger order: no lost update anywhere.
    let rows: Vec<(String, i64, i64)> = sqlx::query_as("SELECT type, amount_paise, balance_after_paise FROM wallet_entries WHERE wallet_id = $1 ORDER BY id")
        .bind(wallet)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(rows.len() as i64, 1 + 200 - refused);
    let mut running = 0;
    for (t, a, after) in rows {
        running += if t == "credit" { a } else { -a };
        assert!(running >= 0);
        assert_eq!(running, after);
    }
    // One audit row per movement.
    let audits: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE entity = 'wallet' AND entity_id = $1 AND action IN ('wallet.credit', 'wallet.debit')")
        .bind(wallet.to_string())
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(audits, 1 + 200 - refused);
}

#[tokio::test]
async fn wallet_idempotency_replay_returns_the_first_entry() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "idem").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let path = format!("/api/v1/partner/users/{u}/wallets/product/entries");
    let body = json!({"type": "credit", "amount_paise": 2500, "idempotency_key": "top-up-1"});
    let (s, first) = app.post(&path, &body, Some(&p.token)).await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["replayed"], false);
    let (s, again) = app.post(&path, &body, Some(&p.token)).await;
    assert_eq!(s, 200);
    assert_eq!(again["entry_id"], first["entry_id"]);
    assert_eq!(again["balance_paise"], 2500);
    assert_eq!(again["replayed"], true);
    // A later movement does not change what the replay answers: the first result.
    app.post(
        &path,
        &json!({"type": "credit", "amount_paise": 100}),
        Some(&p.token),
    )
    .await;
    let (_, third) = app.post(&path, &body, Some(&p.token)).await;
    assert_eq!(
        (third["entry_id"].clone(), third["balance_paise"].as_i64()),
        (first["entry_id"].clone(), Some(2500))
    );

    // Same key, different request: refused, nothing moves.
    let (s, b) = app
        .post(
            &path,
            &json!({"type": "credit", "amount_paise": 9999, "idempotency_key": "top-up-1"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 409, "{b}");
    let (s, _) = app
        .post(
            &path,
            &json!({"type": "debit", "amount_paise": 2500, "idempotency_key": "top-up-1"}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 409);
    let (_, w) = app
        .get(
            &format!("/api/v1/partner/users/{u}/wallets"),
            Some(&p.token),
        )
        .await;
    assert_eq!(w["product"]["balance_paise"], 2600);
    assert_eq!(count(&app, "SELECT count(*) FROM wallet_entries").await, 2);

    // Twenty copies of one keyed debit at once (the header form of the key): one entry.
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (client, url, token) = (app.client.clone(), app.url(&path), p.token.clone());
        tasks.push(tokio::spawn(async move {
            let res = client
                .post(url)
                .bearer_auth(token)
                .header("Idempotency-Key", "charge-42")
                .json(&json!({"type": "debit", "amount_paise": 600}))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            res.json::<serde_json::Value>().await.unwrap()["entry_id"]
                .as_i64()
                .unwrap()
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.unwrap());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "one entry for one key: {ids:?}");
    let (_, w) = app
        .get(
            &format!("/api/v1/partner/users/{u}/wallets"),
            Some(&p.token),
        )
        .await;
    assert_eq!(w["product"]["balance_paise"], 2000);
    // The key is per wallet: the same key on the other wallet is a new request.
    let (s, b) = app
        .post(
            &format!("/api/v1/partner/users/{u}/wallets/api/entries"),
            &body,
            Some(&p.token),
        )
        .await;
    assert_eq!((s, b["replayed"].clone()), (200, json!(false)));
}

#[tokio::test]
async fn wallet_of_another_partners_user_is_404_and_nothing_moves() {
    let app = TestApp::spawn().await;
    let a = fixtures::partner(&app, "alpha").await;
    let b = fixtures::partner(&app, "beta").await;
    let bu = fixtures::user(&app, b.id, 1).await;
    app.post(
        &format!("/api/v1/partner/users/{bu}/wallets/api/entries"),
        &json!({"type": "credit", "amount_paise": 1000}),
        Some(&b.token),
    )
    .await;
    let entries = count(&app, "SELECT count(*) FROM wallet_entries").await;
    let audits = count(&app, "SELECT count(*) FROM audit_log").await;

    for body in [
        json!({"type": "credit", "amount_paise": 500}),
        json!({"type": "debit", "amount_paise": 500}),
    ] {
        for kind in ["api", "product"] {
            let (s, e) = app
                .post(
                    &format!("/api/v1/partner/users/{bu}/wallets/{kind}/entries"),
                    &body,
                    Some(&a.token),
                )
                .await;
            assert_eq!(s, 404, "{e}");
            assert_eq!(e["error"]["code"], "not_found");
        }
    }
    for path in [
        "wallets",
        "wallet-entries",
        "prices",
        "api-transactions",
        "product-transactions",
    ] {
        let (s, _) = app
            .get(
                &format!("/api/v1/partner/users/{bu}/{path}"),
                Some(&a.token),
            )
            .await;
        assert_eq!(s, 404, "{path}");
    }
    let (s, _) = put(
        &app,
        &format!("/api/v1/partner/users/{bu}/prices"),
        &json!({"prices": [{"service": "x_y", "price_paise": 1}]}),
        Some(&a.token),
    )
    .await;
    assert_eq!(s, 404);
    // A user id that does not exist at all answers the same.
    let (s, _) = app
        .post(
            "/api/v1/partner/users/999999999/wallets/api/entries",
            &json!({"type": "credit", "amount_paise": 5}),
            Some(&a.token),
        )
        .await;
    assert_eq!(s, 404);

    assert_eq!(
        count(&app, "SELECT count(*) FROM wallet_entries").await,
        entries
    );
    assert_eq!(count(&app, "SELECT count(*) FROM audit_log").await, audits);
    assert_eq!(count(&app, "SELECT count(*) FROM wallets WHERE partner_id = (SELECT id FROM partners WHERE user_name = 'alpha')").await, 0);
    let (_, w) = app
        .get(
            &format!("/api/v1/partner/users/{bu}/wallets"),
            Some(&b.token),
        )
        .await;
    assert_eq!(w["api"]["balance_paise"], 1000);
    assert_eq!(w["product"]["balance_paise"], 0);
}

#[tokio::test]
async fn wallet_overdraft_is_402_and_writes_nothing() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "overdraft").await;
    let admin = app.superadmin_token();
    let (s, _) = app
        .post(
            &format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id),
            &json!({"type": "Credit", "amount_paise": 700}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200);
    let before = (
        count(&app, "SELECT count(*) FROM wallet_entries").await,
        count(&app, "SELECT count(*) FROM audit_log").await,
    );
    let (s, b) = app
        .post(
            &format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id),
            &json!({"type": "debit", "amount_paise": 701, "idempotency_key": "k1"}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 402, "{b}");
    assert_eq!(b["error"]["code"], "insufficient_balance");
    // An empty wallet too.
    let (s, _) = app
        .post(
            &format!(
                "/api/v1/superadmin/clients/{}/wallets/product/entries",
                p.id
            ),
            &json!({"type": "debit", "amount_paise": 1}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 402);
    assert_eq!(
        (
            count(&app, "SELECT count(*) FROM wallet_entries").await,
            count(&app, "SELECT count(*) FROM audit_log").await
        ),
        before
    );
    // The refused key was not used up: it works once the money is there.
    let (s, _) = app
        .post(
            &format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id),
            &json!({"type": "debit", "amount_paise": 700, "idempotency_key": "k1"}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200);
    let (_, w) = app.get("/api/v1/partner/wallets", Some(&p.token)).await;
    assert_eq!(w["api"]["balance_paise"], 0);
}

#[tokio::test]
async fn wallet_low_balance_alert_mails_once_per_crossing() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "lowbal").await;
    let admin = app.superadmin_token();
    let entry = |t: &str, amount: i64| json!({"type": t, "amount_paise": amount});
    let path = format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id);
    app.post(&path, &entry("credit", 15_000), Some(&admin))
        .await;
    let (s, w) = put(
        &app,
        "/api/v1/partner/wallets/api/alert",
        &json!({"threshold_paise": 10_000}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 200, "{w}");
    assert_eq!(
        (
            w["low_balance_threshold_paise"].as_i64(),
            w["low_balance_alerted"].as_bool()
        ),
        (Some(10_000), Some(false))
    );

    // 15000 → 12000 → 9000 (crossing 1) → 8000 → 13000 (re-armed) → 10000 (at the line: not
    // below) → 9000 (crossing 2) → 100.
    for (t, a) in [
        ("debit", 3000),
        ("debit", 3000),
        ("debit", 1000),
        ("credit", 5000),
        ("debit", 3000),
        ("debit", 1000),
        ("debit", 8900),
    ] {
        let (s, b) = app.post(&path, &entry(t, a), Some(&admin)).await;
        assert_eq!(s, 200, "{b}");
    }
    // The product wallet has no threshold: no mail.
    app.post(
        &format!(
            "/api/v1/superadmin/clients/{}/wallets/product/entries",
            p.id
        ),
        &entry("credit", 100),
        Some(&admin),
    )
    .await;
    app.post(
        &format!(
            "/api/v1/superadmin/clients/{}/wallets/product/entries",
            p.id
        ),
        &entry("debit", 100),
        Some(&admin),
    )
    .await;

    let jobs: Vec<String> =
        sqlx::query_scalar("SELECT id FROM apalis.jobs WHERE job_type = 'send_mail' ORDER BY id")
            .fetch_all(&app.db.pool)
            .await
            .unwrap();
    assert_eq!(jobs.len(), 2, "one mail per crossing");
    app.run_pending_jobs().await;
    for id in &jobs {
        app.wait_for_job(id, "done", Duration::from_secs(30)).await;
    }
    let mails = testkit::outbox(&app.config);
    assert_eq!(mails.len(), 2);
    for m in &mails {
        assert!(m.contains(&format!("To: {}", p.email)), "{m}");
        assert!(m.contains("Subject: Low balance: your API Wallet"), "{m}");
    }
    let (_, w) = app.get("/api/v1/partner/wallets", Some(&p.token)).await;
    assert_eq!(w["api"]["balance_paise"], 100);
    assert_eq!(w["api"]["low_balance_alerted"], true);

    // Setting a threshold while already below it mails nothing (no crossing happened).
    put(
        &app,
        "/api/v1/partner/wallets/product/alert",
        &json!({"threshold_paise": 5000}),
        Some(&p.token),
    )
    .await;
    app.post(
        &format!(
            "/api/v1/superadmin/clients/{}/wallets/product/entries",
            p.id
        ),
        &entry("credit", 100),
        Some(&admin),
    )
    .await;
    app.post(
        &format!(
            "/api/v1/superadmin/clients/{}/wallets/product/entries",
            p.id
        ),
        &entry("debit", 50),
        Some(&admin),
    )
    .await;
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail'"
        )
        .await,
        2
    );
    let (s, _) = put(
        &app,
        "/api/v1/partner/wallets/api/alert",
        &json!({"threshold_paise": -1}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 422);
    let (s, _) = put(
        &app,
        "/api/v1/partner/wallets/gold/alert",
        &json!({"threshold_paise": 1}),
        Some(&p.token),
    )
    .await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn wallet_entry_validation_messages() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "validation").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let path = format!("/api/v1/partner/users/{u}/wallets/api/entries");
    let cases = [
        (
            json!({"type": "credit", "amount_paise": 0}),
            "amount_paise",
            "Amount must be greater than zero",
        ),
        (
            json!({"type": "credit", "amount_paise": -5}),
            "amount_paise",
            "Amount must be greater than zero",
        ),
        (
            json!({"type": "credit", "amount_paise": 1_000_000_000_001i64}),
            "amount_paise",
            "Amount is too large",
        ),
        (
            json!({"type": "credit", "amount_paise": 10.5}),
            "amount_paise",
            "Amount must be a whole number of paise",
        ),
        (
            json!({"type": "credit", "amount_paise": "ten"}),
            "amount_paise",
            "Amount must be a whole number of paise",
        ),
        (
            json!({"type": "credit", "amount_paise": "700"}),
            "amount_paise",
            "Amount must be a whole number of paise",
        ),
        (
            json!({"type": "credit", "amount_paise": {"value": 700}}),
            "amount_paise",
            "Amount must be a whole number of paise",
        ),
        (
            json!({"type": "credit"}),
            "amount_paise",
            "Amount is required",
        ),
        (json!({"amount_paise": 5}), "type", "Type is required"),
        (
            json!({"type": "refund", "amount_paise": 5}),
            "type",
            "Type must be credit or debit",
        ),
    ];
    for (body, field, message) in cases {
        let (s, b) = app.post(&path, &body, Some(&p.token)).await;
        assert_eq!(s, 422, "{body}: {b}");
        assert_eq!(b["error"]["fields"][field], message, "{body}: {b}");
    }
    let (s, _) = app
        .post(
            &format!("/api/v1/partner/users/{u}/wallets/gold/entries"),
            &json!({"type": "credit", "amount_paise": 5}),
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 404);
    assert_eq!(count(&app, "SELECT count(*) FROM wallet_entries").await, 0);
}

#[tokio::test]
async fn wallet_endpoints_refuse_wrong_roles() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "roles").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let admin = app.superadmin_token();
    let credit = json!({"type": "credit", "amount_paise": 5});
    let client_path = format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id);
    let user_path = format!("/api/v1/partner/users/{u}/wallets/api/entries");
    assert_eq!(app.post(&client_path, &credit, None).await.0, 401);
    assert_eq!(
        app.post(&client_path, &credit, Some("nonsense")).await.0,
        401
    );
    assert_eq!(
        app.post(&client_path, &credit, Some(&p.token)).await.0,
        403,
        "a partner cannot fund itself"
    );
    assert_eq!(app.post(&user_path, &credit, None).await.0, 401);
    assert_eq!(app.post(&user_path, &credit, Some(&admin)).await.0, 403);
    for path in [
        "/api/v1/superadmin/wallet-transactions".to_owned(),
        format!("/api/v1/superadmin/clients/{}/wallets", p.id),
    ] {
        assert_eq!(app.get(&path, Some(&p.token)).await.0, 403, "{path}");
    }
    assert_eq!(
        app.get("/api/v1/partner/wallets", Some(&admin)).await.0,
        403
    );
    assert_eq!(app.get("/api/v1/partner/wallets", None).await.0, 401);
    // The super admin acting on a client that does not exist.
    assert_eq!(
        app.post(
            "/api/v1/superadmin/clients/424242/wallets/api/entries",
            &credit,
            Some(&admin)
        )
        .await
        .0,
        404
    );
    assert_eq!(count(&app, "SELECT count(*) FROM wallet_entries").await, 0);
}

#[tokio::test]
async fn wallet_transaction_lists_page_and_name_the_owner() {
    let app = TestApp::spawn().await;
    let p = fixtures::partner(&app, "lists").await;
    let q = fixtures::partner(&app, "other").await;
    let u = fixtures::user(&app, p.id, 1).await;
    let admin = app.superadmin_token();
    for i in 1..=7 {
        app.post(
            &format!("/api/v1/superadmin/clients/{}/wallets/api/entries", p.id),
            &json!({"type": "credit", "amount_paise": i * 100}),
            Some(&admin),
        )
        .await;
    }
    app.post(
        &format!(
            "/api/v1/superadmin/clients/{}/wallets/product/entries",
            q.id
        ),
        &json!({"type": "credit", "amount_paise": 50}),
        Some(&admin),
    )
    .await;
    app.post(
        &format!("/api/v1/partner/users/{u}/wallets/api/entries"),
        &json!({"type": "credit", "amount_paise": 9}),
        Some(&p.token),
    )
    .await;

    let (s, page) = app
        .get(
            "/api/v1/partner/wallet-entries?page=2&per_page=3",
            Some(&p.token),
        )
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(
        (
            page["total"].as_i64(),
            page["pages"].as_i64(),
            page["page"].as_i64(),
            page["per_page"].as_i64()
        ),
        (Some(7), Some(3), Some(2), Some(3))
    );
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    // Newest first: the 4th, 3rd and 2nd credit, with the balance after each.
    assert_eq!(items[0]["amount_paise"], 400);
    assert_eq!(items[0]["balance_after_paise"], 1000);
    assert_eq!(items[0]["type"], "credit");
    assert_eq!(items[0]["kind"], "api");

    let (_, all) = app
        .get(
            "/api/v1/superadmin/wallet-transactions?per_page=500",
            Some(&admin),
        )
        .await;
    assert_eq!(all["per_page"], 200, "per_page is capped");
    assert_eq!(all["total"], 8, "partner wallets only: {all}");
    assert!(
        all["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["partner_id"] == q.id && e["partner_user_name"] == "other")
    );
    let (_, one) = app
        .get(
            &format!(
                "/api/v1/superadmin/wallet-transactions?user_id={}&kind=product",
                q.id
            ),
            Some(&admin),
        )
        .await;
    assert_eq!(one["total"], 1);
    let (_, client) = app
        .get(
            &format!(
                "/api/v1/superadmin/clients/{}/wallet-entries?type=credit",
                p.id
            ),
            Some(&admin),
        )
        .await;
    assert_eq!(client["total"], 7);
    let (_, mine) = app
        .get(
            &format!("/api/v1/partner/users/{u}/wallet-entries"),
            Some(&p.token),
        )
        .await;
    assert_eq!(
        (mine["total"].as_i64(), mine["items"][0]["user_id"].as_i64()),
        (Some(1), Some(u))
    );
    let (s, _) = app
        .get("/api/v1/partner/wallet-entries?page=abc", Some(&p.token))
        .await;
    assert_eq!(s, 400);
    let today = domain::infra::ist::today();
    let (_, dated) = app
        .get(
            &format!("/api/v1/partner/wallet-entries?from={today}&to={today}"),
            Some(&p.token),
        )
        .await;
    assert_eq!(dated["total"], 7);
}

#[tokio::test]
async fn wallet_price_and_catalogue_paths_are_in_the_openapi_document() {
    let app = TestApp::spawn().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    for path in [
        "/api/v1/partner/wallets",
        "/api/v1/partner/wallet-entries",
        "/api/v1/partner/wallets/{kind}/alert",
        "/api/v1/partner/users/{id}/wallets/{kind}/entries",
        "/api/v1/superadmin/clients/{id}/wallets/{kind}/entries",
        "/api/v1/superadmin/wallet-transactions",
        "/api/v1/superadmin/apis",
        "/api/v1/superadmin/test-apis",
        "/api/v1/superadmin/plans/{plan}/prices",
        "/api/v1/superadmin/plans/prices",
        "/api/v1/superadmin/clients/{id}/prices",
        "/api/v1/partner/plan",
        "/api/v1/partner/users/{id}/prices",
        "/api/v1/partner/users/{id}/api-transactions",
        "/api/v1/catalogue",
    ] {
        assert!(
            doc["paths"].get(path).is_some(),
            "{path} missing from the OpenAPI document"
        );
    }
}

#[tokio::test]
async fn wallet_superadmin_acts_for_a_client_on_its_users() {
    let app = TestApp::spawn().await;
    let admin = app.superadmin_token();
    let p = fixtures::partner(&app, "client").await;
    let q = fixtures::partner(&app, "elsewhere").await;
    let u = fixtures::user(&app, p.id, 1).await;
    fixtures::api(&app, "pan_a", 1000).await;
    let base = format!("/api/v1/superadmin/clients/{}/users/{u}", p.id);
    let (s, b) = app
        .post(
            &format!("{base}/wallets/api/entries"),
            &json!({"type": "credit", "amount_paise": 1234}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let actor: String = sqlx::query_scalar("SELECT actor_kind FROM wallet_entries")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(actor, "superadmin");
    let (_, w) = app.get(&format!("{base}/wallets"), Some(&admin)).await;
    assert_eq!(w["api"]["balance_paise"], 1234);
    let (_, e) = app
        .get(&format!("{base}/wallet-entries"), Some(&admin))
        .await;
    assert_eq!(e["total"], 1);
    let (s, r) = put(
        &app,
        &format!("{base}/prices"),
        &json!({"prices": [{"service": "pan_a", "price_paise": 1100}]}),
        Some(&admin),
    )
    .await;
    assert_eq!((s, r["changed"].as_i64()), (200, Some(1)));
    let (_, list) = app.get(&format!("{base}/prices"), Some(&admin)).await;
    assert_eq!(list["items"][0]["user_amount_paise"], 1100);
    for path in ["api-transactions", "product-transactions"] {
        assert_eq!(
            app.get(&format!("{base}/{path}"), Some(&admin)).await.0,
            200
        );
    }
    // The user under the wrong client is not found; partners cannot use these paths.
    let wrong = format!("/api/v1/superadmin/clients/{}/users/{u}", q.id);
    assert_eq!(
        app.post(
            &format!("{wrong}/wallets/api/entries"),
            &json!({"type": "credit", "amount_paise": 1}),
            Some(&admin)
        )
        .await
        .0,
        404
    );
    assert_eq!(
        app.get(&format!("{wrong}/prices"), Some(&admin)).await.0,
        404
    );
    assert_eq!(
        app.get(&format!("{base}/wallets"), Some(&p.token)).await.0,
        403
    );
    assert_eq!(count(&app, "SELECT count(*) FROM wallet_entries").await, 1);
}
