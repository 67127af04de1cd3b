//! Passwords of every kind of account: the rule, the check against a stored hash, a change by
//! the signed-in account and a reset with a mailed link. Hashing runs on the bounded pool
//! (`crypto::hash_password_pooled`) with no connection held and no transaction open.

use sqlx::PgPool;

use super::{
    accounts::{self, Account, Kind},
    tokens::{self, Purpose},
};
use crate::{Error, Result, infra::crypto};

pub const RULE: &str = "Password must be at least 8 characters and contain at least two of: upper case letters, lower case letters, numbers, symbols";
pub const MISMATCH: &str = "New Password and Confirm Password didnot match!";
pub const RESET_EXPIRED: &str = "Session expired ! Please try again";
/// Long enough for any passphrase, short enough that hashing it is not a denial of service.
const MAX_CHARS: usize = 128;
/// A password longer than this is never checked against a hash: no stored one can match it.
pub const MAX_CHECKED_CHARS: usize = 256;

/// The server-side password rule (the spec's guidance text, enforced): at least 8 characters
/// and at least two of upper case, lower case, digits and symbols.
pub fn check(field: &str, password: &str) -> Result<()> {
    let n = password.chars().count();
    if n > MAX_CHARS {
        return Err(Error::invalid(
            field,
            format!("Password must be at most {MAX_CHARS} characters"),
        ));
    }
    let classes = [
        password.chars().any(|c| c.is_uppercase()),
        password.chars().any(|c| c.is_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| !c.is_alphanumeric()),
    ];
    if n < 8 || classes.iter().filter(|&&x| x).count() < 2 {
        return Err(Error::invalid(field, RULE));
    }
    Ok(())
}

/// A new password that passed the rule and matched its confirmation.
#[derive(Debug, Clone)]
pub struct NewPassword(String);

impl NewPassword {
    /// `confirm` is checked when given (the partner's change form may leave it out).
    pub fn parse(new_password: &str, confirm: Option<&str>) -> Result<Self> {
        if new_password.is_empty() {
            return Err(Error::invalid("new_password", "New password is required"));
        }
        if confirm.is_some_and(|c| c != new_password) {
            return Err(Error::invalid("confirm_new_password", MISMATCH));
        }
        check("new_password", new_password)?;
        Ok(Self(new_password.to_owned()))
    }

    async fn hash(&self) -> Result<String> {
        Ok(crypto::hash_password_pooled(&self.0).await?)
    }
}

/// Checks a password against a stored hash, or against a dummy hash when there is no account,
/// so that an unknown e-mail costs as much time as a wrong password (no enumeration by timing).
/// On the bounded hashing pool; call it with no transaction open.
pub async fn matches(password: &str, stored: Option<&str>) -> bool {
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

/// The signed-in account `id` changes its password: a missing or wrong current password is a
/// 422 on `current_password`, the new one follows the rule. Every other session of the account
/// ends; `keep` (the caller's) stays valid.
pub async fn change(
    pool: &PgPool,
    kind: Kind,
    id: i64,
    current: &str,
    new_password: &str,
    confirm: Option<&str>,
    keep: uuid::Uuid,
) -> Result<()> {
    if current.is_empty() {
        return Err(Error::invalid(
            "current_password",
            "Current password is required",
        ));
    }
    let new_password = NewPassword::parse(new_password, confirm)?;
    let account = accounts::by_id(&mut *pool.acquire().await?, kind, id)
        .await?
        .ok_or(Error::NotFound)?;
    if current.chars().count() > MAX_CHECKED_CHARS
        || !matches(current, Some(&account.password_hash)).await
    {
        return Err(Error::invalid(
            "current_password",
            "Current password is incorrect",
        ));
    }
    let hash = new_password.hash().await?;
    let mut tx = pool.begin().await?;
    let action = format!("{}.change_password", kind.name());
    accounts::set_password(&mut tx, kind, id, &hash, &action, Some(keep)).await?;
    tx.commit().await?;
    Ok(())
}

/// The account a live reset link is for, without using the link up (the reset page checks it
/// before its form shows). 400 [`RESET_EXPIRED`] for a link that is unknown, expired, used, or
/// of another kind or another partner's user.
pub async fn reset_account(pool: &PgPool, kind: Kind, token: &str) -> Result<Account> {
    let expired = || Error::BadRequest(RESET_EXPIRED.into());
    let subject = kind.token_subject().ok_or_else(expired)?;
    let mut conn = pool.acquire().await?;
    let id = tokens::peek_of(&mut conn, Purpose::ResetPassword, subject, token.trim())
        .await?
        .ok_or_else(expired)?;
    accounts::by_id(&mut conn, kind, id)
        .await?
        .ok_or_else(expired)
}

/// Sets a new password with a reset link: the link is checked before the hashing and used up
/// after it, in the transaction that sets the password. Ends every session of the account; a
/// partner's e-mail counts as verified, since the link was mailed to it.
pub async fn reset(
    pool: &PgPool,
    kind: Kind,
    token: &str,
    new_password: &NewPassword,
) -> Result<()> {
    let expired = || Error::BadRequest(RESET_EXPIRED.into());
    let account = reset_account(pool, kind, token).await?;
    let subject = kind.token_subject().ok_or_else(expired)?;
    let hash = new_password.hash().await?;
    let mut tx = pool.begin().await?;
    let used = tokens::consume_of(&mut tx, Purpose::ResetPassword, subject, token.trim()).await?;
    if used != Some(account.id) {
        return Err(expired());
    }
    let action = format!("{}.reset_password", kind.name());
    accounts::set_password(&mut tx, kind, account.id, &hash, &action, None).await?;
    if kind == Kind::Partner {
        accounts::mark_email_verified(&mut tx, account.id).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_rule() {
        for ok in ["abcdefg1", "ABCDEFGh", "abcdefg!", "Passw0rd!", "12345678a"] {
            assert!(check("p", ok).is_ok(), "{ok}");
        }
        for bad in ["", "Ab1!", "abcdefgh", "ABCDEFGH", "12345678", "!!!!!!!!"] {
            assert!(check("p", bad).is_err(), "{bad}");
        }
        assert!(check("p", &format!("Aa{}", "x".repeat(200))).is_err());
    }

    #[test]
    fn new_password_mismatch_message() {
        let Err(Error::Invalid { message, fields }) =
            NewPassword::parse("Secret123", Some("Secret124"))
        else {
            panic!()
        };
        assert_eq!(message, MISMATCH);
        assert!(fields.contains_key("confirm_new_password"));
        assert!(NewPassword::parse("Secret123", Some("Secret123")).is_ok());
        assert!(NewPassword::parse("Secret123", None).is_ok());
        let Err(Error::Invalid { fields, .. }) = NewPassword::parse("", None) else {
            panic!()
        };
        assert_eq!(fields["new_password"], "New password is required");
    }
}
