//! The transaction lists of an end user (User Detail, API Transactions and Product
//! Transactions): the fields of spec part 1, §3 "Transaction record".

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Result,
    paging::{Page, PageRequest},
};

/// One row: createdAt, userId, email, services, PID, status, amount, userAmount, amountType,
/// remainingAmount.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Transaction {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub user_id: i64,
    pub email: String,
    /// The API's service key, or the product's name.
    pub service: String,
    pub pid: String,
    /// HTTP-like code (200 success); `null` while a call is pending.
    pub status_code: Option<i32>,
    /// pending, success, failed or refunded (API calls); products are always success.
    pub status: String,
    /// `credit` or `debit`.
    pub amount_type: String,
    /// What the partner paid.
    pub amount_paise: i64,
    /// What the end user paid.
    pub user_amount_paise: i64,
    /// The user's wallet balance after the transaction.
    pub remaining_paise: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Api,
    Product,
}

#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// One user's transactions, newest first. The caller has checked that the user is the
/// partner's; the partner id is in the WHERE all the same.
pub async fn for_user(conn: &mut PgConnection, kind: Kind, partner_id: i64, user_id: i64, f: &Filter, page: PageRequest) -> Result<Page<Transaction>> {
    let (count_sql, list_sql) = match kind {
        Kind::Api => (
            "SELECT count(*) FROM api_transactions t
              WHERE t.partner_id = $1 AND t.user_id = $2
                AND ($3::date IS NULL OR t.created_at >= $3::date) AND ($4::date IS NULL OR t.created_at < $4::date + 1)",
            "SELECT t.id, t.created_at, t.user_id, u.email::text AS email, t.service, t.pid, t.status_code, t.status,
                    t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise
               FROM api_transactions t JOIN end_users u ON u.id = t.user_id
              WHERE t.partner_id = $1 AND t.user_id = $2
                AND ($3::date IS NULL OR t.created_at >= $3::date) AND ($4::date IS NULL OR t.created_at < $4::date + 1)
              ORDER BY t.created_at DESC, t.id DESC LIMIT $5 OFFSET $6",
        ),
        Kind::Product => (
            "SELECT count(*) FROM product_transactions t
              WHERE t.partner_id = $1 AND t.user_id = $2
                AND ($3::date IS NULL OR t.created_at >= $3::date) AND ($4::date IS NULL OR t.created_at < $4::date + 1)",
            "SELECT t.id, t.created_at, t.user_id, u.email::text AS email, t.product AS service, t.pid, t.status_code,
                    'success' AS status, t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise
               FROM product_transactions t JOIN end_users u ON u.id = t.user_id
              WHERE t.partner_id = $1 AND t.user_id = $2
                AND ($3::date IS NULL OR t.created_at >= $3::date) AND ($4::date IS NULL OR t.created_at < $4::date + 1)
              ORDER BY t.created_at DESC, t.id DESC LIMIT $5 OFFSET $6",
        ),
    };
    let total: i64 = sqlx::query_scalar(count_sql).bind(partner_id).bind(user_id).bind(f.from).bind(f.to).fetch_one(&mut *conn).await?;
    let items = sqlx::query_as(list_sql)
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
