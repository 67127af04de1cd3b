//! Partners as the super admin sees them ("clients"): the paged list with its filters, one
//! client's header, settings the super admin toggles, and the global dashboard counts.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result,
    paging::{Page, PageRequest},
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

fn like(v: &Option<String>) -> Option<String> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(|s| format!("%{}%", s.replace('%', "\\%").replace('_', "\\_")))
}

pub async fn list(conn: &mut PgConnection, f: &Filter, page: PageRequest) -> Result<Page<Client>> {
    let where_ = "($1::text IS NULL OR first_name ILIKE $1) AND ($2::text IS NULL OR last_name ILIKE $2)
                  AND ($3::text IS NULL OR email::text ILIKE $3) AND ($4::text IS NULL OR phone_number ILIKE $4)
                  AND ($5::bigint IS NULL OR id = $5)";
    let (a, b, c, d) = (like(&f.first_name), like(&f.last_name), like(&f.email), like(&f.phone_number));
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM partners WHERE {where_}")))
        .bind(&a)
        .bind(&b)
        .bind(&c)
        .bind(&d)
        .bind(f.user_id)
        .fetch_one(&mut *conn)
        .await?;
    let items = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM partners WHERE {where_} ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7"
    )))
    .bind(&a)
    .bind(&b)
    .bind(&c)
    .bind(&d)
    .bind(f.user_id)
    .bind(page.limit())
    .bind(page.offset())
    .fetch_all(&mut *conn)
    .await?;
    Ok(Page::new(items, total, page))
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Client> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM partners WHERE id = $1")))
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

pub async fn dashboard(conn: &mut PgConnection) -> Result<Dashboard> {
    Ok(sqlx::query_as(
        "SELECT (SELECT count(*) FROM partners) AS total_users,
                (SELECT count(*) FROM api_transactions) AS total_transactions,
                (SELECT count(*) FROM product_transactions) AS accessed_products,
                (SELECT COALESCE(sum(balance_paise), 0)::bigint FROM wallets WHERE user_id IS NULL) AS current_credits_paise",
    )
    .fetch_one(conn)
    .await?)
}
