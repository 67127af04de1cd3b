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
                // "Meera Nair" finds Meera Nair: the name is searched whole, as the card shows it.
                q.push(" AND (first_name || ' ' || last_name ILIKE ")
                    .push_bind(s.clone());
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

/// The checks of Add User Manually on name, e-mail and phone, with its messages; a field that is
/// `None` (not sent with an edit) is not checked. Values come back trimmed, the e-mail lowercased.
fn check_details(
    v: &mut Violations,
    first_name: Option<&str>,
    last_name: Option<&str>,
    email: Option<&str>,
    phone_number: Option<&str>,
) -> Details {
    let first_name = first_name.map(str::trim);
    let last_name = last_name.map(str::trim);
    let email = email.map(|e| e.trim().to_lowercase());
    let phone_number = phone_number.map(str::trim);
    if let Some(f) = first_name {
        v.check(!f.is_empty(), "first_name", "First name is required");
        v.check(
            f.is_empty() || letters_and_spaces(f),
            "first_name",
            "No special character & numbers allowed in first name",
        );
    }
    if let Some(l) = last_name {
        v.check(!l.is_empty(), "last_name", "Last name is required");
        v.check(
            l.is_empty() || letters_and_spaces(l),
            "last_name",
            "No special character & numbers allowed in last name",
        );
    }
    v.check(
        first_name.is_none_or(|f| f.len() <= 100) && last_name.is_none_or(|l| l.len() <= 100),
        "first_name",
        "Name is too long",
    );
    if let Some(e) = &email {
        v.check(!e.is_empty(), "email", "Email is required");
        v.check(
            e.is_empty() || crate::infra::email_address::is_valid(e),
            "email",
            crate::infra::email_address::INVALID,
        );
    }
    if let Some(p) = phone_number {
        v.check(!p.is_empty(), "phone_number", "Phone number is required");
        v.check(
            p.is_empty() || p.chars().all(|c| c.is_ascii_digit()),
            "phone_number",
            "No special character & alphabets allowed in phone number.",
        );
        v.check(
            p.is_empty() || (6..=15).contains(&p.len()),
            "phone_number",
            "Phone number must have 6 to 15 digits",
        );
    }
    Details {
        first_name: first_name.map(str::to_owned),
        last_name: last_name.map(str::to_owned),
        email,
        phone_number: phone_number.map(str::to_owned),
    }
}

/// The console's Edit: the fields the partner sent, each checked as Add User checks it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
}

impl Details {
    pub fn parse(
        first_name: Option<&str>,
        last_name: Option<&str>,
        email: Option<&str>,
        phone_number: Option<&str>,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let d = check_details(&mut v, first_name, last_name, email, phone_number);
        v.into_result()?;
        Ok(d)
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
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
        let mut v = Violations::new();
        let d = check_details(
            &mut v,
            Some(first_name),
            Some(last_name),
            Some(email),
            Some(phone_number),
        );
        v.check(!password.is_empty(), "password", "Password is required");
        v.into_result()?;
        crate::auth::passwords::check("password", password)?;
        Ok(Self {
            first_name: d.first_name.unwrap_or_default(),
            last_name: d.last_name.unwrap_or_default(),
            email: d.email.unwrap_or_default(),
            phone_number: d.phone_number.unwrap_or_default(),
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
        sqlx::Error::Database(d) if d.is_unique_violation() => Error::conflict_on("email", EMAIL_TAKEN),
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

const EMAIL_TAKEN: &str = "A user with this email already exists";

/// The console's Edit: changes the fields given. Another user of the partner with the new
/// e-mail is a conflict on `email`; the change is audited with what it replaced.
pub async fn update_details(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    d: &Details,
    actor: Actor,
) -> Result<User> {
    let before = get(conn, partner_id, user_id).await?;
    let after: User = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE end_users SET first_name = COALESCE($3, first_name), last_name = COALESCE($4, last_name),
                email = COALESCE($5, email), phone_number = COALESCE($6, phone_number), updated_at = now()
          WHERE id = $1 AND partner_id = $2 RETURNING {COLUMNS}"
    )))
    .bind(user_id)
    .bind(partner_id)
    .bind(&d.first_name)
    .bind(&d.last_name)
    .bind(&d.email)
    .bind(&d.phone_number)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            Error::conflict_on("email", EMAIL_TAKEN)
        }
        _ => Error::Db(e),
    })?;
    let fields = |u: &User| serde_json::json!({"first_name": u.first_name, "last_name": u.last_name, "email": u.email, "phone_number": u.phone_number});
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "user.edit",
            entity: "end_user",
            entity_id: user_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(fields(&before)),
            after: Some(fields(&after)),
        },
    )
    .await?;
    Ok(after)
}

/// At most one reset mail a minute per user: the partner's button must not become a way to
/// flood a user's inbox.
const RESET_MAIL_EVERY_SECS: i64 = 60;

/// Before the console queues a password-reset mail for the user (the portal's own mail, with a
/// link to the partner's site): the user must exist (`NotFound`), be active and the site live
/// (else there is nothing the link could open: `Conflict`), and not have been sent one in the
/// last minute (`TooManyAttempts`). Records the request in the audit log, on the caller's
/// transaction, which also queues the mail.
pub async fn password_reset_requested(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    actor: Actor,
) -> Result<User> {
    // Locked so that two clicks at once cannot both pass the once-a-minute check.
    let (active, site_live, last_secs): (bool, bool, Option<f64>) = sqlx::query_as(
        "SELECT u.is_active, p.subdomain IS NOT NULL AND p.subdomain_status = 'active',
                (SELECT extract(epoch FROM now() - max(a.created_at))::float8 FROM audit_log a
                  WHERE a.entity = 'end_user' AND a.entity_id = u.id::text AND a.action = 'user.password_reset_mail')
           FROM end_users u JOIN partners p ON p.id = u.partner_id
          WHERE u.id = $1 AND u.partner_id = $2
            FOR UPDATE OF u",
    )
    .bind(user_id)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    if !active {
        return Err(Error::conflict(
            "This user is inactive. Activate the user before sending a password reset mail.",
        ));
    }
    if !site_live {
        return Err(Error::conflict(
            "Your users' site is not live yet: the reset link would have nowhere to open.",
        ));
    }
    if let Some(secs) = last_secs.filter(|s| *s < RESET_MAIL_EVERY_SECS as f64) {
        return Err(Error::TooManyAttempts {
            retry_after_secs: (RESET_MAIL_EVERY_SECS as f64 - secs).ceil().max(1.0) as u64,
        });
    }
    let user = get(conn, partner_id, user_id).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "user.password_reset_mail",
            entity: "end_user",
            entity_id: user_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({"email": user.email})),
        },
    )
    .await?;
    Ok(user)
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
