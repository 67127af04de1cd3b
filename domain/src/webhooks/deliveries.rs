//! Deliveries of events to endpoints and their attempts: created with the event ([`create`]),
//! prepared and recorded by the `deliver_webhook` job one attempt at a time ([`prepare`],
//! [`record`]), listed per endpoint, and replayed.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use super::{DISABLE_AFTER, DeliverWebhook, Owner, SCHEDULE, queue_attempt, sender, signing};
use crate::{
    Error, Result,
    infra::crypto::SecretBox,
    infra::paging::{List, Page, PageRequest},
};

/// One attempt as the delivery log shows it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Attempt {
    #[sqlx(rename = "attempted_at")]
    pub at: DateTime<Utc>,
    pub status_code: Option<i32>,
    pub latency_ms: i32,
    pub response_excerpt: String,
}

/// A delivery of one event to one endpoint.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Delivery {
    pub id: i64,
    pub event_id: String,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub event_type: String,
    /// `pending` (an attempt is due or scheduled), `succeeded` or `failed` (no attempt left).
    pub status: String,
    #[sqlx(skip)]
    pub attempts: Vec<Attempt>,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// A pending delivery of `event_id` to `endpoint_id`, its first attempt queued at once.
pub async fn create(conn: &mut PgConnection, event_id: &str, endpoint_id: i64) -> Result<i64> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at) VALUES ($1, $2, now()) RETURNING id",
    )
    .bind(event_id)
    .bind(endpoint_id)
    .fetch_one(&mut *conn)
    .await?;
    let job = DeliverWebhook {
        delivery_id: id,
        generation: 0,
        attempt: 0,
    };
    queue_attempt(conn, &job, None).await?;
    Ok(id)
}

/// The endpoint's deliveries, newest first, each with its attempts in order.
pub async fn list(
    conn: &mut PgConnection,
    owner: Owner,
    endpoint_id: i64,
    page: PageRequest,
) -> Result<Page<Delivery>> {
    super::endpoints::get(conn, owner, endpoint_id).await?;
    let mut page: Page<Delivery> = List {
        columns: "d.id, d.event_id, e.type, d.status, d.next_attempt_at, d.created_at",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = ")
                .push_bind(endpoint_id);
        },
        order_by: "d.id DESC",
    }
    .fetch(conn, page)
    .await?;
    let ids: Vec<i64> = page.items.iter().map(|d| d.id).collect();
    #[derive(sqlx::FromRow)]
    struct Row {
        delivery_id: i64,
        #[sqlx(flatten)]
        attempt: Attempt,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT delivery_id, attempted_at, status_code, latency_ms, response_excerpt
           FROM webhook_attempts WHERE delivery_id = ANY ($1) ORDER BY id",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    for r in rows {
        if let Some(d) = page.items.iter_mut().find(|d| d.id == r.delivery_id) {
            d.attempts.push(r.attempt);
        }
    }
    Ok(page)
}

/// What the job sends for one attempt.
pub struct Prepared {
    pub url: String,
    pub msg_id: String,
    pub body: Vec<u8>,
    /// The current secret, and the rolled one while it still signs.
    pub secrets: Vec<String>,
}

impl Prepared {
    /// The `webhook-signature` header for an attempt made at `timestamp`.
    pub fn signature(&self, timestamp: i64) -> anyhow::Result<String> {
        signing::header(&self.secrets, &self.msg_id, timestamp, &self.body)
    }
}

/// The attempt `job` stands for, or `None` when there is nothing to do: the delivery is gone,
/// finished, or has moved past the job (a replay, a duplicate). A delivery whose endpoint is
/// disabled fails here, unsent.
pub async fn prepare(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    job: &DeliverWebhook,
) -> Result<Option<Prepared>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        status: String,
        generation: i32,
        attempt_count: i32,
        event_id: String,
        event_type: String,
        data: sqlx::types::Json<serde_json::Value>,
        created_at: DateTime<Utc>,
        url: String,
        enabled: bool,
        secret_enc: Vec<u8>,
        previous_secret_enc: Option<Vec<u8>>,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT d.status, d.generation, d.attempt_count, e.id AS event_id, e.type AS event_type, e.data, e.created_at,
                w.url, w.enabled, w.secret_enc,
                CASE WHEN w.previous_secret_until > now() THEN w.previous_secret_enc END AS previous_secret_enc
           FROM webhook_deliveries d
           JOIN webhook_events e ON e.id = d.event_id
           JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.id = $1",
    )
    .bind(job.delivery_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(r) = row else { return Ok(None) };
    if r.status != "pending" || r.generation != job.generation || r.attempt_count != job.attempt {
        return Ok(None);
    }
    if !r.enabled {
        sqlx::query(
            "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1 AND status = 'pending'",
        )
        .bind(job.delivery_id)
        .execute(&mut *conn)
        .await?;
        return Ok(None);
    }
    let mut keys = vec![secrets.open(&r.secret_enc)?];
    if let Some(prev) = &r.previous_secret_enc {
        keys.push(secrets.open(prev)?);
    }
    let body = serde_json::to_vec(&serde_json::json!({
        "id": r.event_id,
        "type": r.event_type,
        "created_at": r.created_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "data": r.data.0,
    }))
    .map_err(|e| Error::Other(e.into()))?;
    Ok(Some(Prepared {
        url: r.url,
        msg_id: r.event_id,
        body,
        secrets: keys,
    }))
}

/// What recording an attempt led to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// The delivery moved on meanwhile: nothing was written.
    Stale,
    Succeeded,
    /// The next attempt is queued for then.
    Retry(DateTime<Utc>),
    /// The schedule is spent: the delivery failed.
    Failed,
    /// As `Failed` or `Retry`, and the endpoint, failing for [`DISABLE_AFTER`], is disabled
    /// now: its owner is to be told.
    Disabled {
        endpoint_id: i64,
    },
}

/// Records `outcome` as attempt `job.attempt + 1` of the delivery, in `conn` (a transaction):
/// a success ends it; a failure queues the next attempt after the schedule's delay, or fails
/// the delivery when none is left, and disables an endpoint that has failed for 5 days.
pub async fn record(
    conn: &mut PgConnection,
    job: &DeliverWebhook,
    outcome: &sender::Outcome,
) -> Result<Recorded> {
    let row: Option<(i32, i32, i32, i64)> = sqlx::query_as(
        "SELECT generation, attempt_count, round_start, endpoint_id FROM webhook_deliveries
          WHERE id = $1 AND status = 'pending' FOR UPDATE",
    )
    .bind(job.delivery_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((generation, count, round_start, endpoint_id)) = row else {
        return Ok(Recorded::Stale);
    };
    if generation != job.generation || count != job.attempt {
        return Ok(Recorded::Stale);
    }
    sqlx::query(
        "INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response_excerpt)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(job.delivery_id)
    .bind(outcome.attempted_at)
    .bind(outcome.status_code.map(i32::from))
    .bind(outcome.latency_ms)
    .bind(&outcome.excerpt)
    .execute(&mut *conn)
    .await?;
    let made = count + 1;
    if outcome.succeeded() {
        sqlx::query(
            "UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = $2, next_attempt_at = NULL WHERE id = $1",
        )
        .bind(job.delivery_id)
        .bind(made)
        .execute(&mut *conn)
        .await?;
        sqlx::query("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL")
            .bind(endpoint_id)
            .execute(&mut *conn)
            .await?;
        return Ok(Recorded::Succeeded);
    }
    let next = SCHEDULE
        .get((made - round_start).max(0) as usize)
        .map(|wait| Utc::now() + chrono::Duration::from_std(*wait).expect("schedule fits"));
    sqlx::query(
        "UPDATE webhook_deliveries
            SET status = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                attempt_count = $2, next_attempt_at = $3
          WHERE id = $1",
    )
    .bind(job.delivery_id)
    .bind(made)
    .bind(next)
    .execute(&mut *conn)
    .await?;
    if let Some(at) = next {
        let job = DeliverWebhook {
            attempt: made,
            ..job.clone()
        };
        queue_attempt(conn, &job, Some(at)).await?;
    }
    sqlx::query(
        "UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL",
    )
    .bind(endpoint_id)
    .bind(outcome.attempted_at)
    .execute(&mut *conn)
    .await?;
    let disabled: Option<i64> = sqlx::query_scalar(
        "UPDATE webhook_endpoints
            SET enabled = false, updated_at = now(), disabled_reason = 'Every delivery failed for 5 days'
          WHERE id = $1 AND enabled AND failing_since <= now() - $2 * interval '1 second'
      RETURNING id",
    )
    .bind(endpoint_id)
    .bind(DISABLE_AFTER.as_secs_f64())
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match (disabled, next) {
        (Some(endpoint_id), _) => Recorded::Disabled { endpoint_id },
        (None, Some(at)) => Recorded::Retry(at),
        (None, None) => Recorded::Failed,
    })
}

/// Delivers the event again to the same endpoint: one attempt at once and, should it fail,
/// the whole schedule again. The attempts so far stay in the log. A disabled endpoint: 409.
pub async fn replay(conn: &mut PgConnection, owner: Owner, delivery_id: i64) -> Result<()> {
    let row: Option<(i32, i32, bool)> = sqlx::query_as(
        "SELECT d.generation, d.attempt_count, w.enabled
           FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.id = $1 AND w.partner_id = $2 AND w.user_id IS NOT DISTINCT FROM $3
            FOR UPDATE OF d",
    )
    .bind(delivery_id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((generation, count, enabled)) = row else {
        return Err(Error::NotFound);
    };
    if !enabled {
        return Err(Error::conflict("The endpoint is disabled: enable it first"));
    }
    // A new generation: a job still queued for the old schedule finds it moved and stops.
    sqlx::query(
        "UPDATE webhook_deliveries
            SET status = 'pending', generation = $2, round_start = attempt_count, next_attempt_at = now()
          WHERE id = $1",
    )
    .bind(delivery_id)
    .bind(generation + 1)
    .execute(&mut *conn)
    .await?;
    let job = DeliverWebhook {
        delivery_id,
        generation: generation + 1,
        attempt: count,
    };
    queue_attempt(conn, &job, None).await
}
