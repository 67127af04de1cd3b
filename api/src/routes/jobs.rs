//! Job state, for dashboards that poll a long-running job; and the super admin's operations
//! view of the queue: counts per kind, recent failures with Retry and Discard, the workers.

use axum::{extract::State, http::StatusCode};
use domain::infra::audit::Actor;
use jobs::{
    overview::{self, Failure, KindStats, Outcome},
    workers::{self, WorkerProcess},
};
use serde::Serialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{AnyAuth, SuperAdminAuth},
    error::{ApiError, ApiResult},
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(job_state))
        .routes(routes!(operations))
        .routes(routes!(retry))
        .routes(routes!(discard))
}

/// Kind, status (queued, running, retrying, done, failed), attempts and last error of a job.
/// A partner sees the jobs its own requests caused; any other job is 404 to it. The super
/// admin sees all.
#[utoipa::path(get, path = "/jobs/{id}", tag = "jobs", params(("id" = String, Path)),
    responses((status = 200, description = "job state"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn job_state(
    auth: AnyAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    if let AnyAuth::Partner(partner_id) = auth {
        let mut conn = state.pool.acquire().await?;
        if !domain::infra::job_owners::is_owner(&mut conn, &id, partner_id).await? {
            return Err(ApiError::not_found());
        }
    }
    let job = jobs::state::find(&state.pool, &id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(serde_json::to_value(job).map_err(ApiError::internal)?))
}

/// How many recent failures the operations view lists.
const FAILURES_SHOWN: i64 = 50;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Operations {
    /// Every job kind the workers run, then any other kind found in the queue.
    pub kinds: Vec<KindStats>,
    /// Newest first.
    pub recent_failures: Vec<Failure>,
    /// Worker processes seen in the last 15 minutes, running ones first.
    pub workers: Vec<WorkerProcess>,
    /// `WORKER_HEARTBEAT_SECS`: a worker silent for two of these is missing.
    pub heartbeat_secs: u64,
}

/// The queue per job kind, recent failures and the worker processes.
#[utoipa::path(get, path = "/superadmin/jobs", tag = "jobs", responses((status = 200, body = Operations), (status = 403, body = crate::error::ErrorBody)))]
pub async fn operations(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Operations>> {
    let heartbeat = state.config.worker_heartbeat;
    Ok(Json(Operations {
        kinds: overview::kinds(&state.pool, jobs::registry::kinds()).await?,
        recent_failures: overview::recent_failures(&state.pool, FAILURES_SHOWN).await?,
        workers: workers::recent(&state.pool, heartbeat).await?,
        heartbeat_secs: heartbeat.as_secs(),
    }))
}

fn answered(outcome: Outcome, done: StatusCode) -> ApiResult<StatusCode> {
    match outcome {
        Outcome::Done => Ok(done),
        Outcome::NotFailed => Err(ApiError::conflict(
            "Only a failed job can be retried or discarded",
        )),
        Outcome::NotFound => Err(ApiError::not_found()),
    }
}

/// A failed job (retrying, or out of attempts) back to the queue to run now.
#[utoipa::path(post, path = "/superadmin/jobs/{id}/retry", tag = "jobs", params(("id" = String, Path)),
    responses((status = 202, description = "queued"), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn retry(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    answered(
        overview::retry(&state.pool, &id, Actor::superadmin(auth.admin_id)).await?,
        StatusCode::ACCEPTED,
    )
}

/// A failed job stopped for good: it is not retried again and is pruned like a finished job.
#[utoipa::path(post, path = "/superadmin/jobs/{id}/discard", tag = "jobs", params(("id" = String, Path)),
    responses((status = 204, description = "discarded"), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn discard(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    answered(
        overview::discard(&state.pool, &id, Actor::superadmin(auth.admin_id)).await?,
        StatusCode::NO_CONTENT,
    )
}
