//! An end user's API and product logs (User Detail 'API Logs' and 'Product Logs'; spec part 1
//! 'User Detail', part 2 §2.15 'Api Logs'): one row per call or purchase, whatever its outcome.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Result,
    infra::paging::{List, Page, PageRequest},
    wallets::transactions::{Filter, PartnerFilter, partner_keys, user_keys},
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
    /// Why the gateway refused the call (402, 403, 404, 422, 429; nothing charged); absent for
    /// a call that was charged.
    pub reason: Option<String>,
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

/// One user's API calls, newest first; only those answered `status` when given (not counted:
/// no counter is kept per status, so it walks the user's index for the dates).
pub async fn api_logs(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    f: &Filter,
    status: Option<i32>,
    page: PageRequest,
) -> Result<Page<ApiLog>> {
    const COLUMNS: &str = "t.id, t.created_at, t.user_id, t.service, t.pid, t.vid, t.vpid, t.status_code, t.amount_paise, t.transaction_id, t.reason";
    let Some(status) = status else {
        return user_page(conn, "api_logs", COLUMNS, partner_id, user_id, f, page).await;
    };
    List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM api_logs t WHERE t.partner_id = ")
                .push_bind(partner_id);
            q.push(" AND t.user_id = ").push_bind(user_id);
            q.push(" AND t.status_code = ").push_bind(status);
            f.push_dates(q, "t.created_at");
        },
        order_by: "t.created_at DESC, t.id DESC",
    }
    .fetch(conn, page)
    .await
}

/// One user's product events, newest first.
pub async fn product_logs(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<ProductLog>> {
    user_page(
        conn,
        "product_logs",
        "id, created_at, user_id, description, status_code, amount_paise",
        partner_id,
        user_id,
        f,
        page,
    )
    .await
}

/// One page of a user's rows of `table` (a constant of this module, never input), newest first,
/// counted. The caller has checked that the user is the partner's; the partner id is in the
/// WHERE all the same.
async fn user_page<T>(
    conn: &mut PgConnection,
    table: &'static str,
    columns: &'static str,
    partner_id: i64,
    user_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    List {
        columns,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push(format!("FROM {table} t WHERE t.partner_id = "))
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

/// The super admin's Api Logs of a client: date range, user id, PID, VID, VPID and service
/// narrow it; text filters match exactly (they are ids copied from elsewhere).
#[derive(Debug, Clone, Default)]
pub struct ClientLogFilter {
    pub dates: Filter,
    pub user_id: Option<i64>,
    pub pid: Option<String>,
    pub vid: Option<String>,
    pub vpid: Option<String>,
    pub service: Option<String>,
}

/// A client's API calls, all its users, newest first (index `api_logs_partner_idx`). Counted
/// unless a PID, VID or VPID is asked for.
pub async fn client_api_logs(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &ClientLogFilter,
    page: PageRequest,
) -> Result<Page<ApiLog>> {
    let list = List {
        columns: "t.id, t.created_at, t.user_id, t.service, t.pid, t.vid, t.vpid, t.status_code, t.amount_paise, t.transaction_id, t.reason",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM api_logs t WHERE t.partner_id = ")
                .push_bind(partner_id);
            if let Some(u) = f.user_id {
                q.push(" AND t.user_id = ").push_bind(u);
            }
            for (column, value) in [
                ("t.pid", &f.pid),
                ("t.vid", &f.vid),
                ("t.vpid", &f.vpid),
                ("t.service", &f.service),
            ] {
                if let Some(v) = value {
                    q.push(format!(" AND {column} = ")).push_bind(v.clone());
                }
            }
            f.dates.push_dates(q, "t.created_at");
        },
        order_by: "t.created_at DESC, t.id DESC",
    };
    if f.pid.is_some() || f.vid.is_some() || f.vpid.is_some() {
        return list.fetch(conn, page).await;
    }
    let users = match f.user_id {
        // Only a user of this client has counters here; keys by user need it to be one.
        Some(u) => Some(
            sqlx::query_scalar("SELECT id FROM end_users WHERE partner_id = $1 AND id = $2")
                .bind(partner_id)
                .bind(u)
                .fetch_all(&mut *conn)
                .await?,
        ),
        None => None,
    };
    let counts = f.dates.counts(
        "api_logs",
        partner_id,
        users,
        f.service.clone().map(|s| vec![s]),
    );
    list.fetch_counted(
        conn,
        page,
        &counts,
        &partner_keys("api_logs", partner_id, &counts, "t.service"),
    )
    .await
}

/// Every user's API calls of one partner, newest first (User Transactions, API logs); only
/// those answered `status` when given. Counted unless a PID or a status is asked for.
pub async fn partner_api_logs(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &PartnerFilter,
    status: Option<i32>,
    page: PageRequest,
) -> Result<Page<ApiLog>> {
    let list = List {
        columns: "t.id, t.created_at, t.user_id, t.service, t.pid, t.vid, t.vpid, t.status_code, t.amount_paise, t.transaction_id, t.reason",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM api_logs t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = ")
                .push_bind(partner_id);
            if let Some(status) = status {
                q.push(" AND t.status_code = ").push_bind(status);
            }
            f.push(q, "t.created_at", Some("t.pid"), "t.service");
        },
        order_by: "t.created_at DESC, t.id DESC",
    };
    if status.is_some() {
        return list.fetch(conn, page).await;
    }
    match f.counts(conn, "api_logs", partner_id, true, true).await? {
        Some(counts) => {
            list.fetch_counted(
                conn,
                page,
                &counts,
                &partner_keys("api_logs", partner_id, &counts, "t.service"),
            )
            .await
        }
        None => list.fetch(conn, page).await,
    }
}

/// Every user's product events of one partner, newest first (User Transactions, Product
/// logs). Services matches the description; product events have no PID. Counted unless
/// Services is asked for (a description is no counter's label).
pub async fn partner_product_logs(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &PartnerFilter,
    page: PageRequest,
) -> Result<Page<ProductLog>> {
    let list = List {
        columns: "t.id, t.created_at, t.user_id, t.description, t.status_code, t.amount_paise",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push(
                "FROM product_logs t JOIN end_users u ON u.id = t.user_id WHERE t.partner_id = ",
            )
            .push_bind(partner_id);
            f.push(q, "t.created_at", None, "t.description");
        },
        order_by: "t.created_at DESC, t.id DESC",
    };
    match f
        .counts(conn, "product_logs", partner_id, false, false)
        .await?
    {
        Some(counts) => {
            list.fetch_counted(
                conn,
                page,
                &counts,
                &partner_keys("product_logs", partner_id, &counts, "t.description"),
            )
            .await
        }
        None => list.fetch(conn, page).await,
    }
}

/// A refused call of a known caller (a valid key): kept in the API log with its status and
/// reason, nothing charged and no transaction.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub partner_id: i64,
    pub user_id: i64,
    pub service: String,
    /// The catalogue's PID when the service was found.
    pub pid: String,
    pub status_code: i32,
    pub reason: String,
    pub ip: IpAddr,
    pub at: DateTime<Utc>,
}

/// Writes refusals in one statement (the api batches them off the call's path).
pub async fn record_refusals(conn: &mut PgConnection, refusals: &[Refusal]) -> Result<()> {
    if refusals.is_empty() {
        return Ok(());
    }
    let col = |f: fn(&Refusal) -> String| refusals.iter().map(f).collect::<Vec<_>>();
    let partner: Vec<i64> = refusals.iter().map(|r| r.partner_id).collect();
    let user: Vec<i64> = refusals.iter().map(|r| r.user_id).collect();
    let code: Vec<i32> = refusals.iter().map(|r| r.status_code).collect();
    let at: Vec<DateTime<Utc>> = refusals.iter().map(|r| r.at).collect();
    sqlx::query(
        "INSERT INTO api_logs (partner_id, user_id, service, pid, vid, vpid, status_code, amount_paise, ip, reason, created_at)
         SELECT x.partner_id, x.user_id, x.service, x.pid, '', '', x.code, 0, x.ip::inet, x.reason, x.at
           FROM UNNEST($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::timestamptz[])
                WITH ORDINALITY AS x(partner_id, user_id, service, pid, code, ip, reason, at, n)
           -- A user deleted since its call was refused has no log to keep.
           JOIN end_users u ON u.id = x.user_id AND u.partner_id = x.partner_id
          -- Ids in the order the calls were refused, whatever order the join gives.
          ORDER BY x.n",
    )
    .bind(&partner)
    .bind(&user)
    .bind(col(|r| r.service.clone()))
    .bind(col(|r| r.pid.clone()))
    .bind(&code)
    .bind(col(|r| r.ip.to_string()))
    .bind(col(|r| r.reason.clone()))
    .bind(&at)
    .execute(conn)
    .await?;
    Ok(())
}
