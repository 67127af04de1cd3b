//! Webhooks after the Standard Webhooks scheme (svix-webhooks is the model): partners and end
//! users register endpoints for events; an event is written in the transaction of the change
//! that causes it ([`emit`], the outbox `webhook_events`) with one delivery per subscribed
//! endpoint, each queued as a [`DeliverWebhook`] job in that same transaction. A job makes one
//! attempt; a failed attempt queues the next one after the [`SCHEDULE`]'s delay.
//!
//! This area sits just above `infra`: the features that cause events (wallets, batches,
//! TruBank, exports, sign-up) call [`emit`], and nothing here calls them.

pub mod deliveries;
pub mod endpoints;
pub mod sender;
pub mod signing;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{Result, infra::queue, infra::queue::Task};

/// Whose endpoints and events: a partner's own (`user_id: None`) or one of its end users'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub partner_id: i64,
    pub user_id: Option<i64>,
}

impl Owner {
    pub fn partner(partner_id: i64) -> Self {
        Self {
            partner_id,
            user_id: None,
        }
    }

    pub fn user(partner_id: i64, user_id: i64) -> Self {
        Self {
            partner_id,
            user_id: Some(user_id),
        }
    }

    /// The event types this owner may subscribe to.
    pub fn event_types(self) -> &'static [&'static str] {
        match self.user_id {
            Some(_) => &USER_EVENTS,
            None => &PARTNER_EVENTS,
        }
    }
}

pub const TEST: &str = "webhook.test";
pub const BATCH_COMPLETED: &str = "batch.completed";
pub const TRUBANK_STATUS_CHANGED: &str = "trubank.status_changed";
pub const WALLET_LOW_BALANCE: &str = "wallet.low_balance";
pub const EXPORT_COMPLETED: &str = "export.completed";
pub const USER_SIGNED_UP: &str = "user.signed_up";
pub const TRUBANK_REQUESTED: &str = "trubank.requested";

/// What an end user's endpoint may subscribe to.
pub const USER_EVENTS: [&str; 5] = [
    TEST,
    BATCH_COMPLETED,
    TRUBANK_STATUS_CHANGED,
    WALLET_LOW_BALANCE,
    EXPORT_COMPLETED,
];

/// What a partner's endpoint may subscribe to: its own events, and those about its users that
/// it acts on (a sign-up, a TruBank request to decide).
pub const PARTNER_EVENTS: [&str; 7] = [
    TEST,
    BATCH_COMPLETED,
    TRUBANK_STATUS_CHANGED,
    WALLET_LOW_BALANCE,
    EXPORT_COMPLETED,
    USER_SIGNED_UP,
    TRUBANK_REQUESTED,
];

/// The Standard Webhooks retry schedule: entry `n` is the wait before attempt `n + 1` (the
/// first at once). Data, not code: the job looks the next delay up here.
pub const SCHEDULE: [Duration; 8] = [
    Duration::ZERO,
    Duration::from_secs(5),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
    Duration::from_secs(5 * 3600),
    Duration::from_secs(10 * 3600),
    Duration::from_secs(10 * 3600),
];

/// An endpoint that has failed every attempt for this long is disabled and its owner mailed.
pub const DISABLE_AFTER: Duration = Duration::from_secs(5 * 24 * 3600);

/// An attempt succeeds on a 2xx within this time.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(15);

/// One attempt of one delivery. `generation` and `attempt` are the delivery's when the job
/// was queued: a job that finds them changed (a replay, a duplicate) does nothing.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DeliverWebhook {
    pub delivery_id: i64,
    pub generation: i32,
    pub attempt: i32,
}

impl Task for DeliverWebhook {
    const KIND: &'static str = "deliver_webhook";
    // An HTTP failure is recorded and rescheduled by the job itself; these attempts are for
    // the job's own failures (the database away), retried with the runner's backoff.
    const MAX_ATTEMPTS: usize = 5;
}

/// A fresh event id: the `webhook-id` header, sortable by time.
pub fn new_event_id() -> String {
    format!("evt_{}", ulid::Ulid::generate())
}

/// Records event `kind` of `owner` with `data` and queues one delivery per enabled endpoint
/// of the owner subscribed to it, on `conn` (the transaction of the change that causes the
/// event). Nothing is written when no endpoint listens. Returns the event id when one was.
pub async fn emit(
    conn: &mut PgConnection,
    owner: Owner,
    kind: &str,
    data: serde_json::Value,
) -> Result<Option<String>> {
    let endpoints: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM webhook_endpoints
          WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2 AND enabled AND $3 = ANY (events)
          ORDER BY id",
    )
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .bind(kind)
    .fetch_all(&mut *conn)
    .await?;
    if endpoints.is_empty() {
        return Ok(None);
    }
    let event_id = insert_event(conn, owner, kind, &data).await?;
    for endpoint_id in endpoints {
        deliveries::create(conn, &event_id, endpoint_id).await?;
    }
    tracing::info!(event = %event_id, kind, "webhook event queued");
    Ok(Some(event_id))
}

async fn insert_event(
    conn: &mut PgConnection,
    owner: Owner,
    kind: &str,
    data: &serde_json::Value,
) -> Result<String> {
    let id = new_event_id();
    sqlx::query(
        "INSERT INTO webhook_events (id, partner_id, user_id, type, data) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .bind(kind)
    .bind(sqlx::types::Json(data))
    .execute(conn)
    .await?;
    Ok(id)
}

/// Queues a `webhook.test` event to endpoint `endpoint_id` of `owner` alone, whatever it
/// subscribes to, and returns the delivery id. Another owner's endpoint is `NotFound`; a
/// disabled one a conflict.
pub async fn send_test(conn: &mut PgConnection, owner: Owner, endpoint_id: i64) -> Result<i64> {
    let ep = endpoints::get(conn, owner, endpoint_id).await?;
    if !ep.enabled {
        return Err(crate::Error::conflict(
            "The endpoint is disabled: enable it first",
        ));
    }
    let data = serde_json::json!({
        "message": "This is a test event.",
        "endpoint_id": endpoint_id,
    });
    let event_id = insert_event(conn, owner, TEST, &data).await?;
    deliveries::create(conn, &event_id, endpoint_id).await
}

/// Queues `job` to run at `at` (now when `at` is not in the future).
pub(crate) async fn queue_attempt(
    conn: &mut PgConnection,
    job: &DeliverWebhook,
    at: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<()> {
    queue::push_at(conn, job, at).await?;
    Ok(())
}

/// How long an event and its deliveries stay in the log (and can be replayed) once every
/// delivery of it has finished.
pub const EVENT_RETENTION: Duration = Duration::from_secs(30 * 24 * 3600);

/// Deletes the events older than `retention` none of whose deliveries is still pending, with
/// their deliveries and attempts (the foreign keys cascade). Run by the hourly `prune_jobs`.
pub async fn prune(conn: &mut PgConnection, retention: Duration) -> Result<u64> {
    Ok(sqlx::query(
        "DELETE FROM webhook_events e
          WHERE e.created_at < now() - $1 * interval '1 second'
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                             WHERE d.event_id = e.id AND d.status = 'pending')",
    )
    .bind(retention.as_secs_f64())
    .execute(conn)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_the_standard_one() {
        let secs: Vec<u64> = SCHEDULE.iter().map(Duration::as_secs).collect();
        assert_eq!(
            secs,
            [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
            "at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h"
        );
    }

    #[test]
    fn partners_get_every_user_event_and_two_more() {
        for e in USER_EVENTS {
            assert!(PARTNER_EVENTS.contains(&e));
        }
        assert!(!USER_EVENTS.contains(&USER_SIGNED_UP));
        assert!(!USER_EVENTS.contains(&TRUBANK_REQUESTED));
    }
}
