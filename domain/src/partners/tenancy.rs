//! Ownership checks done before a partner- or client-scoped write. Another partner's user
//! answers `NotFound`, exactly like a user that does not exist (design.md, "Tenancy").

use sqlx::PgConnection;

use crate::{Error, Result};

/// The user exists and belongs to `partner_id`.
pub async fn user_of_partner(conn: &mut PgConnection, partner_id: i64, user_id: i64) -> Result<()> {
    let found: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM end_users WHERE id = $1 AND partner_id = $2)",
    )
    .bind(user_id)
    .bind(partner_id)
    .fetch_one(conn)
    .await?;
    if found { Ok(()) } else { Err(Error::NotFound) }
}

/// The partner (a "client" of the super admin) exists.
pub async fn partner_exists(conn: &mut PgConnection, partner_id: i64) -> Result<()> {
    let found: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM partners WHERE id = $1)")
        .bind(partner_id)
        .fetch_one(conn)
        .await?;
    if found { Ok(()) } else { Err(Error::NotFound) }
}

/// The partner an end user belongs to (the super admin acts on users by id alone).
pub async fn partner_of_user(conn: &mut PgConnection, user_id: i64) -> Result<i64> {
    sqlx::query_scalar("SELECT partner_id FROM end_users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(Error::NotFound)
}
