//! A connection keeps its plans; with autovacuum off nothing renews the statistics they were
//! made from, so a plan made while a table was small stays (`domain::infra::planner_stats`).
//! Here the foreign-key check of a call's transaction row against `end_users (partner_id, id)`,
//! planned on a connection while the partner had one user, read the partner's users one by one
//! after it had 20,000; the `analyze_tables` job makes it plan again, by the unique index.

use sqlx::{Connection, PgConnection, PgPool};

use crate::common::TestApp;

/// Index scans of `end_users` by the partner's list index and by the (partner, id) key, as the
/// statistics system has them.
async fn end_user_scans(pool: &PgPool) -> (i64, i64) {
    sqlx::query_as(
        "SELECT sum(idx_scan) FILTER (WHERE indexrelname = 'end_users_partner_created_idx')::bigint,
                sum(idx_scan) FILTER (WHERE indexrelname = 'end_users_partner_id_id_key')::bigint
           FROM pg_stat_user_indexes WHERE relname = 'end_users'",
    )
    .fetch_one(pool)
    .await
    .unwrap()
}

/// A call's transaction row on `conn`, checked against `end_users` by Postgres's foreign-key
/// plan of that connection; its statistics reported as soon as the statement ends.
async fn call_row(conn: &mut PgConnection, partner: i64, user: i64) {
    sqlx::query("SELECT pg_stat_force_next_flush()")
        .execute(&mut *conn)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO api_transactions (partner_id, user_id, service, pid, amount_paise, user_amount_paise)
         VALUES ($1, $2, 'pan_check', 'PID1', 100, 120)",
    )
    .bind(partner)
    .bind(user)
    .execute(&mut *conn)
    .await
    .unwrap();
}

/// The index scans of `end_users` (list index, key) that one call row on `conn` made.
async fn scans_of_a_call(
    pool: &PgPool,
    conn: &mut PgConnection,
    partner: i64,
    user: i64,
) -> (i64, i64) {
    let before = end_user_scans(pool).await;
    call_row(conn, partner, user).await;
    let after = end_user_scans(pool).await;
    (after.0 - before.0, after.1 - before.1)
}

#[tokio::test]
async fn a_plan_made_on_a_small_table_is_made_again_after_the_analyze_job() {
    let app = TestApp::spawn().await;
    let pool = &app.db.pool;
    let partner: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash)
         VALUES ('Asha', 'Rao', 'stats@example.in', '9876543210', 'statspartner', 'x') RETURNING id",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash)
         VALUES ($1, 'First', 'User', 'first@example.in', '9876543210', 'x') RETURNING id",
    )
    .bind(partner)
    .fetch_one(pool)
    .await
    .unwrap();

    // A long-lived connection (as the charging tasks' are) plans the check on a one-user table.
    let mut held = PgConnection::connect(&app.db.url).await.unwrap();
    call_row(&mut held, partner, user).await;

    // The partner grows; its first user is now the last of its 20,001 in the list index.
    let mut writer = PgConnection::connect(&app.db.url).await.unwrap();
    sqlx::query(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash)
         SELECT $1, 'Grown', 'User', 'u' || g || '@example.in', '9876543210', 'x' FROM generate_series(1, 20000) g",
    )
    .bind(partner)
    .execute(&mut writer)
    .await
    .unwrap();
    // A backend sends its statistics when it goes idle, at most once a second; what it holds
    // back waits up to 10 s. Forced after the insert, the count is sent before this statement is
    // answered, so the job sees it. (Forced before the insert, the flush went with that
    // statement, and an insert finished within the second was held back: on a fast machine the
    // job then found nothing to analyse.)
    sqlx::query("SELECT pg_stat_force_next_flush()")
        .execute(&mut writer)
        .await
        .unwrap();

    assert_eq!(
        scans_of_a_call(pool, &mut held, partner, user).await,
        (1, 0),
        "the kept plan reads the partner's users through the list index"
    );

    let ctx = jobs::JobContext::new(pool.clone(), app.config.clone()).unwrap();
    jobs::registry::enqueue_periodic::<jobs::AnalyzeTables>(&ctx, chrono::Utc::now())
        .await
        .unwrap()
        .expect("queued");
    app.run_pending_jobs().await;
    let analysed: Option<chrono::DateTime<chrono::Utc>> = sqlx::query_scalar(
        "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'end_users'",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert!(analysed.is_some(), "end_users analysed by the job");

    assert_eq!(
        scans_of_a_call(pool, &mut held, partner, user).await,
        (0, 1),
        "the same connection plans the check again, by the (partner, id) key"
    );

    // Nothing changed since: nothing to analyse.
    let again = domain::infra::planner_stats::analyze_changed(pool)
        .await
        .unwrap();
    assert!(
        !again.iter().any(|t| t.ends_with(".end_users")),
        "{again:?}"
    );
}
