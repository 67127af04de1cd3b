//! An end user's API and product logs (User Detail 'API Logs' and 'Product Logs'; spec part 1
//! 'User Detail', part 2 §2.15 'Api Logs'): one row per call or purchase, whatever its outcome.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Result,
    paging::{Page, PageRequest},
    transactions::Filter,
};

/// One API call: Date, Services, Status Code, Amount (and the PID, VID and VPID of the
/// super admin's list).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ApiLog {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub user_id: i64,
    pub service: String,
    pub pid: String,
    /// The verification id given to the caller.
    pub vid: String,
    /// The upstream provider's reference.
    pub vpid: String,
    pub status_code: i32,
    pub amount_paise: i64,
    pub transaction_id: Option<i64>,
}

/// One product event: Date, Description, Status Code, Amount.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ProductLog {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub user_id: i64,
    pub description: String,
    pub status_code: i32,
    pub amount_paise: i64,
}

/// One user's API calls, newest first.
pub async fn api_logs(conn: &mut PgConnection, partner_id: i64, user_id: i64, f: &Filter, page: PageRequest) -> Result<Page<ApiLog>> {
    user_page(conn, "api_logs", "id, created_at, user_id, service, pid, vid, vpid, status_code, amount_paise, transaction_id", partner_id, user_id, f, page).await
}

/// One user's product events, newest first.
pub async fn product_logs(conn: &mut PgConnection, partner_id: i64, user_id: i64, f: &Filter, page: PageRequest) -> Result<Page<ProductLog>> {
    user_page(conn, "product_logs", "id, created_at, user_id, description, status_code, amount_paise", partner_id, user_id, f, page).await
}

/// One page of a user's rows of `table` (a constant of this module, never input), newest first.
/// The caller has checked that the user is the partner's; the partner id is in the WHERE all
/// the same.
async fn user_page<T>(conn: &mut PgConnection, table: &'static str, columns: &'static str, partner_id: i64, user_id: i64, f: &Filter, page: PageRequest) -> Result<Page<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    const WHERE: &str = "WHERE partner_id = $1 AND user_id = $2
        AND ($3::date IS NULL OR created_at >= $3::date) AND ($4::date IS NULL OR created_at < $4::date + 1)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {table} {WHERE}")))
        .bind(partner_id)
        .bind(user_id)
        .bind(f.from)
        .bind(f.to)
        .fetch_one(&mut *conn)
        .await?;
    let items = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {columns} FROM {table} {WHERE} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6"
    )))
    .bind(partner_id)
    .bind(user_id)
    .bind(f.from)
    .bind(f.to)
    .bind(page.limit())
    .bind(page.offset())
    .fetch_all(&mut *conn)
    .await?;
    Ok(Page::new(items, total, page))
}
