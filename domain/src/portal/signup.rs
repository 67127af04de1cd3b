//! Self sign-up on a partner's site, verified by e-mail before the first session.
//!
//! A sign-up never answers whether the address was known: the request writes what it may and
//! queues one mail (`Mail::UserSignup`), whose text is chosen when it is built. A new address
//! becomes an unverified user and gets a link to `{site}/verify-email/{token}`; an unverified
//! user's details are replaced by the newest sign-up's (whoever typed the address last) and a
//! fresh link goes out; a verified user's account is left alone and its owner is told that
//! someone tried to sign up with the address. Opening the link is not enough: the page asks for
//! the password of the sign-up, so a link from someone else's attempt cannot activate that
//! person's password on the owner's address.

use sqlx::PgConnection;

use crate::{
    Error, Result,
    infra::{audit::Actor, email_address::normalize_email, text::is_plain_text},
    partners::users::{self, NewUser},
};

/// Writes the sign-up of `new` (password already hashed) on `conn`, the caller's transaction,
/// which also queues the mail.
pub async fn register(
    conn: &mut PgConnection,
    partner_id: i64,
    new: &NewUser,
    password_hash: &str,
    actor: Actor,
) -> Result<()> {
    let existing: Option<(i64, bool)> = sqlx::query_as(
        "SELECT id, email_verified_at IS NOT NULL FROM end_users
          WHERE partner_id = $1 AND email = $2 FOR UPDATE",
    )
    .bind(partner_id)
    .bind(&new.email)
    .fetch_optional(&mut *conn)
    .await?;
    match existing {
        None => {
            let id = users::create_by(conn, partner_id, new, password_hash, Some(actor)).await?;
            sqlx::query("UPDATE end_users SET email_verified_at = NULL WHERE id = $1")
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
        Some((id, false)) => {
            sqlx::query(
                "UPDATE end_users SET first_name = $2, last_name = $3, phone_number = $4, password_hash = $5, updated_at = now()
                  WHERE id = $1",
            )
            .bind(id)
            .bind(&new.first_name)
            .bind(&new.last_name)
            .bind(&new.phone_number)
            .bind(password_hash)
            .execute(&mut *conn)
            .await?;
        }
        Some((_, true)) => {}
    }
    Ok(())
}

/// Whom a sign-up mail goes to, and which mail: `verified` picks the notice instead of a link.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignupTarget {
    pub user_id: i64,
    pub email: String,
    pub first_name: String,
    pub verified: bool,
    pub subdomain: String,
    pub site_title: String,
}

pub async fn signup_target(
    conn: &mut PgConnection,
    partner_id: i64,
    email: &str,
) -> Result<Option<SignupTarget>> {
    if !is_plain_text(email) || email.len() > 254 {
        return Ok(None);
    }
    Ok(sqlx::query_as(
        "SELECT u.id AS user_id, u.email::text AS email, u.first_name, u.email_verified_at IS NOT NULL AS verified,
                p.subdomain::text AS subdomain,
                COALESCE(NULLIF(regexp_replace(p.title, ' - Home$', ''), ''), p.user_name::text) AS site_title
           FROM end_users u JOIN partners p ON p.id = u.partner_id
          WHERE u.partner_id = $1 AND u.email = $2 AND u.is_active AND p.is_active
            AND p.subdomain IS NOT NULL AND p.subdomain_status = 'active'",
    )
    .bind(partner_id)
    .bind(normalize_email(email))
    .fetch_optional(conn)
    .await?)
}

/// The password hash of `user_id` of `partner_id` while it awaits verification; `None` when
/// the user is of another partner, already verified or gone.
pub async fn pending_hash(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(
        "SELECT password_hash FROM end_users
          WHERE id = $1 AND partner_id = $2 AND email_verified_at IS NULL AND is_active",
    )
    .bind(user_id)
    .bind(partner_id)
    .fetch_optional(conn)
    .await?)
}

/// (first name, last name, e-mail) of a user, for the session's answer and the webhook.
pub async fn names(conn: &mut PgConnection, user_id: i64) -> Result<(String, String, String)> {
    sqlx::query_as("SELECT first_name, last_name, email::text FROM end_users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(Error::NotFound)
}

/// Marks the address verified (the link was opened, or a mailed reset link was used).
pub async fn mark_verified(conn: &mut PgConnection, user_id: i64) -> Result<()> {
    let n = sqlx::query(
        "UPDATE end_users SET email_verified_at = COALESCE(email_verified_at, now()) WHERE id = $1",
    )
    .bind(user_id)
    .execute(conn)
    .await?
    .rows_affected();
    if n == 0 {
        return Err(Error::NotFound);
    }
    Ok(())
}
