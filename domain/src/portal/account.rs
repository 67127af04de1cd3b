//! The signed-in end user: who it is for the session check, its credentials for sign-in, and
//! its profile with both wallets. Every query names the user's partner too, so a user id of
//! another partner finds nothing.

use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result,
    partners::{is_plain_text, normalize_email},
    wallets::{self, Balances, Owner},
};

/// What a session check needs: the user's partner and whether both are active.
#[derive(Debug, Clone, Copy, sqlx::FromRow)]
pub struct Principal {
    pub partner_id: i64,
    pub user_active: bool,
    pub partner_active: bool,
}

/// `None` when the user no longer exists.
pub async fn principal(conn: &mut PgConnection, user_id: i64) -> Result<Option<Principal>> {
    Ok(sqlx::query_as(
        "SELECT u.partner_id, u.is_active AS user_active, p.is_active AS partner_active
           FROM end_users u JOIN partners p ON p.id = u.partner_id WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?)
}

/// What sign-in needs to decide.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Credentials {
    pub id: i64,
    pub partner_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub password_hash: String,
    pub is_active: bool,
}

/// The user of `partner_id` with this e-mail: a user of another partner is never found, so it
/// fails exactly like an unknown e-mail.
pub async fn credentials_by_email(conn: &mut PgConnection, partner_id: i64, email: &str) -> Result<Option<Credentials>> {
    if !is_plain_text(email) || email.len() > 254 {
        return Ok(None);
    }
    Ok(sqlx::query_as(
        "SELECT id, partner_id, first_name, last_name, password_hash, is_active
           FROM end_users WHERE partner_id = $1 AND email = $2",
    )
    .bind(partner_id)
    .bind(normalize_email(email))
    .fetch_optional(conn)
    .await?)
}

/// The partner as its users' dashboard shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PartnerInfo {
    pub title: String,
    pub documentation_link: Option<String>,
    /// Whether the super admin turned Batch Processing on for the partner.
    pub batch_processing: bool,
}

/// `GET /me`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Profile {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub address_line1: Option<String>,
    pub address_line2: Option<String>,
    pub full_access: bool,
    pub partner: PartnerInfo,
    pub wallets: Balances,
    /// The API wallet is below its threshold: the user's own when the partner set one on it,
    /// else the partner's threshold on its own API wallet.
    pub low_balance: bool,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    first_name: String,
    last_name: String,
    email: String,
    phone_number: String,
    address1: Option<String>,
    address2: Option<String>,
    full_access: bool,
    user_name: String,
    title: Option<String>,
    documentation_link: Option<String>,
    batch_processing: bool,
    partner_threshold: Option<i64>,
}

/// The user of `partner_id`; another partner's is `NotFound`.
pub async fn profile(conn: &mut PgConnection, partner_id: i64, user_id: i64) -> Result<Profile> {
    let r: Row = sqlx::query_as(
        "SELECT u.id, u.first_name, u.last_name, u.email::text AS email, u.phone_number, u.address1, u.address2, u.full_access,
                p.user_name::text AS user_name, p.title, NULLIF(p.documentation_link, '') AS documentation_link, p.batch_processing,
                (SELECT low_balance_threshold_paise FROM wallets w
                  WHERE w.partner_id = p.id AND w.user_id IS NULL AND w.kind = 'api') AS partner_threshold
           FROM end_users u JOIN partners p ON p.id = u.partner_id
          WHERE u.id = $1 AND u.partner_id = $2",
    )
    .bind(user_id)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    let mut wallets = wallets::balances(conn, Owner::User { partner_id, user_id }).await?;
    if wallets.api.low_balance_threshold_paise.is_none() {
        wallets.api.low_balance_threshold_paise = r.partner_threshold;
    }
    let low_balance = wallets.api.low_balance_threshold_paise.is_some_and(|t| wallets.api.balance_paise < t);
    Ok(Profile {
        id: r.id,
        first_name: r.first_name,
        last_name: r.last_name,
        email: r.email,
        phone_number: r.phone_number,
        address_line1: r.address1,
        address_line2: r.address2,
        full_access: r.full_access,
        partner: PartnerInfo {
            title: r.title.unwrap_or_else(|| format!("{} - Home", r.user_name)),
            documentation_link: r.documentation_link,
            batch_processing: r.batch_processing,
        },
        wallets,
        low_balance,
    })
}
