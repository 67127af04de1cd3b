//! One sign-in for every kind of account (partner, super admin, end user): the per-account
//! attempt count, the password checked on the hashing pool with no connection held, then the
//! verified and active checks. The caller checks the captcha before and starts the session after.

use sqlx::PgPool;

use super::{
    accounts::{self, Account, Kind},
    passwords, sign_in_attempts,
};
use crate::{Error, Result};

pub const BAD_CREDENTIALS: &str = "Invalid email or password";
pub const INACTIVE: &str = "Your account is inactive. Please contact support.";

/// The form's own checks (422), before the captcha is used up and before an attempt counts.
pub fn check_form(email: &str, password: &str) -> Result<()> {
    let mut v = crate::error::Violations::new();
    v.check(!email.trim().is_empty(), "email", "Email is required");
    v.check(!password.is_empty(), "password", "Password is required");
    v.check(
        password.chars().count() <= passwords::MAX_CHECKED_CHARS,
        "password",
        BAD_CREDENTIALS,
    );
    v.into_result()
}

/// A sign-in whose password was right.
#[derive(Debug)]
pub enum SignedIn {
    /// Start its session.
    Ready(Account),
    /// A partner that has not verified its e-mail yet: no session (403, and the caller may
    /// mail a new link).
    Unverified(Account),
}

/// Counts the attempt on the account (429 past [`sign_in_attempts::MAX_ATTEMPTS`]), then checks
/// the password: 401 [`BAD_CREDENTIALS`] alike for an unknown e-mail and a wrong password. A
/// success starts the account's count again. Then an unverified partner is
/// [`SignedIn::Unverified`], and an inactive account is refused: 403 for a partner, 401 for an
/// end user (whose sign-in tells nothing of an account it cannot use).
pub async fn sign_in(pool: &PgPool, kind: Kind, email: &str, password: &str) -> Result<SignedIn> {
    let key = kind.attempts_key(email);
    let found = {
        let mut conn = pool.acquire().await?;
        if let Some(wait) = sign_in_attempts::attempt(&mut conn, &key).await? {
            return Err(Error::TooManyAttempts {
                retry_after_secs: wait,
            });
        }
        accounts::by_email(&mut conn, kind, email).await?
    };
    // No connection is held while the password waits for the hashing pool: a burst of
    // sign-ins must not take the pool from every other request.
    let matched =
        passwords::matches(password, found.as_ref().map(|a| a.password_hash.as_str())).await;
    let Some(account) = found.filter(|_| matched) else {
        return Err(Error::Unauthorized(BAD_CREDENTIALS.into()));
    };
    sign_in_attempts::succeeded(&mut *pool.acquire().await?, &key).await?;
    if !account.email_verified {
        return Ok(SignedIn::Unverified(account));
    }
    if !account.is_active {
        return Err(match kind {
            Kind::User { .. } => Error::Unauthorized(INACTIVE.into()),
            Kind::Partner | Kind::SuperAdmin => Error::Forbidden(INACTIVE.into()),
        });
    }
    Ok(SignedIn::Ready(account))
}
