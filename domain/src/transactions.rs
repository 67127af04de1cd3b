//! The transaction lists of an end user (User Detail, API Transactions and Product
//! Transactions): the fields of spec part 1, §3 "Transaction record".

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Result,
    paging::{List, Page, PageRequest, contains_pattern},
    wallets::{self, EntryFilter, Owner, WalletKind},
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
    /// The partner's wallet balance after the transaction (API calls; `null` for products).
    pub partner_remaining_paise: Option<i64>,
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
    let (columns, table) = source(kind);
    List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            // `table` is one of the two constants of `source`, never input.
            q.push(format!("FROM {table} t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = ")).push_bind(partner_id);
            q.push(" AND t.user_id = ").push_bind(user_id);
            f.push_dates(q, "t.created_at");
        },
        order_by: "t.created_at DESC, t.id DESC",
    }
    .fetch(conn, page)
    .await
}

/// The filter panel of the partner-wide lists (User Transactions, My Transactions): User ID,
/// Email, PID, Services and Date. Email, PID and Services match a part of the text, in any case.
#[derive(Debug, Clone, Default)]
pub struct PartnerFilter {
    pub user_id: Option<i64>,
    pub email: Option<String>,
    pub pid: Option<String>,
    pub service: Option<String>,
    pub dates: Filter,
}

impl PartnerFilter {
    /// `AND`s the panel's fields to a list of `t` joined to its users as `u`; `date_col`,
    /// `pid_col` and `service_col` are constant SQL of the caller (`None`: no PID column).
    pub fn push(&self, q: &mut QueryBuilder<Postgres>, date_col: &str, pid_col: Option<&str>, service_col: &str) {
        if let Some(u) = self.user_id {
            q.push(" AND t.user_id = ").push_bind(u);
        }
        if let Some(p) = contains_pattern(self.email.as_deref()) {
            q.push(" AND u.email::text ILIKE ").push_bind(p);
        }
        if let (Some(col), Some(p)) = (pid_col, contains_pattern(self.pid.as_deref())) {
            q.push(format!(" AND {col} ILIKE ")).push_bind(p);
        }
        if let Some(p) = contains_pattern(self.service.as_deref()) {
            q.push(format!(" AND {service_col} ILIKE ")).push_bind(p);
        }
        self.dates.push_dates(q, date_col);
    }
}

/// Every user's transactions of one partner, newest first (User Transactions; My
/// Transactions shows the same rows with the partner's side of the money).
pub async fn for_partner(conn: &mut PgConnection, kind: Kind, partner_id: i64, f: &PartnerFilter, page: PageRequest) -> Result<Page<Transaction>> {
    let (columns, table) = source(kind);
    let service_col = if kind == Kind::Api { "t.service" } else { "t.product" };
    List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            // `table` is one of the two constants of `source`, never input.
            q.push(format!("FROM {table} t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = ")).push_bind(partner_id);
            f.push(q, "t.created_at", Some("t.pid"), service_col);
        },
        order_by: "t.created_at DESC, t.id DESC",
    }
    .fetch(conn, page)
    .await
}

/// The select list and the table of a kind of transaction.
fn source(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Api => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.service, t.pid, t.status_code, t.status,
             t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise, t.partner_remaining_paise",
            "api_transactions",
        ),
        Kind::Product => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.product AS service, t.pid, t.status_code,
             'success' AS status, t.amount_type, t.amount_paise, t.user_amount_paise, t.remaining_paise,
             NULL::bigint AS partner_remaining_paise",
            "product_transactions",
        ),
    }
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

/// One row of an end user's wallet ledger (User Detail, API Transactions and Product
/// Transactions): every movement of the wallet with the balance after it. A partner's manual
/// credit or debit is a row of its own; a gateway call is its debit, and when the call failed,
/// the refund's credit beside it, both marked with the call's status.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LedgerRow {
    /// The ledger entry's id.
    pub id: i64,
    pub created_at: DateTime<Utc>,
    /// `credit` or `debit`.
    #[serde(rename = "type")]
    #[schema(rename = "type")]
    pub entry_type: String,
    pub amount_paise: i64,
    /// The wallet's balance right after this entry.
    pub balance_after_paise: i64,
    /// `manual` (the partner or the super admin), `api_call`, `refund` or `product`.
    pub reason: String,
    /// The note of a manual entry, or the call's or purchase's reference.
    pub reference: Option<String>,
    /// The gateway transaction (API wallet) behind the entry.
    pub transaction_id: Option<i64>,
    pub pid: Option<String>,
    /// The API's service key or the product's name; `null` for a manual entry.
    pub service: Option<String>,
    /// The call's state: `pending`, `success`, `failed` or `refunded`; `null` for a manual entry.
    pub status: Option<String>,
    pub status_code: Option<i32>,
}

/// The gateway transaction a ledger reference names (`TXN00000042`, see
/// `wallets::charge::reference`).
pub fn transaction_of(reference: &str) -> Option<i64> {
    let digits = reference.strip_prefix("TXN")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// One user's ledger of one wallet, newest first. The page is the wallet's entries (one paged
/// list, `wallets::entries`); the calls and purchases they name are read for that page only,
/// by id, and only among this user's rows.
pub async fn ledger(conn: &mut PgConnection, partner_id: i64, user_id: i64, kind: WalletKind, f: &Filter, page: PageRequest) -> Result<Page<LedgerRow>> {
    let owner = Owner::User { partner_id, user_id };
    let filter = EntryFilter { kind: Some(kind), entry_type: None, from: f.from, to: f.to };
    let entries = wallets::entries(conn, owner, &filter, page).await?;

    let calls: Vec<i64> = entries
        .items
        .iter()
        .filter(|e| e.reason == "api_call" || e.reason == "refund")
        .filter_map(|e| e.reference.as_deref().and_then(transaction_of))
        .collect();
    let purchases: Vec<String> = entries.items.iter().filter(|e| e.reason == "product").filter_map(|e| e.reference.clone()).collect();

    let mut call_rows = std::collections::HashMap::new();
    if !calls.is_empty() {
        let rows: Vec<(i64, String, String, String, Option<i32>)> = sqlx::query_as(
            "SELECT id, pid, service, status, status_code FROM api_transactions WHERE partner_id = $1 AND user_id = $2 AND id = ANY($3)",
        )
        .bind(partner_id)
        .bind(user_id)
        .bind(&calls)
        .fetch_all(&mut *conn)
        .await?;
        call_rows.extend(rows.into_iter().map(|(id, pid, service, status, code)| (id, (pid, service, status, code))));
    }
    let mut purchase_rows = std::collections::HashMap::new();
    if !purchases.is_empty() {
        // A purchase's ledger reference is its PID.
        let rows: Vec<(String, String, i32)> = sqlx::query_as(
            "SELECT DISTINCT ON (pid) pid, product, status_code FROM product_transactions
              WHERE partner_id = $1 AND user_id = $2 AND pid = ANY($3) ORDER BY pid, id",
        )
        .bind(partner_id)
        .bind(user_id)
        .bind(&purchases)
        .fetch_all(&mut *conn)
        .await?;
        purchase_rows.extend(rows.into_iter().map(|(pid, product, code)| (pid, (product, code))));
    }

    Ok(entries.map(|e| {
        let mut row = LedgerRow {
            id: e.id,
            created_at: e.created_at,
            entry_type: e.entry_type,
            amount_paise: e.amount_paise,
            balance_after_paise: e.balance_after_paise,
            reason: e.reason,
            reference: e.reference,
            transaction_id: None,
            pid: None,
            service: None,
            status: None,
            status_code: None,
        };
        let reference = row.reference.as_deref().unwrap_or("");
        match row.reason.as_str() {
            "api_call" | "refund" => {
                if let Some(id) = transaction_of(reference)
                    && let Some((pid, service, status, code)) = call_rows.get(&id)
                {
                    row.transaction_id = Some(id);
                    row.pid = Some(pid.clone());
                    row.service = Some(service.clone());
                    row.status = Some(status.clone());
                    row.status_code = *code;
                }
            }
            "product" => {
                if let Some((product, code)) = purchase_rows.get(reference) {
                    row.pid = Some(reference.to_owned());
                    row.service = Some(product.clone());
                    row.status = Some("success".to_owned());
                    row.status_code = Some(*code);
                }
            }
            _ => {}
        }
        row
    }))
}
