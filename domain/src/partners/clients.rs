//! Partners as the super admin sees them ("clients"): the paged list with its filters, one
//! client's header, settings the super admin toggles, and the global dashboard counts.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    infra::paging::{self, List, Page, PageRequest},
};

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Client {
    pub id: i64,
    pub user_name: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub plan: String,
    pub subdomain: Option<String>,
    pub is_active: bool,
    pub email_verified: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, user_name::text AS user_name, first_name, last_name, email::text AS email, phone_number, plan::text AS plan,
                       subdomain::text AS subdomain, is_active, email_verified_at IS NOT NULL AS email_verified, created_at";

#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub user_id: Option<i64>,
}

pub async fn list(conn: &mut PgConnection, f: &Filter, page: PageRequest) -> Result<Page<Client>> {
    let contains = [
        (
            "first_name",
            paging::contains_pattern(f.first_name.as_deref()),
        ),
        (
            "last_name",
            paging::contains_pattern(f.last_name.as_deref()),
        ),
        ("email::text", paging::contains_pattern(f.email.as_deref())),
        (
            "phone_number",
            paging::contains_pattern(f.phone_number.as_deref()),
        ),
    ];
    List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM partners WHERE true");
            for (column, pattern) in &contains {
                if let Some(p) = pattern {
                    // `column` is one of the constants above, never input.
                    q.push(format!(" AND {column} ILIKE ")).push_bind(p.clone());
                }
            }
            if let Some(id) = f.user_id {
                q.push(" AND id = ").push_bind(id);
            }
        },
        order_by: "created_at DESC, id DESC",
    }
    .fetch(conn, page)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Client> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM partners WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// The super admin's dashboard: partners, API and product transactions, and the money held
/// in all partners' wallets.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Dashboard {
    pub total_users: i64,
    pub total_transactions: i64,
    pub accessed_products: i64,
    pub current_credits_paise: i64,
}

/// The transaction counts are the writers' all-time counters per partner (`list_totals`, kept
/// by the tables' triggers), one row per partner instead of a count over every transaction.
pub async fn dashboard(conn: &mut PgConnection) -> Result<Dashboard> {
    Ok(sqlx::query_as(
        "SELECT (SELECT count(*) FROM partners) AS total_users,
                (SELECT COALESCE(sum(n), 0)::bigint FROM list_totals WHERE source = 'api_transactions') AS total_transactions,
                (SELECT COALESCE(sum(n), 0)::bigint FROM list_totals WHERE source = 'product_transactions') AS accessed_products,
                (SELECT COALESCE(sum(balance_paise), 0)::bigint FROM wallets WHERE user_id IS NULL) AS current_credits_paise",
    )
    .fetch_one(conn)
    .await?)
}
