//! The accounts one signs in to, of every kind: what sign-in, a password change and a reset
//! read of them, and their password. The kinds differ in their table, in what scopes them (an
//! end user is one partner's) and in whose sessions and audit rows a change writes.

use sqlx::PgConnection;

use crate::{
    Error, Result,
    infra::{
        audit::{self, Actor},
        email_address::normalize_email,
        sessions::{self, PrincipalKind},
        text::is_plain_text,
    },
};

/// The kind of account, with what scopes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Partner,
    SuperAdmin,
    /// An end user of this partner: the same e-mail at two partners is two accounts, and a
    /// user of another partner is never found.
    User {
        partner_id: i64,
    },
}

impl Kind {
    /// The prefix of its sign-in limit's key and of its audit actions (`partner.reset_password`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Partner => "partner",
            Kind::SuperAdmin => "superadmin",
            Kind::User { .. } => "user",
        }
    }

    /// The account's key in `sign_in_attempts`.
    pub(crate) fn attempts_key(self, email: &str) -> String {
        match self {
            Kind::User { partner_id } => {
                super::sign_in_attempts::account_key(&format!("user:{partner_id}"), email)
            }
            kind => super::sign_in_attempts::account_key(kind.name(), email),
        }
    }

    /// Whose one-time links it receives (`one_time_tokens.subject_kind`); super admins get none.
    pub(crate) fn token_subject(self) -> Option<&'static str> {
        match self {
            Kind::Partner => Some("partner"),
            Kind::User { .. } => Some("user"),
            Kind::SuperAdmin => None,
        }
    }
}

/// What sign-in, a password change and a reset need to know of an account.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    pub id: i64,
    pub email: String,
    /// Empty for a super admin.
    pub first_name: String,
    pub last_name: String,
    /// A partner's; empty for the others.
    pub user_name: String,
    pub password_hash: String,
    pub is_active: bool,
    /// A partner verifies its e-mail before it may sign in; the others count as verified.
    pub email_verified: bool,
}

/// One query per kind and key, each one literal string.
macro_rules! select {
    (partner, $where:literal) => {
        concat!(
            "SELECT id, email::text, first_name, last_name, user_name::text, password_hash, is_active,
                    email_verified_at IS NOT NULL AS email_verified
               FROM partners WHERE ",
            $where
        )
    };
    (super_admin, $where:literal) => {
        concat!(
            "SELECT id, email::text, '' AS first_name, '' AS last_name, '' AS user_name, password_hash,
                    true AS is_active, true AS email_verified
               FROM super_admins WHERE ",
            $where
        )
    };
    (user, $where:literal) => {
        concat!(
            "SELECT id, email::text, first_name, last_name, '' AS user_name, password_hash, is_active,
                    true AS email_verified
               FROM end_users WHERE partner_id = $2 AND ",
            $where
        )
    };
}

/// The account of this kind with this e-mail (compared lower-cased); `None` for text no
/// account can have.
pub async fn by_email(conn: &mut PgConnection, kind: Kind, email: &str) -> Result<Option<Account>> {
    if !is_plain_text(email) || email.len() > 254 {
        return Ok(None);
    }
    let email = normalize_email(email);
    let query = match kind {
        Kind::Partner => sqlx::query_as(select!(partner, "email = $1")).bind(email),
        Kind::SuperAdmin => sqlx::query_as(select!(super_admin, "email = $1")).bind(email),
        Kind::User { partner_id } => sqlx::query_as(select!(user, "email = $1"))
            .bind(email)
            .bind(partner_id),
    };
    Ok(query.fetch_optional(conn).await?)
}

pub async fn by_id(conn: &mut PgConnection, kind: Kind, id: i64) -> Result<Option<Account>> {
    let query = match kind {
        Kind::Partner => sqlx::query_as(select!(partner, "id = $1")).bind(id),
        Kind::SuperAdmin => sqlx::query_as(select!(super_admin, "id = $1")).bind(id),
        Kind::User { partner_id } => sqlx::query_as(select!(user, "id = $1"))
            .bind(id)
            .bind(partner_id),
    };
    Ok(query.fetch_optional(conn).await?)
}

/// Sets a new password (checked and hashed before the transaction began), ends every session
/// of the account but `keep` (the caller's, on a change), and records `action` as done by the
/// account itself.
pub async fn set_password(
    conn: &mut PgConnection,
    kind: Kind,
    id: i64,
    password_hash: &str,
    action: &str,
    keep: Option<uuid::Uuid>,
) -> Result<()> {
    let (principal, actor, entity, partner_id) = match kind {
        Kind::Partner => (
            PrincipalKind::Partner,
            Actor::partner(id),
            "partner",
            Some(id),
        ),
        Kind::SuperAdmin => (
            PrincipalKind::Superadmin,
            Actor::superadmin(id),
            "super_admin",
            None,
        ),
        Kind::User { partner_id } => (
            PrincipalKind::User,
            Actor::user(id),
            "end_user",
            Some(partner_id),
        ),
    };
    let update = match kind {
        Kind::Partner => {
            sqlx::query("UPDATE partners SET password_hash = $2, updated_at = now() WHERE id = $1")
        }
        Kind::SuperAdmin => sqlx::query("UPDATE super_admins SET password_hash = $2 WHERE id = $1"),
        Kind::User { .. } => sqlx::query(
            "UPDATE end_users SET password_hash = $2, updated_at = now()
              WHERE id = $1 AND partner_id = $3",
        ),
    };
    let update = update.bind(id).bind(password_hash);
    let update = match kind {
        Kind::User { partner_id } => update.bind(partner_id),
        Kind::Partner | Kind::SuperAdmin => update,
    };
    let done = update.execute(&mut *conn).await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound);
    }
    sessions::end_all(conn, principal, id, keep).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action,
            entity,
            entity_id: id.to_string(),
            partner_id,
            before: None,
            after: None,
        },
    )
    .await?;
    Ok(())
}

/// A partner's e-mail is proven (its verification link, or a reset link mailed to it).
pub async fn mark_email_verified(conn: &mut PgConnection, partner_id: i64) -> Result<()> {
    sqlx::query("UPDATE partners SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1")
        .bind(partner_id)
        .execute(conn)
        .await?;
    Ok(())
}
