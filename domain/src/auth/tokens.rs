//! One-time links: e-mail verification and password reset. The mailed token is random; only its
//! SHA-256 is stored, so a copy of the database does not hand out working links. A token is
//! good once, until it expires.
//!
//! The token itself exists only in the mail: the `send_mail` job mints it when it builds the
//! mail ([`mint`] re-keys a row [`reserve`]d when the mail was asked for, or [`issue`] makes
//! one), so neither the job queue nor this table ever holds it.

use std::time::Duration;

use sqlx::PgConnection;

use crate::{Result, infra::crypto};

/// A verification link is valid for a day: people open sign-up mails late.
pub const VERIFY_EMAIL_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// A reset link is a password in disguise: an hour is enough.
pub const RESET_PASSWORD_TTL: Duration = Duration::from_secs(60 * 60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "verify_email",
            Purpose::ResetPassword => "reset_password",
        }
    }
}

fn hash(token: &str) -> Vec<u8> {
    crypto::sha256(token.as_bytes())
}

/// A token is 32 random bytes in URL-safe base64; anything else is not worth a query.
fn plausible(token: &str) -> bool {
    (20..=100).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Issues a fresh token for a partner; earlier unused tokens of the same purpose stop working,
/// so only the newest mail's link is live.
#[tracing::instrument(skip(conn))]
pub async fn issue(
    conn: &mut PgConnection,
    purpose: Purpose,
    partner_id: i64,
    ttl: Duration,
) -> Result<String> {
    issue_for(conn, purpose, Subject::Partner(partner_id), ttl).await
}

/// Whose token it is: a partner's, or an end user's (the portal's forgot password).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Partner(i64),
    User(i64),
}

impl Subject {
    fn parts(self) -> (&'static str, i64) {
        match self {
            Subject::Partner(id) => ("partner", id),
            Subject::User(id) => ("user", id),
        }
    }
}

/// [`issue`] for any subject.
#[tracing::instrument(skip(conn))]
pub async fn issue_for(
    conn: &mut PgConnection,
    purpose: Purpose,
    subject: Subject,
    ttl: Duration,
) -> Result<String> {
    let (kind, id) = subject.parts();
    supersede(conn, purpose, kind, id).await?;
    let token = crypto::random_token(32);
    sqlx::query(
        "INSERT INTO one_time_tokens (token_hash, purpose, subject_kind, subject_id, expires_at)
         VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second')",
    )
    .bind(hash(&token))
    .bind(purpose.as_str())
    .bind(kind)
    .bind(id)
    .bind(ttl.as_secs_f64())
    .execute(&mut *conn)
    .await?;
    Ok(token)
}

/// Starts a token for a mail that is queued now and built later: the row (with its expiry
/// and the supersession of earlier tokens, as [`issue`]) exists from now on, but no token
/// opens it until the mail's job calls [`mint`] with the returned id.
#[tracing::instrument(skip(conn))]
pub async fn reserve(
    conn: &mut PgConnection,
    purpose: Purpose,
    partner_id: i64,
    ttl: Duration,
) -> Result<i64> {
    supersede(conn, purpose, "partner", partner_id).await?;
    // The hash of a token nobody holds: the row is unusable until minted.
    Ok(sqlx::query_scalar(
        "INSERT INTO one_time_tokens (token_hash, purpose, subject_kind, subject_id, expires_at)
         VALUES ($1, $2, 'partner', $3, now() + $4 * interval '1 second') RETURNING id",
    )
    .bind(hash(&crypto::random_token(32)))
    .bind(purpose.as_str())
    .bind(partner_id)
    .bind(ttl.as_secs_f64())
    .fetch_one(conn)
    .await?)
}

/// The token of a [`reserve`]d row, made now; a second call (a retried mail) makes another
/// and the first stops working. `None` when the row is gone.
#[tracing::instrument(skip(conn))]
pub async fn mint(conn: &mut PgConnection, token_id: i64) -> Result<Option<String>> {
    let token = crypto::random_token(32);
    let found = sqlx::query("UPDATE one_time_tokens SET token_hash = $2 WHERE id = $1")
        .bind(token_id)
        .bind(hash(&token))
        .execute(conn)
        .await?
        .rows_affected();
    Ok((found == 1).then_some(token))
}

async fn supersede(
    conn: &mut PgConnection,
    purpose: Purpose,
    kind: &str,
    subject_id: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE one_time_tokens SET used_at = now()
          WHERE subject_kind = $3 AND subject_id = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(subject_id)
    .bind(purpose.as_str())
    .bind(kind)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The partner of a live token, without using it up (the reset page checks the link first).
#[tracing::instrument(skip_all)]
pub async fn peek(conn: &mut PgConnection, purpose: Purpose, token: &str) -> Result<Option<i64>> {
    peek_of(conn, purpose, "partner", token).await
}

/// The end user of a live token, without using it up.
pub async fn peek_user(
    conn: &mut PgConnection,
    purpose: Purpose,
    token: &str,
) -> Result<Option<i64>> {
    peek_of(conn, purpose, "user", token).await
}

#[tracing::instrument(skip_all)]
pub(crate) async fn peek_of(
    conn: &mut PgConnection,
    purpose: Purpose,
    kind: &str,
    token: &str,
) -> Result<Option<i64>> {
    if !plausible(token) {
        return Ok(None);
    }
    Ok(sqlx::query_scalar(
        "SELECT subject_id FROM one_time_tokens
          WHERE token_hash = $1 AND purpose = $2 AND subject_kind = $3 AND used_at IS NULL AND expires_at > now()",
    )
    .bind(hash(token))
    .bind(purpose.as_str())
    .bind(kind)
    .fetch_optional(conn)
    .await?)
}

/// Uses the token up and returns its partner; `None` when it is unknown, expired or used. One
/// conditional UPDATE, so two requests racing with the same link cannot both win.
#[tracing::instrument(skip_all)]
pub async fn consume(
    conn: &mut PgConnection,
    purpose: Purpose,
    token: &str,
) -> Result<Option<i64>> {
    consume_of(conn, purpose, "partner", token).await
}

/// Uses an end user's token up and returns the user; `None` as [`consume`].
pub async fn consume_user(
    conn: &mut PgConnection,
    purpose: Purpose,
    token: &str,
) -> Result<Option<i64>> {
    consume_of(conn, purpose, "user", token).await
}

#[tracing::instrument(skip_all)]
pub(crate) async fn consume_of(
    conn: &mut PgConnection,
    purpose: Purpose,
    kind: &str,
    token: &str,
) -> Result<Option<i64>> {
    if !plausible(token) {
        return Ok(None);
    }
    Ok(sqlx::query_scalar(
        "UPDATE one_time_tokens SET used_at = now()
          WHERE token_hash = $1 AND purpose = $2 AND subject_kind = $3 AND used_at IS NULL AND expires_at > now()
          RETURNING subject_id",
    )
    .bind(hash(token))
    .bind(purpose.as_str())
    .bind(kind)
    .fetch_optional(conn)
    .await?)
}

/// When the newest token of this purpose was issued: the sign-in page re-sends a verification
/// mail only when the last one is a few minutes old.
pub async fn last_issued_secs_ago(
    conn: &mut PgConnection,
    purpose: Purpose,
    partner_id: i64,
) -> Result<Option<f64>> {
    Ok(sqlx::query_scalar(
        "SELECT extract(epoch FROM now() - max(created_at))::float8 FROM one_time_tokens
          WHERE subject_kind = 'partner' AND subject_id = $1 AND purpose = $2",
    )
    .bind(partner_id)
    .bind(purpose.as_str())
    .fetch_one(conn)
    .await?)
}

/// Deletes one-time tokens that expired over a day ago (used or not); hourly, by `prune_jobs`.
/// The resend throttle reads only the last ten minutes, so nothing it needs goes.
pub async fn prune_expired(conn: &mut PgConnection) -> Result<u64> {
    Ok(
        sqlx::query("DELETE FROM one_time_tokens WHERE expires_at < now() - interval '1 day'")
            .execute(conn)
            .await?
            .rows_affected(),
    )
}
