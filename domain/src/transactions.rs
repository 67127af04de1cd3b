//! The transaction lists of an end user (User Detail, API Transactions and Product
//! Transactions): the fields of spec part 1, §3 "Transaction record".

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Result,
    paging::{List, Page, PageRequest},
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
    let (columns, table) = match kind {
        Kind::Api => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.service, t.pid, t.status_code, t.status,
             t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise",
            "api_transactions",
        ),
        Kind::Product => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.product AS service, t.pid, t.status_code,
             'success' AS status, t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise",
            "product_transactions",
        ),
    };
    List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            // `table` is one of the two constants above, never input.
            q.push(format!("FROM {table} t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = ")).push_bind(partner_id);
            q.push(" AND t.user_id = ").push_bind(user_id);
            f.push_dates(q, "t.created_at");
        },
        order_by: "t.created_at DESC, t.id DESC",
    }
    .fetch(conn, page)
    .await
}

impl Filter {
    /// `AND` the days of the filter to `column`, a timestamp (constant SQL of the caller); `to`
    /// is inclusive.
    pub fn push_dates(&self, q: &mut QueryBuilder<Postgres>, column: &str) {
        if let Some(from) = self.from {
            q.push(format!(" AND {column} >= ")).push_bind(from);
        }
        if let Some(to) = self.to {
            q.push(format!(" AND {column} < ")).push_bind(to).push(" + 1");
        }
    }
}
