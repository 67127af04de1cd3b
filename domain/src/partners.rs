//! Partners' identity: sign-up and its rules, and the credentials the mails read. Sign-in and
//! passwords, the same for every kind of account, are `auth`; the wizard that follows sign-up
//! is `onboarding`; the branded site is `branding`.

pub mod account;
pub mod branding;
pub mod clients;
pub mod onboarding;
pub mod partner_smtp;
pub mod payment_settings;
pub mod policies;
pub mod settings;
pub mod signup_customization;
pub mod subdomains;
pub mod tenancy;
pub mod users;

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::{email_address::normalize_email, text::is_plain_text},
    wallets::{self, Owner, WalletKind},
};

pub const EMAIL_TAKEN: &str = "This email is already registered";
pub const USER_NAME_TAKEN: &str = "This user name is already taken";
/// The password rule sign-up enforces, as for every password.
pub use crate::auth::passwords::RULE as PASSWORD_RULE;

pub fn is_user_name(s: &str) -> bool {
    (3..=40).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

fn is_phone(s: &str) -> bool {
    (6..=20).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b' ' | b'-'))
        && s.bytes().filter(u8::is_ascii_digit).count() >= 6
}

/// A partner's name, e-mail and phone as sign-up takes them; the profile of My Account changes
/// them under the same rules and messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
}

impl Identity {
    /// Adds a message to `v` per field at fault; the values come back trimmed, the e-mail
    /// normalised.
    fn check(
        v: &mut Violations,
        first_name: &str,
        last_name: &str,
        email: &str,
        phone_number: &str,
    ) -> Self {
        let (first_name, last_name, phone_number) =
            (first_name.trim(), last_name.trim(), phone_number.trim());
        let email = normalize_email(email);
        v.check(
            !first_name.is_empty(),
            "first_name",
            "First name is required",
        );
        v.check(
            first_name.chars().count() <= 100,
            "first_name",
            "First name is too long",
        );
        v.check(
            is_plain_text(first_name),
            "first_name",
            "First name contains invalid characters",
        );
        v.check(!last_name.is_empty(), "last_name", "Last name is required");
        v.check(
            last_name.chars().count() <= 100,
            "last_name",
            "Last name is too long",
        );
        v.check(
            is_plain_text(last_name),
            "last_name",
            "Last name contains invalid characters",
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
            phone_number.is_empty() || is_phone(phone_number),
            "phone_number",
            "Please enter a valid phone number",
        );
        Self {
            first_name: first_name.into(),
            last_name: last_name.into(),
            email,
            phone_number: phone_number.into(),
        }
    }

    pub fn parse(
        first_name: &str,
        last_name: &str,
        email: &str,
        phone_number: &str,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let id = Self::check(&mut v, first_name, last_name, email, phone_number);
        v.into_result()?;
        Ok(id)
    }
}

/// A sign-up that passed every rule.
#[derive(Debug, Clone)]
pub struct SignupForm {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    pub user_name: String,
    pub password: String,
}

impl SignupForm {
    pub fn parse(
        first_name: &str,
        last_name: &str,
        email: &str,
        phone_number: &str,
        user_name: &str,
        password: &str,
    ) -> Result<Self> {
        let user_name = user_name.trim();
        let mut v = Violations::new();
        let id = Identity::check(&mut v, first_name, last_name, email, phone_number);
        v.check(!user_name.is_empty(), "user_name", "User name is required");
        v.check(
            user_name.is_empty() || is_user_name(user_name),
            "user_name",
            "User name must be 3 to 40 characters: letters, numbers, dots, hyphens or underscores",
        );
        if password.is_empty() {
            v.add("password", "Password is required");
        } else if let Err(Error::Invalid { message, .. }) =
            crate::auth::passwords::check("password", password)
        {
            v.add("password", message);
        }
        v.into_result()?;
        Ok(Self {
            first_name: id.first_name,
            last_name: id.last_name,
            email: id.email,
            phone_number: id.phone_number,
            user_name: user_name.into(),
            password: password.into(),
        })
    }
}

/// Which unique value is already in use: a conflict on `email` ([`EMAIL_TAKEN`]) or on
/// `user_name` ([`USER_NAME_TAKEN`]).
async fn check_free(conn: &mut PgConnection, email: &str, user_name: &str) -> Result<()> {
    let (email_taken, user_taken): (bool, bool) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM partners WHERE email = $1), EXISTS (SELECT 1 FROM partners WHERE user_name = $2)",
    )
    .bind(email)
    .bind(user_name)
    .fetch_one(conn)
    .await?;
    if email_taken {
        return Err(Error::conflict_on("email", EMAIL_TAKEN));
    }
    if user_taken {
        return Err(Error::conflict_on("user_name", USER_NAME_TAKEN));
    }
    Ok(())
}

/// Creates the partner (unverified) and its two wallets on `conn`, which should be the
/// transaction that also enqueues the verification mail. `password_hash` is
/// `crypto::hash_password_pooled(&form.password)`, computed before that transaction began.
#[tracing::instrument(skip_all)]
pub async fn create(
    conn: &mut PgConnection,
    form: &SignupForm,
    password_hash: &str,
) -> Result<i64> {
    check_free(conn, &form.email, &form.user_name).await?;
    let hash = password_hash;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO partners (first_name, last_name, email, phone_number, user_name, password_hash)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(&form.first_name)
    .bind(&form.last_name)
    .bind(&form.email)
    .bind(&form.phone_number)
    .bind(&form.user_name)
    .bind(hash)
    .fetch_one(&mut *conn)
    .await
    .map_err(|e| match &e {
        // Two sign-ups with the same address at once: the loser gets the same answer.
        sqlx::Error::Database(d) if d.constraint() == Some("partners_email_key") => Error::conflict_on("email", EMAIL_TAKEN),
        sqlx::Error::Database(d) if d.constraint() == Some("partners_user_name_key") => Error::conflict_on("user_name", USER_NAME_TAKEN),
        _ => Error::Db(e),
    })?;
    for kind in WalletKind::ALL {
        wallets::wallet_id(conn, Owner::Partner(id), kind).await?;
    }
    Ok(id)
}

/// What sign-in needs to decide.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Credentials {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub user_name: String,
    pub password_hash: String,
    pub email_verified_at: Option<DateTime<Utc>>,
    pub is_active: bool,
    pub subdomain: Option<String>,
}

/// The columns of [`Credentials`]; a macro so that each query stays one literal string.
macro_rules! credentials_sql {
    ($where:literal) => {
        concat!(
            "SELECT id, email::text, first_name, user_name::text, password_hash, email_verified_at, is_active, subdomain::text FROM partners WHERE ",
            $where
        )
    };
}

pub async fn credentials_by_id(conn: &mut PgConnection, id: i64) -> Result<Option<Credentials>> {
    Ok(sqlx::query_as(credentials_sql!("id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// The partner named by both e-mail and user name (forgot password asks for both).
pub async fn by_email_and_user_name(
    conn: &mut PgConnection,
    email: &str,
    user_name: &str,
) -> Result<Option<Credentials>> {
    if !is_plain_text(email) || !is_plain_text(user_name) {
        return Ok(None);
    }
    Ok(
        sqlx::query_as(credentials_sql!("email = $1 AND user_name = $2"))
            .bind(normalize_email(email))
            .bind(user_name.trim())
            .fetch_optional(conn)
            .await?,
    )
}

/// Whether the partner may use its session: `None` when it no longer exists.
pub async fn is_active(conn: &mut PgConnection, id: i64) -> Result<Option<bool>> {
    Ok(
        sqlx::query_scalar("SELECT is_active FROM partners WHERE id = $1")
            .bind(id)
            .fetch_optional(conn)
            .await?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signup_rules() {
        assert!(
            SignupForm::parse(
                "Asha",
                "Rao",
                " Asha@Example.IN ",
                "9876543210",
                "asha_rao",
                "Secret123"
            )
            .is_ok()
        );
        let f = SignupForm::parse(
            "Asha",
            "Rao",
            " Asha@Example.IN ",
            "9876543210",
            "asha_rao",
            "Secret123",
        )
        .unwrap();
        assert_eq!(f.email, "asha@example.in");
        let Err(Error::Invalid { fields, .. }) =
            SignupForm::parse("", "", "x", "12", "a b", "short")
        else {
            panic!()
        };
        for k in [
            "first_name",
            "last_name",
            "email",
            "phone_number",
            "user_name",
            "password",
        ] {
            assert!(fields.contains_key(k), "{k}");
        }
    }
}
