//! Partners' identity: sign-up, sign-in, e-mail verification and passwords. The wizard that
//! follows sign-up is `onboarding`; the branded site is `branding`.

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
    infra::audit::{self, Actor},
    infra::crypto,
    infra::{email_address::normalize_email, text::is_plain_text},
    wallets::{self, Owner, WalletKind},
};

pub const EMAIL_TAKEN: &str = "This email is already registered";
pub const USER_NAME_TAKEN: &str = "This user name is already taken";
pub const PASSWORD_RULE: &str = "Password must be at least 8 characters and contain at least two of: upper case letters, lower case letters, numbers, symbols";
pub const PASSWORD_MISMATCH: &str = "New Password and Confirm Password didnot match!";
/// Long enough for any passphrase, short enough that hashing it is not a denial of service.
const MAX_PASSWORD_CHARS: usize = 128;

/// The server-side password rule (the spec's guidance text, enforced): at least 8 characters
/// and at least two of upper case, lower case, digits and symbols.
pub fn check_password(field: &str, password: &str) -> Result<()> {
    let n = password.chars().count();
    if n > MAX_PASSWORD_CHARS {
        return Err(Error::invalid(
            field,
            format!("Password must be at most {MAX_PASSWORD_CHARS} characters"),
        ));
    }
    let classes = [
        password.chars().any(|c| c.is_uppercase()),
        password.chars().any(|c| c.is_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| !c.is_alphanumeric()),
    ];
    if n < 8 || classes.iter().filter(|&&x| x).count() < 2 {
        return Err(Error::invalid(field, PASSWORD_RULE));
    }
    Ok(())
}

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
        let (first_name, last_name, phone_number, user_name) = (
            first_name.trim(),
            last_name.trim(),
            phone_number.trim(),
            user_name.trim(),
        );
        let email = normalize_email(email);
        let mut v = Violations::new();
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
        v.check(!user_name.is_empty(), "user_name", "User name is required");
        v.check(
            user_name.is_empty() || is_user_name(user_name),
            "user_name",
            "User name must be 3 to 40 characters: letters, numbers, dots, hyphens or underscores",
        );
        if password.is_empty() {
            v.add("password", "Password is required");
        } else if let Err(Error::Invalid { message, .. }) = check_password("password", password) {
            v.add("password", message);
        }
        v.into_result()?;
        Ok(Self {
            first_name: first_name.into(),
            last_name: last_name.into(),
            email,
            phone_number: phone_number.into(),
            user_name: user_name.into(),
            password: password.into(),
        })
    }
}

/// Which unique value is already in use: `Error::Conflict` with [`EMAIL_TAKEN`] or
/// [`USER_NAME_TAKEN`], so the api can name the field.
async fn check_free(conn: &mut PgConnection, email: &str, user_name: &str) -> Result<()> {
    let (email_taken, user_taken): (bool, bool) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM partners WHERE email = $1), EXISTS (SELECT 1 FROM partners WHERE user_name = $2)",
    )
    .bind(email)
    .bind(user_name)
    .fetch_one(conn)
    .await?;
    if email_taken {
        return Err(Error::conflict(EMAIL_TAKEN));
    }
    if user_taken {
        return Err(Error::conflict(USER_NAME_TAKEN));
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
        sqlx::Error::Database(d) if d.constraint() == Some("partners_email_key") => Error::conflict(EMAIL_TAKEN),
        sqlx::Error::Database(d) if d.constraint() == Some("partners_user_name_key") => Error::conflict(USER_NAME_TAKEN),
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

pub async fn credentials_by_email(
    conn: &mut PgConnection,
    email: &str,
) -> Result<Option<Credentials>> {
    if !is_plain_text(email) {
        return Ok(None);
    }
    Ok(sqlx::query_as(credentials_sql!("email = $1"))
        .bind(normalize_email(email))
        .fetch_optional(conn)
        .await?)
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

/// Checks a password against a stored hash, or against a dummy hash when there is no account,
/// so that an unknown e-mail costs as much time as a wrong password (no enumeration by timing).
/// On the bounded hashing pool; call it with no transaction open.
pub async fn password_matches(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    match stored {
        Some(hash) => crypto::verify_password_pooled(password, hash).await,
        None => {
            let dummy = DUMMY
                .get_or_init(|| async {
                    crypto::hash_password_pooled("dummy-password-for-timing")
                        .await
                        .unwrap_or_default()
                })
                .await;
            let _ = crypto::verify_password_pooled(password, dummy).await;
            false
        }
    }
}

pub async fn mark_email_verified(conn: &mut PgConnection, id: i64) -> Result<()> {
    sqlx::query("UPDATE partners SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets a new password (already checked against the rule, and hashed with
/// `crypto::hash_password_pooled` before the transaction), ends every session of the partner
/// but `keep` (the caller's, on a change), and records who did it.
#[tracing::instrument(skip(conn, password_hash))]
pub async fn set_password(
    conn: &mut PgConnection,
    id: i64,
    password_hash: &str,
    action: &str,
    keep: Option<uuid::Uuid>,
) -> Result<()> {
    let hash = password_hash;
    let done =
        sqlx::query("UPDATE partners SET password_hash = $2, updated_at = now() WHERE id = $1")
            .bind(id)
            .bind(hash)
            .execute(&mut *conn)
            .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound);
    }
    crate::infra::sessions::end_all(
        conn,
        crate::infra::sessions::PrincipalKind::Partner,
        id,
        keep,
    )
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor: Actor::partner(id),
            action,
            entity: "partner",
            entity_id: id.to_string(),
            partner_id: Some(id),
            before: None,
            after: None,
        },
    )
    .await?;
    Ok(())
}

/// New and confirm password: the same, and good enough.
pub fn check_new_password(new_password: &str, confirm: Option<&str>) -> Result<()> {
    if new_password.is_empty() {
        return Err(Error::invalid("new_password", "New password is required"));
    }
    if confirm.is_some_and(|c| c != new_password) {
        return Err(Error::invalid("confirm_new_password", PASSWORD_MISMATCH));
    }
    check_password("new_password", new_password)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_rule() {
        for ok in ["abcdefg1", "ABCDEFGh", "abcdefg!", "Passw0rd!", "12345678a"] {
            assert!(check_password("p", ok).is_ok(), "{ok}");
        }
        for bad in ["", "Ab1!", "abcdefgh", "ABCDEFGH", "12345678", "!!!!!!!!"] {
            assert!(check_password("p", bad).is_err(), "{bad}");
        }
        assert!(check_password("p", &format!("Aa{}", "x".repeat(200))).is_err());
    }

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

    #[test]
    fn new_password_mismatch_message() {
        let Err(Error::Invalid { message, .. }) =
            check_new_password("Secret123", Some("Secret124"))
        else {
            panic!()
        };
        assert_eq!(message, PASSWORD_MISMATCH);
        assert!(check_new_password("Secret123", Some("Secret123")).is_ok());
        assert!(check_new_password("Secret123", None).is_ok());
    }
}
