//! `run_batch`: runs a batch's rows in file order through the gateway's checks, its charging
//! and its upstream call, at `BATCH_ROWS_PER_SECOND` at most.
//!
//! Idempotent (see `domain::gateway::batches`): every row's state moves in the transaction that moves
//! its money, and its charge carries the row's idempotency key, so a retried or resumed job
//! picks up the open rows and never charges a row twice. The user's and partner's state is read
//! again for every row: a user deactivated or a key revoked mid-batch fails the rows after it,
//! uncharged.

use std::time::{Duration, Instant};

use domain::{
    Error,
    gateway::batches::{self, OpenRow, RowEnd, Run},
    gateway::{self, Call, Caller, call},
    wallets::charge::{self, CallLog, Item, Outcome, Settle},
};
use serde::{Deserialize, Serialize};
use sqlx::Connection;

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RunBatch {
    pub batch_id: i64,
}

impl Task for RunBatch {
    const KIND: &'static str = "run_batch";
    const MAX_ATTEMPTS: usize = 5;
}

/// Open rows read at a time.
const PAGE: i64 = 100;

impl Job for RunBatch {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        match run(self.batch_id, ctx).await {
            Ok(()) => Ok(()),
            Err(err) => {
                // 'failed' only once no retry is left; until then the batch stays running and
                // the next attempt resumes at its first open row.
                let mut conn = ctx.pool.acquire().await?;
                if let Some(job_id) = batches::job_id(&mut conn, self.batch_id).await?
                    && crate::state::is_last_attempt(&ctx.pool, &job_id).await?
                {
                    batches::finish(
                        &mut conn,
                        self.batch_id,
                        Some(
                            "The batch stopped before its last row; rows not run were not charged",
                        ),
                    )
                    .await?;
                }
                Err(err)
            }
        }
    }
}

async fn run(id: i64, ctx: &JobContext) -> anyhow::Result<()> {
    let mut conn = ctx.pool.acquire().await?;
    let Some(batch) = batches::run_of(&mut conn, id).await? else {
        tracing::debug!(batch_id = id, "batch gone; nothing to do");
        return Ok(());
    };
    if !matches!(batch.status.as_str(), "queued" | "running") {
        return Ok(());
    }
    batches::start(&mut conn, id).await?;
    drop(conn);
    let interval = Duration::from_secs(1) / ctx.config.gateway.batch_rows_per_second.max(1);
    let mut after = 0;
    loop {
        let rows = batches::open_rows(&mut *ctx.pool.acquire().await?, id, after, PAGE).await?;
        if rows.is_empty() {
            break;
        }
        for row in rows {
            after = row.row_no;
            let started = Instant::now();
            run_row(ctx, &batch, row).await?;
            tokio::time::sleep(interval.saturating_sub(started.elapsed())).await;
        }
    }
    batches::finish(&mut *ctx.pool.acquire().await?, id, None).await?;
    tracing::info!(batch_id = id, "batch completed");
    Ok(())
}

/// A check's refusal as the row's status code and message; anything else is the job's error.
fn refusal(e: Error) -> anyhow::Result<(i32, String)> {
    Ok(match e {
        Error::Unauthorized(m) => (401, m),
        Error::Forbidden(m) | Error::Denied { message: m, .. } => (403, m),
        Error::NotFound => (404, "This API does not exist".into()),
        Error::Invalid { message, fields } => (
            422,
            if fields.len() > 1 {
                fields.values().cloned().collect::<Vec<_>>().join("; ")
            } else {
                message
            },
        ),
        other => return Err(other.into()),
    })
}

async fn fail(
    ctx: &JobContext,
    batch: &Run,
    row: &OpenRow,
    code: i32,
    error: String,
) -> anyhow::Result<()> {
    let end = RowEnd {
        success: false,
        status_code: code,
        transaction_id: None,
        charged_paise: 0,
        response: None,
        error: Some(error),
    };
    batches::end_row(&mut *ctx.pool.acquire().await?, batch.id, row.row_no, &end).await?;
    Ok(())
}

/// The caller as it is now, and the API call this row makes; `Err` with the refusal.
async fn checked(
    ctx: &JobContext,
    batch: &Run,
    input: &serde_json::Map<String, serde_json::Value>,
) -> domain::Result<(Caller, Call)> {
    let mut conn = ctx.pool.acquire().await?;
    let caller = match batch.key_id {
        Some(key_id) => gateway::key_caller(&mut conn, key_id, batch.ip.0).await?,
        None => {
            gateway::session_caller(
                &mut conn,
                batch.partner_id,
                batch.user_id,
                batch.ip.0,
                batch.sandbox,
            )
            .await?
        }
    };
    gateway::admit(&caller)?;
    let call = gateway::authorize(&mut conn, &caller, &batch.service, input).await?;
    Ok((caller, call))
}

async fn run_row(ctx: &JobContext, batch: &Run, row: OpenRow) -> anyhow::Result<()> {
    let input = &row.input.0;
    let (caller, call) = match checked(ctx, batch, input).await {
        Ok(c) => c,
        Err(e) => {
            let (code, message) = refusal(e)?;
            // A row charged before (the run stopped before it settled) is settled below
            // whatever the checks say now: its money must not stay pending.
            if row.status != "charged" {
                return fail(ctx, batch, &row, code, message).await;
            }
            let transaction_id = row
                .transaction_id
                .expect("a charged row has its transaction");
            return settle(
                ctx,
                batch,
                row.row_no,
                transaction_id,
                false,
                code,
                None,
                None,
                Some(message),
            )
            .await;
        }
    };

    let transaction_id = match (row.status.as_str(), row.transaction_id) {
        ("charged", Some(t)) => t,
        _ => {
            let charge = call::charge_of(
                &ctx.pool,
                &caller,
                &call,
                Some(batches::charge_key(batch.id, row.row_no)),
            )
            .await?;
            let mut conn = ctx.pool.acquire().await?;
            let mut tx = conn.begin().await?;
            let outcome = charge::apply_in(&mut tx, &[Item::Charge(charge)])
                .await?
                .remove(0);
            match outcome {
                Outcome::Charged { transaction_id, .. } | Outcome::Duplicate { transaction_id } => {
                    batches::mark_charged(&mut tx, batch.id, row.row_no, transaction_id).await?;
                    tx.commit().await?;
                    transaction_id
                }
                Outcome::Insufficient => {
                    let end = RowEnd {
                        success: false,
                        status_code: 402,
                        transaction_id: None,
                        charged_paise: 0,
                        response: None,
                        error: Some("Insufficient balance".into()),
                    };
                    batches::end_row(&mut tx, batch.id, row.row_no, &end).await?;
                    tx.commit().await?;
                    return Ok(());
                }
                other => anyhow::bail!(
                    "charging row {} of batch {}: unexpected {other:?}",
                    row.row_no,
                    batch.id
                ),
            }
        }
    };

    let started = Instant::now();
    let answer = call::answer(
        &ctx.http,
        &ctx.config,
        &caller,
        &call,
        &Default::default(),
        input,
    )
    .await;
    let (success, status_code) = answer.outcome();
    let log = CallLog {
        vid: uuid::Uuid::new_v4().to_string(),
        vpid: answer.vpid(),
        ip: Some(batch.ip.0),
        latency_ms: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
        // A batch row's answer is in the batch's result file, not kept per transaction.
        keep: false,
        sealed: None,
    };
    let response = match &answer {
        call::Upstream::Answered { body, .. } if success => {
            Some(serde_json::from_slice(body).unwrap_or_else(|_| {
                serde_json::Value::String(String::from_utf8_lossy(body).into_owned())
            }))
        }
        _ => None,
    };
    settle(
        ctx,
        batch,
        row.row_no,
        transaction_id,
        success,
        status_code,
        Some(log),
        response,
        answer.failure(),
    )
    .await
}

/// Settles the row's transaction (a 2xx keeps the charge, anything else refunds it) and ends the
/// row, in one transaction. A transaction settled already (by a twin run, or refunded by
/// `settle_pending` while the job was down) ends the row as it was settled.
#[allow(clippy::too_many_arguments)]
async fn settle(
    ctx: &JobContext,
    batch: &Run,
    row_no: i32,
    transaction_id: i64,
    success: bool,
    status_code: i32,
    log: Option<CallLog>,
    response: Option<serde_json::Value>,
    error: Option<String>,
) -> anyhow::Result<()> {
    let mut conn = ctx.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    charge::apply_in(
        &mut tx,
        &[Item::Settle(Settle {
            transaction_id,
            success,
            status_code,
            log,
            charged_under: None,
        })],
    )
    .await?;
    let (kept, charged_paise) = batches::transaction_kept(&mut tx, transaction_id).await?;
    let error = match (kept, error) {
        (true, _) => None,
        (false, Some(e)) => Some(e),
        (false, None) => Some("The call was interrupted and refunded; you were not charged".into()),
    };
    let end = RowEnd {
        success: kept,
        status_code,
        transaction_id: Some(transaction_id),
        charged_paise,
        response: if kept { response } else { None },
        error,
    };
    batches::end_row(&mut tx, batch.id, row_no, &end).await?;
    tx.commit().await?;
    Ok(())
}
