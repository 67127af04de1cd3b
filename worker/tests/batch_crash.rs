//! A worker SIGKILLed half-way through a batch of 100 rows: a second worker finishes it, and
//! every row is charged exactly once (issue 13).

mod support;

use std::time::Duration;

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

    let partner = support::BatchPartner::create(pool, PRICE).await;
    let id = partner.queue_batch(pool, ROWS).await;
    let (user_wallet, partner_wallet, funds) =
        (partner.user_wallet, partner.partner_wallet, partner.funds);

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
