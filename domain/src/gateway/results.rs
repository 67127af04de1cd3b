//! What a metered call answered, kept so its caller can read it again by transaction id
//! (`GET /verify/transactions/{id}`): a client that lost the answer (a timeout on its side, a
//! crash) need not pay for the call twice.
//!
//! The answer is the verified person's data, so it is kept sealed (AES-256-GCM with
//! `ENCRYPTION_KEY`) and only for `RESULT_RETENTION_HOURS` (0 keeps nothing): reads stop at the
//! retention whatever the prune's period, and the periodic `prune_results` job deletes what is
//! older. The row is written by the charging task in the statement that writes the call's API log
//! (`wallets::charge`), sealed beforehand by the call's own task, so keeping it costs the hot path
//! neither a write nor a round trip of its own.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::{Error, Result, infra::crypto::SecretBox};

/// Answers larger than this are not kept (the row says the call happened, `response` is null):
/// a verification answer is a few KB, and the table must not grow by the upstream's whim.
pub const MAX_KEPT_BYTES: usize = 256 * 1024;

/// Rows one prune statement deletes, so a backlog is deleted in short transactions.
pub const PRUNE_BATCH: i64 = 5_000;

/// `body` sealed for keeping, or `None` when it is too large to keep.
pub fn seal(secrets: &SecretBox, body: &[u8]) -> Option<Vec<u8>> {
    (body.len() <= MAX_KEPT_BYTES).then(|| secrets.seal_bytes(body))
}

/// A kept call as its caller reads it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct KeptCall {
    /// The transaction id (`X-Transaction-Id`).
    pub id: i64,
    pub service: String,
    /// `pending`, `success` or `refunded`.
    pub status: String,
    pub status_code: Option<i32>,
    /// What the user was charged in the end: 0 once refunded.
    pub charged_paise: i64,
    pub created_at: DateTime<Utc>,
    /// The body the call was answered with: the upstream's (or the sandbox sample) on success,
    /// the gateway's error otherwise; JSON when it was JSON, else a string. Null when it was too
    /// large to keep.
    #[schema(value_type = Option<Object>)]
    pub response: Option<serde_json::Value>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    service: String,
    status: String,
    status_code: Option<i32>,
    charged_paise: i64,
    created_at: DateTime<Utc>,
    sealed: Option<Vec<u8>>,
}

/// The user's call `transaction_id` while `retention` keeps its answer; anyone else's, one
/// never kept, or one past the retention: `NotFound`.
#[tracing::instrument(skip(conn, secrets))]
pub async fn find(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    user_id: i64,
    transaction_id: i64,
    retention: Duration,
) -> Result<KeptCall> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT t.id, t.service, t.status, t.status_code,
                CASE WHEN t.status = 'refunded' THEN 0 ELSE t.user_amount_paise END AS charged_paise,
                t.created_at, r.sealed
           FROM api_results r JOIN api_transactions t ON t.id = r.transaction_id
          WHERE r.transaction_id = $1 AND r.user_id = $2
            AND r.created_at > now() - make_interval(secs => $3)",
    )
    .bind(transaction_id)
    .bind(user_id)
    .bind(retention.as_secs_f64())
    .fetch_optional(conn)
    .await?;
    let row = row.ok_or(Error::NotFound)?;
    let response = row.sealed.and_then(|s| match secrets.open_bytes(&s) {
        Ok(body) => Some(as_json(&body)),
        // ENCRYPTION_KEY changed since: the answer is lost, the call's facts are not.
        Err(e) => {
            tracing::warn!(error = %e, transaction_id, "a kept answer does not open");
            None
        }
    });
    Ok(KeptCall {
        id: row.id,
        service: row.service,
        status: row.status,
        status_code: row.status_code,
        charged_paise: row.charged_paise,
        created_at: row.created_at,
        response,
    })
}

/// A body as JSON when it is JSON, else as a string (lossy UTF-8).
fn as_json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(body).into_owned()))
}

/// Deletes the answers older than `retention` (all of them for 0), [`PRUNE_BATCH`] per
/// statement; the number deleted.
#[tracing::instrument(skip(conn))]
pub async fn prune(conn: &mut PgConnection, retention: Duration) -> Result<u64> {
    let mut deleted = 0;
    loop {
        let done = sqlx::query(
            "DELETE FROM api_results WHERE transaction_id IN (
                SELECT transaction_id FROM api_results
                 WHERE created_at <= now() - make_interval(secs => $1) LIMIT $2)",
        )
        .bind(retention.as_secs_f64())
        .bind(PRUNE_BATCH)
        .execute(&mut *conn)
        .await?
        .rows_affected();
        deleted += done;
        if done < PRUNE_BATCH as u64 {
            return Ok(deleted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_sealed_and_read_back_as_json_or_text() {
        let b = SecretBox::new(&[7u8; 32]);
        let body = br#"{"ok":true,"name":"A KUMAR"}"#;
        let sealed = seal(&b, body).unwrap();
        assert!(!sealed.windows(6).any(|w| w == b"KUMAR\""), "kept in clear");
        assert_eq!(
            as_json(&b.open_bytes(&sealed).unwrap()),
            serde_json::json!({"ok": true, "name": "A KUMAR"})
        );
        assert_eq!(as_json(b"<html>"), serde_json::json!("<html>"));
        assert_eq!(as_json(b""), serde_json::json!(""));
        assert!(seal(&b, &vec![b'x'; MAX_KEPT_BYTES + 1]).is_none());
    }
}
