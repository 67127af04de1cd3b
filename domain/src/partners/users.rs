//! A partner's end users: the User Accounts list, one user's details, manual creation and the
//! two Settings toggles. Every query is scoped by the partner id of the session.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
    infra::paging::{self, List, Page, PageRequest},
};

#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct User {
    pub id: i64,
    pub partner_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub is_active: bool,
    pub full_access: bool,
    pub address_name: Option<String>,
    pub address1: Option<String>,
    pub address2: Option<String>,
    pub address3: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, partner_id, first_name, last_name, email::text AS email, phone_number, is_active, full_access,
                       address_name, address1, address2, address3, created_at, updated_at";

#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub search: Option<String>,
}

/// The partner's users, newest first.
pub async fn list(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<User>> {
    let search = paging::contains_pattern(f.search.as_deref());
    List {
        columns: COLUMNS,
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM end_users WHERE partner_id = ")
                .push_bind(partner_id);
            if let Some(s) = &search {
                q.push(" AND (first_name ILIKE ").push_bind(s.clone());
                q.push(" OR last_name ILIKE ").push_bind(s.clone());
                q.push(" OR email::text ILIKE ").push_bind(s.clone());
                q.push(" OR phone_number ILIKE ").push_bind(s.clone());
                q.push(" OR id::text = trim('%' FROM ")
                    .push_bind(s.clone())
                    .push("))");
            }
        },
        order_by: "created_at DESC, id DESC",
    }
    .fetch(conn, page)
    .await
}

/// One user of the partner; another partner's user is `NotFound`.
pub async fn get(conn: &mut PgConnection, partner_id: i64, user_id: i64) -> Result<User> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM end_users WHERE id = $1 AND partner_id = $2"
    )))
    .bind(user_id)
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Add User Manually, with the rules and messages of the spec.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub password: String,
    pub full_access: bool,
}

fn letters_and_spaces(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
}

impl NewUser {
    pub fn parse(
        first_name: &str,
        last_name: &str,
        email: &str,
        phone_number: &str,
        password: &str,
        full_access: bool,
    ) -> Result<Self> {
        let (first_name, last_name, email, phone_number) = (
            first_name.trim(),
            last_name.trim(),
            email.trim().to_lowercase(),
            phone_number.trim(),
        );
        let mut v = Violations::new();
        v.check(
            !first_name.is_empty(),
            "first_name",
            "First name is required",
        );
        v.check(
            first_name.is_empty() || letters_and_spaces(first_name),
            "first_name",
            "No special character & numbers allowed in first name",
        );
        v.check(!last_name.is_empty(), "last_name", "Last name is required");
        v.check(
            last_name.is_empty() || letters_and_spaces(last_name),
            "last_name",
            "No special character & numbers allowed in last name",
        );
        v.check(
            first_name.len() <= 100 && last_name.len() <= 100,
            "first_name",
            "Name is too long",
        );
        v.check(!email.is_empty(), "email", "Email is required");
        v.check(
            email.is_empty() || crate::infra::email_address::is_valid(&email),
            "email",
            crate::infra::email_address::INVALID,
        );
        v.check(
            !phone_number.is_empty(),
            "phone_number",
            "Phone number is required",
        );
        v.check(
            phone_number.is_empty() || phone_number.chars().all(|c| c.is_ascii_digit()),
            "phone_number",
            "No special character & alphabets allowed in phone number.",
        );
        v.check(
            phone_number.is_empty() || (6..=15).contains(&phone_number.len()),
            "phone_number",
            "Phone number must have 6 to 15 digits",
        );
        v.check(!password.is_empty(), "password", "Password is required");
        v.into_result()?;
        crate::auth::passwords::check("password", password)?;
        Ok(Self {
            first_name: first_name.into(),
            last_name: last_name.into(),
            email,
            phone_number: phone_number.into(),
            password: password.into(),
            full_access,
        })
    }
}

/// Creates the user and its two wallets in the caller's transaction. `password_hash` is
/// `crypto::hash_password_pooled(&u.password)`, computed before that transaction began.
pub async fn create(
    conn: &mut PgConnection,
    partner_id: i64,
    u: &NewUser,
    password_hash: &str,
) -> Result<i64> {
    // Add User shows a taken e-mail in the form's alert only, as it always has; the portal's
    // sign-up (`create_by`) names the field.
    create_by(conn, partner_id, u, password_hash, None)
        .await
        .map_err(|e| match e {
            Error::Conflict { message, .. } => Error::conflict(message),
            other => other,
        })
}

/// [`create`], audited under `actor` (the portal's self sign-up: the user itself, named once its
/// id exists) instead of the partner.
pub async fn create_by(
    conn: &mut PgConnection,
    partner_id: i64,
    u: &NewUser,
    password_hash: &str,
    actor: Option<Actor>,
) -> Result<i64> {
    let hash = password_hash;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO end_users (partner_id, first_name, last_name, email, phone_number, password_hash, full_access)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(partner_id)
    .bind(&u.first_name)
    .bind(&u.last_name)
    .bind(&u.email)
    .bind(&u.phone_number)
    .bind(hash)
    .bind(u.full_access)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => Error::conflict_on("email", "A user with this email already exists"),
        _ => Error::Db(e),
    })?;
    sqlx::query("INSERT INTO wallets (partner_id, user_id, kind) VALUES ($1, $2, 'api'), ($1, $2, 'product')")
        .bind(partner_id)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    audit::record(
        conn,
        &audit::Record {
            actor: actor.map_or_else(
                || Actor::partner(partner_id),
                |a| Actor { id: Some(id), ..a },
            ),
            action: "user.create",
            entity: "end_user",
            entity_id: id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({"email": u.email, "full_access": u.full_access})),
        },
    )
    .await?;
    Ok(id)
}

/// The Settings tab: Plan Status (is_active) and Access Control (full_access).
pub async fn update_flags(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    is_active: Option<bool>,
    full_access: Option<bool>,
    actor: Actor,
) -> Result<User> {
    let before = get(conn, partner_id, user_id).await?;
    let after: User = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE end_users SET is_active = COALESCE($3, is_active), full_access = COALESCE($4, full_access), updated_at = now()
          WHERE id = $1 AND partner_id = $2 RETURNING {COLUMNS}"
    )))
    .bind(user_id)
    .bind(partner_id)
    .bind(is_active)
    .bind(full_access)
    .fetch_one(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "user.update",
            entity: "end_user",
            entity_id: user_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({"is_active": before.is_active, "full_access": before.full_access})),
            after: Some(serde_json::json!({"is_active": after.is_active, "full_access": after.full_access})),
        },
    )
    .await?;
    Ok(after)
}

/// Dashboard tiles of a partner: its users and their API transactions (the writers' all-time
/// counter, `list_totals`).
pub async fn partner_counts(conn: &mut PgConnection, partner_id: i64) -> Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT (SELECT count(*) FROM end_users WHERE partner_id = $1),
                COALESCE((SELECT n FROM list_totals WHERE source = 'api_transactions' AND scope = $1), 0)",
    )
    .bind(partner_id)
    .fetch_one(conn)
    .await?)
}
