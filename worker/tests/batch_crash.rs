//! A worker SIGKILLed half-way through a batch of 100 rows: a second worker finishes it, and
//! every row is charged exactly once (issue 13).

mod support;

use std::time::Duration;

use domain::{
    gateway::batches::{self, NewBatch},
    infra::audit::Actor,
    wallets::{self, EntryType, Movement, Owner, Reason, WalletKind},
};
use sqlx::Connection;
use support::spawn_worker;

const PRICE: i64 = 250;
const ROWS: usize = 100;

async fn progress(pool: &domain::PgPool, id: i64) -> (String, i32) {
    sqlx::query_as("SELECT status, done_rows FROM batches WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_batch_killed_half_way_is_finished_by_another_worker_each_row_charged_once() {
    let db = testkit::TestDb::new().await;
    let smtp = testkit::SmtpServer::start().await;
    let pool = &db.pool;

    // A partner with Batch Processing, a full-access user, a sandbox API, both wallets funded.
    let partner_id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash, email_verified_at, batch_processing)
         VALUES ('Test', 'Partner', 'acme@partner.test', '9876543210', 'acme', 'x', now(), true) RETURNING id",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let user_id: i64 = sqlx::query_scalar(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, full_access)
         VALUES ($1, 'Asha', 'Rao', 'asha@example.in', '9876543210', 'x', true) RETURNING id",
    )
    .bind(partner_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let input = serde_json::from_value(serde_json::json!({
        "name": "PAN", "category": "Identity", "service": "pan_check", "description": "Verifies a PAN", "endpoint": "/v1/pan",
        "documentation_link": "https://docs.example/pan", "curl_code": "curl -X POST https://api.example/v1/pan",
        "response_code": {"status": "ok"}, "method": "post", "required_fields": ["id_number"], "default_price_paise": PRICE
    }))
    .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let api = domain::catalogue::create(&mut conn, &input, Actor::system())
        .await
        .unwrap();
    sqlx::query("INSERT INTO sandbox_apis (api_id) VALUES ($1)")
        .bind(api.id)
        .execute(pool)
        .await
        .unwrap();
    let funds = 1_000_000;
    let wallet = |owner| {
        let pool = pool.clone();
        async move {
            let mut conn = pool.acquire().await.unwrap();
            let w = wallets::wallet_id(&mut conn, owner, WalletKind::Api)
                .await
                .unwrap();
            let m = Movement {
                wallet_id: w,
                entry_type: EntryType::Credit,
                amount_paise: funds,
                reason: Reason::Manual,
                reference: None,
                idempotency_key: None,
                actor: Actor::system(),
            };
            wallets::apply(&mut conn, &m).await.unwrap();
            w
        }
    };
    let user_wallet = wallet(Owner::User {
        partner_id,
        user_id,
    })
    .await;
    let partner_wallet = wallet(Owner::Partner(partner_id)).await;

    // The batch as the api writes it: rows and job in one transaction.
    let csv: String = std::iter::once("id_number\n".to_owned())
        .chain((1..=ROWS).map(|i| format!("PAN{i:05}\n")))
        .collect();
    let parsed = batches::parse(csv.as_bytes(), &["id_number".to_owned()]).unwrap();
    let new = NewBatch {
        partner_id,
        user_id,
        key_id: None,
        service: "pan_check",
        sandbox: true,
        ip: "127.0.0.1".parse().unwrap(),
        file_name: "kyc.csv",
    };
    let mut tx = conn.begin().await.unwrap();
    let id = batches::create(&mut tx, &new, &parsed).await.unwrap();
    let job_id = jobs::enqueue(&mut tx, &jobs::RunBatch { batch_id: id })
        .await
        .unwrap();
    batches::set_job(&mut tx, id, &job_id).await.unwrap();
    tx.commit().await.unwrap();

    // Ten rows a second: the kill lands mid-batch.
    let rate = [("BATCH_ROWS_PER_SECOND", "10")];
    let mut first = spawn_worker(&db.url, smtp.port, &rate);
    let half = testkit::eventually(Duration::from_secs(60), || async {
        (progress(pool, id).await.1 >= 40).then_some(())
    })
    .await;
    assert!(
        half.is_some(),
        "the batch never got going: {:?}",
        progress(pool, id).await
    );
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let (status, done) = progress(pool, id).await;
    assert_eq!(status, "running");
    assert!((40..ROWS as i32).contains(&done), "killed half-way: {done}");

    let fast = [("BATCH_ROWS_PER_SECOND", "100")];
    let mut second = spawn_worker(&db.url, smtp.port, &fast);
    let finished = testkit::eventually(Duration::from_secs(90), || async {
        (progress(pool, id).await.0 == "completed").then_some(())
    })
    .await;
    second.kill().unwrap();
    second.wait().unwrap();
    assert!(
        finished.is_some(),
        "not finished after the restart: {:?}",
        progress(pool, id).await
    );

    let (done, charged, failed, paid): (i32, i32, i32, i64) = sqlx::query_as(
        "SELECT done_rows, charged_rows, failed_rows, charged_paise FROM batches WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(
        (done, charged, failed, paid),
        (ROWS as i32, ROWS as i32, 0, PRICE * ROWS as i64)
    );
    // One transaction per row, each kept, each with one debit per wallet.
    let per_row: Vec<(i64,)> = sqlx::query_as(
        "SELECT count(t.id) FROM batch_rows r LEFT JOIN api_transactions t ON t.idempotency_key = 'batch:' || r.batch_id || ':' || r.row_no
          WHERE r.batch_id = $1 AND t.status = 'success' AND r.transaction_id = t.id GROUP BY r.row_no",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        per_row.len(),
        ROWS,
        "every row has its one successful transaction"
    );
    assert!(per_row.iter().all(|(n,)| *n == 1));
    let debits: i64 =
        sqlx::query_scalar("SELECT count(*) FROM wallet_entries WHERE reason = 'api_call'")
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(
        debits,
        2 * ROWS as i64,
        "one debit per wallet per row, none twice"
    );
    for w in [user_wallet, partner_wallet] {
        let balance: i64 = sqlx::query_scalar("SELECT balance_paise FROM wallets WHERE id = $1")
            .bind(w)
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(balance, funds - PRICE * ROWS as i64);
    }
}
