//! Who caused a job: a partner's request that enqueues a job records it here, in the same
//! transaction, so the job-state endpoint can show a partner its own jobs and nobody else's.

use sqlx::PgConnection;

use crate::Result;

/// Records that `partner_id` caused job `job_id` (call it right after enqueueing).
pub async fn record(conn: &mut PgConnection, job_id: &str, partner_id: i64) -> Result<()> {
    sqlx::query("INSERT INTO job_owners (job_id, partner_id) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING")
        .bind(job_id)
        .bind(partner_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether `partner_id` caused job `job_id`.
pub async fn is_owner(conn: &mut PgConnection, job_id: &str, partner_id: i64) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM job_owners WHERE job_id = $1 AND partner_id = $2)",
    )
    .bind(job_id)
    .bind(partner_id)
    .fetch_one(conn)
    .await?)
}
