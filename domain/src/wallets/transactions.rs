//! The transaction lists of an end user (User Detail, API Transactions and Product
//! Transactions): the fields of spec part 1, §3 "Transaction record".

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Result,
    infra::paging::{Counts, Keys, List, Page, PageRequest, contains_pattern, push_days},
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
    /// What the partner paid in the end: `amount_paise`, or 0 once the call was refunded.
    pub net_paise: i64,
    /// What the end user paid in the end: `user_amount_paise`, or 0 once refunded.
    pub user_net_paise: i64,
    /// The user's wallet balance after the transaction (after its refund, for a refunded call).
    pub remaining_paise: Option<i64>,
    /// The partner's wallet balance after the transaction (after its refund, for a refunded
    /// call).
    pub partner_remaining_paise: Option<i64>,
}

/// A transaction as its end user sees it (the portal's History): what the user paid and its own
/// balance after, never what the partner paid or the partner's balance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OwnTransaction {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    /// The API's service key.
    pub service: String,
    pub pid: String,
    /// HTTP-like code (200 success); `null` while a call is pending.
    pub status_code: Option<i32>,
    /// pending, success, failed or refunded.
    pub status: String,
    /// `credit` or `debit`.
    pub amount_type: String,
    /// What the user paid.
    pub amount_paise: i64,
    /// What the user paid in the end: `amount_paise`, or 0 once the call was refunded.
    pub net_paise: i64,
    /// The user's wallet balance after the transaction (after its refund, for a refunded call).
    pub balance_paise: Option<i64>,
}

impl From<Transaction> for OwnTransaction {
    fn from(t: Transaction) -> Self {
        Self {
            id: t.id,
            created_at: t.created_at,
            service: t.service,
            pid: t.pid,
            status_code: t.status_code,
            status: t.status,
            amount_type: t.amount_type,
            amount_paise: t.user_amount_paise,
            net_paise: t.user_net_paise,
            balance_paise: t.remaining_paise,
        }
    }
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
/// partner's; the partner id is in the WHERE all the same. Counted (`paging::Counts`).
pub async fn for_user(
    conn: &mut PgConnection,
    kind: Kind,
    partner_id: i64,
    user_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<Transaction>> {
    let (columns, table) = source(kind);
    List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            // `table` is one of the two constants of `source`, never input.
            q.push(format!(
                "FROM {table} t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = "
            ))
            .push_bind(partner_id);
            q.push(" AND t.user_id = ").push_bind(user_id);
            f.push_dates(q, "t.created_at");
        },
        order_by: "t.created_at DESC, t.id DESC",
    }
    .fetch_counted(
        conn,
        page,
        &f.counts(table, partner_id, Some(vec![user_id]), None),
        &user_keys(table, user_id),
    )
    .await
}

/// The keys of one user's rows of `table` (a constant of this crate), from its
/// `(user_id, created_at DESC, id DESC)` index; the counters already hold only the partner's.
pub(crate) fn user_keys(
    table: &'static str,
    user_id: i64,
) -> Keys<impl Fn(&mut QueryBuilder<Postgres>)> {
    Keys {
        rows: move |q: &mut QueryBuilder<Postgres>| {
            q.push(format!("FROM {table} t WHERE t.user_id = "))
                .push_bind(user_id);
        },
        time: "t.created_at",
        id: "t.id",
    }
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
    pub fn push(
        &self,
        q: &mut QueryBuilder<Postgres>,
        date_col: &str,
        pid_col: Option<&str>,
        service_col: &str,
    ) {
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
/// Transactions shows the same rows with the partner's side of the money). Counted unless a
/// PID is asked for.
pub async fn for_partner(
    conn: &mut PgConnection,
    kind: Kind,
    partner_id: i64,
    f: &PartnerFilter,
    page: PageRequest,
) -> Result<Page<Transaction>> {
    let (columns, table) = source(kind);
    let service_col = if kind == Kind::Api {
        "t.service"
    } else {
        "t.product"
    };
    let list = List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            // `table` is one of the two constants of `source`, never input.
            q.push(format!(
                "FROM {table} t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = "
            ))
            .push_bind(partner_id);
            f.push(q, "t.created_at", Some("t.pid"), service_col);
        },
        order_by: "t.created_at DESC, t.id DESC",
    };
    match f.counts(conn, table, partner_id, true, true).await? {
        Some(counts) => {
            list.fetch_counted(
                conn,
                page,
                &counts,
                &partner_keys(table, partner_id, &counts, service_col),
            )
            .await
        }
        None => list.fetch(conn, page).await,
    }
}

/// The keys of a partner's rows of `table` (a constant of this crate) for `counts`: one user's
/// or some users' from the user index, else the partner's from its partner index;
/// `label_col` is the column `counts.labels` name (constant SQL).
pub(crate) fn partner_keys<'a>(
    table: &'static str,
    partner_id: i64,
    counts: &'a Counts,
    label_col: &'static str,
) -> Keys<impl Fn(&mut QueryBuilder<Postgres>) + 'a> {
    Keys {
        rows: move |q: &mut QueryBuilder<Postgres>| {
            match &counts.users {
                // Users the partner's own (`PartnerFilter::counts` read them from its users).
                Some(users) => q
                    .push(format!("FROM {table} t WHERE t.user_id = ANY("))
                    .push_bind(users.clone())
                    .push(")"),
                None => q
                    .push(format!("FROM {table} t WHERE t.partner_id = "))
                    .push_bind(partner_id),
            };
            if let Some(labels) = &counts.labels {
                q.push(format!(" AND {label_col} = ANY("))
                    .push_bind(labels.clone())
                    .push(")");
            }
        },
        time: "t.created_at",
        id: "t.id",
    }
}

/// The select list and the table of a kind of transaction.
fn source(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Api => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.service, t.pid, t.status_code, t.status,
             t.amount_type, t.amount_paise, t.user_amount_paise,
             CASE WHEN t.status = 'refunded' THEN 0 ELSE t.amount_paise END AS net_paise,
             CASE WHEN t.status = 'refunded' THEN 0 ELSE t.user_amount_paise END AS user_net_paise,
             t.remaining_paise, t.partner_remaining_paise",
            "api_transactions",
        ),
        Kind::Product => (
            "t.id, t.created_at, t.user_id, u.email::text AS email, t.product AS service, t.pid, t.status_code,
             'success' AS status, t.amount_type, t.amount_paise, t.user_amount_paise, t.amount_paise AS net_paise,
             t.user_amount_paise AS user_net_paise, t.remaining_paise, t.partner_remaining_paise",
            "product_transactions",
        ),
    }
}

impl Filter {
    /// `AND` the days of the filter (IST, `to` inclusive) to `column`, a timestamp (constant
    /// SQL of the caller).
    pub fn push_dates(&self, q: &mut QueryBuilder<Postgres>, column: &str) {
        push_days(q, column, self.from, self.to);
    }

    /// The counters of `source`'s rows of one partner within these days.
    pub(crate) fn counts(
        &self,
        source: &'static str,
        partner_id: i64,
        users: Option<Vec<i64>>,
        labels: Option<Vec<String>>,
    ) -> Counts {
        Counts {
            source,
            scopes: vec![partner_id],
            users,
            labels,
            from: self.from,
            to: self.to,
        }
    }
}

impl PartnerFilter {
    /// The counters that hold what this filter keeps of `source` (a list with a PID column
    /// when `has_pid`, and whose Services match the counters' label when `labelled`): User ID
    /// and Email become the partner's users they match, Services the labels it matches among
    /// the partner's. `None` when the filter asks what no counter holds: a part of a PID, or
    /// Services of an unlabelled list; the list then counts its rows.
    pub(crate) async fn counts(
        &self,
        conn: &mut PgConnection,
        source: &'static str,
        partner_id: i64,
        has_pid: bool,
        labelled: bool,
    ) -> Result<Option<Counts>> {
        let service = contains_pattern(self.service.as_deref());
        if (has_pid && contains_pattern(self.pid.as_deref()).is_some())
            || (!labelled && service.is_some())
        {
            return Ok(None);
        }
        let email = contains_pattern(self.email.as_deref());
        let users = if self.user_id.is_some() || email.is_some() {
            let ids: Vec<i64> = sqlx::query_scalar(
                "SELECT id FROM end_users WHERE partner_id = $1 AND ($2::bigint IS NULL OR id = $2)
                    AND ($3::text IS NULL OR email::text ILIKE $3) ORDER BY id",
            )
            .bind(partner_id)
            .bind(self.user_id)
            .bind(&email)
            .fetch_all(&mut *conn)
            .await?;
            Some(ids)
        } else {
            None
        };
        let labels = match service {
            Some(p) => Some(
                sqlx::query_scalar(
                    "SELECT DISTINCT label FROM list_counts
                      WHERE source = $1 AND scope = $2 AND user_id = 0 AND label <> '' AND label ILIKE $3 AND n > 0",
                )
                .bind(source)
                .bind(partner_id)
                .bind(p)
                .fetch_all(&mut *conn)
                .await?,
            ),
            None => None,
        };
        Ok(Some(self.dates.counts(source, partner_id, users, labels)))
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
    /// The same as `type`, under the name the transaction lists use.
    pub amount_type: String,
    /// The same as `balance_after_paise`, under the name the transaction lists use.
    pub remaining_paise: i64,
    pub user_id: i64,
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
/// `wallets::charge::reference` and its SQL twin `txn_reference`).
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
pub async fn ledger(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    kind: WalletKind,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<LedgerRow>> {
    let owner = Owner::User {
        partner_id,
        user_id,
    };
    let filter = EntryFilter {
        kind: Some(kind),
        entry_type: None,
        from: f.from,
        to: f.to,
    };
    let entries = wallets::entries(conn, owner, &filter, page).await?;

    let calls: Vec<i64> = entries
        .items
        .iter()
        .filter(|e| e.reason == "api_call" || e.reason == "refund")
        .filter_map(|e| e.reference.as_deref().and_then(transaction_of))
        .collect();
    let purchases: Vec<String> = entries
        .items
        .iter()
        .filter(|e| e.reason == "product")
        .filter_map(|e| e.reference.clone())
        .collect();

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
        call_rows.extend(
            rows.into_iter()
                .map(|(id, pid, service, status, code)| (id, (pid, service, status, code))),
        );
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
        purchase_rows.extend(
            rows.into_iter()
                .map(|(pid, product, code)| (pid, (product, code))),
        );
    }

    Ok(entries.map(|e| {
        let mut row = LedgerRow {
            id: e.id,
            created_at: e.created_at,
            amount_type: e.entry_type.clone(),
            entry_type: e.entry_type,
            amount_paise: e.amount_paise,
            balance_after_paise: e.balance_after_paise,
            remaining_paise: e.balance_after_paise,
            user_id,
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
