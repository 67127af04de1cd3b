//! Per-account limit of sign-in attempts: at most `MAX_ATTEMPTS` in a `WINDOW` for one account
//! (partner or super admin, keyed by e-mail), whichever addresses they come from; a success
//! starts the count again. An attempt is counted *before* its password is checked, so a burst
//! of concurrent guesses cannot all slip in before the first failure is written.

use sqlx::PgConnection;

use crate::Result;

/// Attempts per account per window.
pub const MAX_ATTEMPTS: i32 = 10;
/// The window, in seconds (15 minutes).
pub const WINDOW_SECS: i64 = 15 * 60;

/// The key of an account: its kind and its e-mail as sign-in compares it.
pub fn account_key(kind: &str, email: &str) -> String {
    format!(
        "{kind}:{}",
        crate::infra::email_address::normalize_email(email)
    )
}

/// Counts one attempt on `account`. `Err`-free `Some(seconds)` when the account is over the
/// limit: refuse the attempt and say when to try again.
pub async fn attempt(conn: &mut PgConnection, account: &str) -> Result<Option<u64>> {
    let window = format!("{WINDOW_SECS} seconds");
    let (attempts, wait): (i32, f64) = sqlx::query_as(
        "INSERT INTO sign_in_attempts (account, attempts) VALUES ($1, 1)
         ON CONFLICT (account) DO UPDATE SET
             attempts = CASE WHEN sign_in_attempts.window_start < now() - $2::interval THEN 1 ELSE sign_in_attempts.attempts + 1 END,
             window_start = CASE WHEN sign_in_attempts.window_start < now() - $2::interval THEN now() ELSE sign_in_attempts.window_start END
         RETURNING attempts, extract(epoch FROM window_start + $2::interval - now())::float8",
    )
    .bind(account)
    .bind(&window)
    .fetch_one(&mut *conn)
    .await?;
    Ok((attempts > MAX_ATTEMPTS).then(|| wait.ceil().max(1.0) as u64))
}

/// A successful sign-in: the account's count starts again. Also sweeps windows long over, so
/// guesses at e-mails that do not exist do not pile up.
pub async fn succeeded(conn: &mut PgConnection, account: &str) -> Result<()> {
    sqlx::query("DELETE FROM sign_in_attempts WHERE account = $1 OR window_start < now() - interval '1 day'")
        .bind(account)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes failure windows over a day old, of accounts that never signed in successfully
/// afterwards (a success deletes its own); hourly, by `prune_jobs`.
pub async fn prune_old(conn: &mut PgConnection) -> Result<u64> {
    Ok(
        sqlx::query("DELETE FROM sign_in_attempts WHERE window_start < now() - interval '1 day'")
            .execute(conn)
            .await?
            .rows_affected(),
    )
}
