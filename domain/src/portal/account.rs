//! The signed-in end user: who it is for the session check, its credentials for sign-in, and
//! its profile with both wallets. Every query names the user's partner too, so a user id of
//! another partner finds nothing.

use serde::Serialize;
use sqlx::PgConnection;

use crate::{
    Error, Result,
    infra::{email_address::normalize_email, text::is_plain_text},
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
    let mut wallets = wallets::balances(
        conn,
        Owner::User {
            partner_id,
            user_id,
        },
    )
    .await?;
    if wallets.api.low_balance_threshold_paise.is_none() {
        wallets.api.low_balance_threshold_paise = r.partner_threshold;
    }
    let low_balance = wallets
        .api
        .low_balance_threshold_paise
        .is_some_and(|t| wallets.api.balance_paise < t);
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

/// Whom a portal reset mail goes to, and the site its link opens.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ResetTarget {
    pub user_id: i64,
    pub email: String,
    pub first_name: String,
    pub subdomain: String,
    pub site_title: String,
}

/// An active user of an active partner with a live site, by e-mail; `None` otherwise (the mail
/// is then not sent, and the request answered the same).
pub async fn reset_target(
    conn: &mut PgConnection,
    partner_id: i64,
    email: &str,
) -> Result<Option<ResetTarget>> {
    if !is_plain_text(email) || email.len() > 254 {
        return Ok(None);
    }
    Ok(sqlx::query_as(
        "SELECT u.id AS user_id, u.email::text AS email, u.first_name, p.subdomain::text AS subdomain,
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

/// `PATCH /me/profile`: the fields given, each checked as Add User checks it; a blank address
/// line clears it.
#[derive(Debug, Clone, Default)]
pub struct ProfileChange {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone_number: Option<String>,
    pub address_line1: Option<Option<String>>,
    pub address_line2: Option<Option<String>>,
}

const MAX_ADDRESS_CHARS: usize = 200;

impl ProfileChange {
    pub fn parse(
        first_name: Option<&str>,
        last_name: Option<&str>,
        phone_number: Option<&str>,
        address_line1: Option<&str>,
        address_line2: Option<&str>,
    ) -> Result<Self> {
        let mut v = crate::error::Violations::new();
        let name = |v: &mut crate::error::Violations, field: &str, label: &str, s: Option<&str>| {
            let s = s.map(str::trim)?;
            v.check(!s.is_empty(), field, &format!("{label} is required"));
            v.check(
                s.is_empty() || s.chars().all(|c| c.is_ascii_alphabetic() || c == ' '),
                field,
                &format!(
                    "No special character & numbers allowed in {}",
                    label.to_lowercase()
                ),
            );
            v.check(s.len() <= 100, field, "Name is too long");
            Some(s.to_owned())
        };
        let first_name = name(&mut v, "first_name", "First name", first_name);
        let last_name = name(&mut v, "last_name", "Last name", last_name);
        let phone_number = phone_number.map(str::trim).map(|p| {
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
            p.to_owned()
        });
        let mut line = |field: &str, s: Option<&str>| {
            s.map(|s| {
                let s = s.trim();
                v.check(
                    s.chars().count() <= MAX_ADDRESS_CHARS,
                    field,
                    "Address line must be at most 200 characters",
                );
                v.check(
                    is_plain_text(s),
                    field,
                    "Address line contains characters that are not allowed",
                );
                (!s.is_empty()).then(|| s.to_owned())
            })
        };
        let address_line1 = line("address_line1", address_line1);
        let address_line2 = line("address_line2", address_line2);
        v.into_result()?;
        Ok(Self {
            first_name,
            last_name,
            phone_number,
            address_line1,
            address_line2,
        })
    }
}

/// Applies a [`ProfileChange`] to the user of `partner_id` (another partner's: `NotFound`).
pub async fn update_profile(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    c: &ProfileChange,
    actor: crate::infra::audit::Actor,
) -> Result<()> {
    let done = sqlx::query(
        "UPDATE end_users SET first_name = COALESCE($3, first_name), last_name = COALESCE($4, last_name),
                phone_number = COALESCE($5, phone_number),
                address1 = CASE WHEN $6 THEN $7 ELSE address1 END,
                address2 = CASE WHEN $8 THEN $9 ELSE address2 END,
                updated_at = now()
          WHERE id = $2 AND partner_id = $1",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(&c.first_name)
    .bind(&c.last_name)
    .bind(&c.phone_number)
    .bind(c.address_line1.is_some())
    .bind(c.address_line1.clone().flatten())
    .bind(c.address_line2.is_some())
    .bind(c.address_line2.clone().flatten())
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound);
    }
    crate::infra::audit::record(
        conn,
        &crate::infra::audit::Record {
            actor,
            action: "user.update_profile",
            entity: "end_user",
            entity_id: user_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: None,
        },
    )
    .await?;
    Ok(())
}

/// The partner of a user, for a reset link that must be used on its own site.
pub async fn partner_of(conn: &mut PgConnection, user_id: i64) -> Result<Option<i64>> {
    Ok(
        sqlx::query_scalar("SELECT partner_id FROM end_users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(conn)
            .await?,
    )
}
