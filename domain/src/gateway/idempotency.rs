//! `Idempotency-Key` on the gateway's POSTs (a call, a batch submission): the same key with the
//! same request within [`RETENTION_HOURS`] answers what the first answered (status, body and the
//! gateway's headers) without calling the upstream or charging again; the same key with another
//! request is a conflict. Keys are per end user and live in Postgres, so every api process sees
//! them; a duplicate that arrives while the first is running waits for its answer.
//!
//! Only an answer that moved money (or queued work) is kept: a refusal before the charge releases
//! the key, so a retry after the cause is fixed (a top-up, an allow-listed address) runs afresh.

use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::Result;

/// How long a key is remembered; `prune_idempotency_keys` deletes older ones.
pub const RETENTION_HOURS: i64 = 24;

/// Longest key accepted (Stripe's bound).
pub const MAX_KEY_LEN: usize = 255;

/// A stored answer.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Stored {
    pub status_code: i32,
    /// `[[name, value], ...]`: the headers a replay repeats.
    pub headers: sqlx::types::Json<Vec<(String, String)>>,
    pub body: Vec<u8>,
}

/// What a request with a key finds.
#[derive(Debug)]
pub enum Begin {
    /// The key is new (or expired, or abandoned by a crashed process): this request runs, then
    /// [`complete`]s or [`release`]s it.
    Run,
    /// The first request's answer.
    Replay(Stored),
    /// The key was used with another request.
    Conflict,
    /// The first request is still running.
    Running,
}

/// SHA-256 of what makes two requests the same: the route and the body.
pub fn fingerprint(route: &str, body: &[u8]) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(route.as_bytes());
    h.update([0]);
    h.update(body);
    h.finalize().to_vec()
}

/// Claims `key` for `user_id`'s request `fingerprint`, or says what holds it. A running claim
/// older than `abandoned_after_secs` is taken over: its process died (its charge, if any, is
/// refunded by `settle_pending`).
pub async fn begin(
    pool: &PgPool,
    partner_id: i64,
    user_id: i64,
    key: &str,
    fingerprint: &[u8],
    abandoned_after_secs: f64,
) -> Result<Begin> {
    let claimed: Option<bool> = sqlx::query_scalar(
        "INSERT INTO idempotency_keys (partner_id, user_id, key, fingerprint) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status_code = NULL,
                headers = NULL, body = NULL, created_at = now()
          WHERE idempotency_keys.created_at < now() - make_interval(hours => $5)
             OR (idempotency_keys.status_code IS NULL
                 AND idempotency_keys.created_at < now() - make_interval(secs => $6))
         RETURNING true",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(key)
    .bind(fingerprint)
    .bind(RETENTION_HOURS as i32)
    .bind(abandoned_after_secs)
    .fetch_optional(pool)
    .await?;
    if claimed.is_some() {
        return Ok(Begin::Run);
    }
    look(pool, user_id, key, fingerprint).await
}

/// fingerprint, status, headers, body.
type KeyRow = (
    Vec<u8>,
    Option<i32>,
    Option<sqlx::types::Json<Vec<(String, String)>>>,
    Option<Vec<u8>>,
);

/// What holds `key` now (`Run` when nothing does any more: the first request released it).
pub async fn look(pool: &PgPool, user_id: i64, key: &str, fingerprint: &[u8]) -> Result<Begin> {
    let row: Option<KeyRow> =
        sqlx::query_as(
            "SELECT fingerprint, status_code, headers, body FROM idempotency_keys WHERE user_id = $1 AND key = $2",
        )
        .bind(user_id)
        .bind(key)
        .fetch_optional(pool)
        .await?;
    Ok(match row {
        None => Begin::Run,
        Some((f, _, _, _)) if f != fingerprint => Begin::Conflict,
        Some((_, Some(status_code), Some(headers), Some(body))) => Begin::Replay(Stored {
            status_code,
            headers,
            body,
        }),
        Some(_) => Begin::Running,
    })
}

/// Stores the answer of the request that claimed `key`.
pub async fn complete(pool: &PgPool, user_id: i64, key: &str, answer: &Stored) -> Result<()> {
    sqlx::query(
        "UPDATE idempotency_keys SET status_code = $3, headers = $4, body = $5 WHERE user_id = $1 AND key = $2",
    )
    .bind(user_id)
    .bind(key)
    .bind(answer.status_code)
    .bind(&answer.headers)
    .bind(&answer.body)
    .execute(pool)
    .await?;
    Ok(())
}

/// Forgets the claim of a request that moved nothing, so that a retry runs.
pub async fn release(pool: &PgPool, user_id: i64, key: &str) -> Result<()> {
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status_code IS NULL",
    )
    .bind(user_id)
    .bind(key)
    .execute(pool)
    .await?;
    Ok(())
}

/// Deletes the keys past their retention; returns how many.
pub async fn prune(pool: &PgPool) -> Result<u64> {
    Ok(sqlx::query(
        "DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)",
    )
    .bind(RETENTION_HOURS as i32)
    .execute(pool)
    .await?
    .rows_affected())
}
