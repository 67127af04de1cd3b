//! The demo seed: complete, consistent (every balance is the sum of its ledger), and idempotent.

use crate::common::{TestApp, row_count};

async fn counts(pool: &domain::PgPool) -> Vec<(String, i64)> {
    let mut out = vec![];
    for table in [
        "super_admins",
        "partners",
        "end_users",
        "api_catalogue",
        "sandbox_apis",
        "plan_prices",
        "wallets",
        "wallet_entries",
        "api_transactions",
        "api_logs",
        "product_transactions",
        "product_logs",
        "ip_hits",
        "bank_statement_requests",
    ] {
        out.push((table.to_owned(), row_count(pool, table).await));
    }
    out
}

#[tokio::test]
async fn seed_is_complete_consistent_and_idempotent() {
    let app = TestApp::spawn().await;
    let pool = &app.db.pool;
    domain::seed::run(pool, "admin@seed.test", "Admin-pass-1")
        .await
        .unwrap();
    let first = counts(pool).await;
    let get = |name: &str| first.iter().find(|(t, _)| t == name).unwrap().1;
    assert_eq!(get("super_admins"), 1);
    assert!(get("api_catalogue") >= 150, "{first:?}");
    assert_eq!(get("plan_prices"), 4 * get("api_catalogue"));
    assert!(get("sandbox_apis") >= 20);
    assert!(get("end_users") >= 24);
    assert!(get("api_transactions") >= 2000);
    assert_eq!(get("api_logs"), get("api_transactions"));
    // TruBank's queue is not empty on a fresh run, and its files are stored by `demo_files`.
    assert_eq!(get("bank_statement_requests"), 2);
    assert_eq!(
        domain::seed::demo_files(pool, &app.state.storage)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        domain::seed::demo_files(pool, &app.state.storage)
            .await
            .unwrap(),
        0,
        "stored once"
    );
    let key: String = sqlx::query_scalar("SELECT file_key FROM bank_statement_requests LIMIT 1")
        .fetch_one(pool)
        .await
        .unwrap();
    app.state
        .storage
        .verify_upload(
            &key,
            domain::infra::storage::UploadPurpose::Statement,
            "file_key",
        )
        .await
        .unwrap();

    let categories: i64 = sqlx::query_scalar("SELECT count(DISTINCT category) FROM api_catalogue")
        .fetch_one(pool)
        .await
        .unwrap();
    assert!(categories >= 10);
    let (sub, status): (String, String) = sqlx::query_as(
        "SELECT subdomain::text, subdomain_status FROM partners WHERE email = 'demo@example.in'",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!((sub.as_str(), status.as_str()), ("demo", "active"));

    // Every wallet's balance is the sum of its ledger and equals its newest entry's balance_after.
    let bad: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT w.id, w.balance_paise,
                COALESCE(sum(CASE e.type WHEN 'credit' THEN e.amount_paise ELSE -e.amount_paise END), 0)::bigint
           FROM wallets w LEFT JOIN wallet_entries e ON e.wallet_id = w.id
          GROUP BY w.id HAVING w.balance_paise <> COALESCE(sum(CASE e.type WHEN 'credit' THEN e.amount_paise ELSE -e.amount_paise END), 0)",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(bad.is_empty(), "balances off their ledgers: {bad:?}");
    let funded: i64 = sqlx::query_scalar("SELECT count(*) FROM wallets WHERE balance_paise > 0")
        .fetch_one(pool)
        .await
        .unwrap();
    assert!(funded >= 40);

    // The price shown is the price charged: every demo call cost what API Price shows its user.
    let partner: i64 =
        sqlx::query_scalar("SELECT id FROM partners WHERE email = 'demo@example.in'")
            .fetch_one(pool)
            .await
            .unwrap();
    let calls: Vec<(i64, String, i64, i64)> = sqlx::query_as(
        "SELECT DISTINCT user_id, service, amount_paise, user_amount_paise FROM api_transactions",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let mut sources = std::collections::HashSet::new();
    for (user, service, amount, user_amount) in &calls {
        let p = domain::catalogue::pricing::resolve(&mut conn, partner, Some(*user), service)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (p.amount_paise, p.user_amount_paise),
            (*amount, *user_amount),
            "user {user}, {service}"
        );
        sources.insert(format!("{:?}", p.user_amount_source));
    }
    assert!(
        ["User", "Selling", "Margin"]
            .iter()
            .all(|s| sources.contains(*s)),
        "every level shows in the demo: {sources:?}"
    );
    drop(conn);

    domain::seed::run(pool, "admin@seed.test", "Admin-pass-1")
        .await
        .unwrap();
    assert_eq!(counts(pool).await, first, "a second seed changed something");
    let hash_before: String = sqlx::query_scalar("SELECT password_hash FROM super_admins")
        .fetch_one(pool)
        .await
        .unwrap();
    domain::seed::run(pool, "admin@seed.test", "Admin-pass-1")
        .await
        .unwrap();
    let hash_after: String = sqlx::query_scalar("SELECT password_hash FROM super_admins")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(hash_before, hash_after);
}
