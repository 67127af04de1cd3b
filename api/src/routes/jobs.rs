//! Job state, for dashboards that poll a long-running job; and the super admin's operations
//! view of the queue: counts per kind, recent failures with Retry and Discard, the workers.

use axum::{extract::State, http::StatusCode};
use domain::infra::{
    audit::Actor,
    job_attempts::{self, Minute},
    paging::{Page, PageRequest},
    queue::{self, Pause},
};
use jobs::{
    browse::{self, Bulk, BulkAction, Filter, JobDetail, JobRow, Periodic, RunningJob},
    overview::{self, Failure, KindStats, Outcome},
    workers::{self, WorkerProcess},
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{AnyAuth, SuperAdminAuth},
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(job_state))
        .routes(routes!(operations))
        .routes(routes!(retry))
        .routes(routes!(discard))
        .routes(routes!(list))
        .routes(routes!(detail))
        .routes(routes!(bulk))
        .routes(routes!(revive))
        .routes(routes!(throughput))
        .routes(routes!(pause))
        .routes(routes!(resume))
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
    /// The periodic jobs: schedule, last run, next run.
    pub periodic: Vec<Periodic>,
    /// What the workers run now, oldest first (`worker`: the id of the worker process that holds it).
    pub running: Vec<RunningJob>,
    /// The paused kinds: the workers start none of their jobs until they are resumed.
    pub paused: Vec<Pause>,
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
        periodic: browse::periodic(&state.pool, &jobs::registry::schedules(&state.config)).await?,
        running: browse::running(&state.pool).await?,
        paused: queue::paused(&mut *state.pool.acquire().await?).await?,
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

/// The filter of the list and of a bulk action, with the page.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// queued | scheduled | running | retrying | failed | discarded | done
    pub state: String,
    /// A job kind; absent: every kind.
    pub kind: Option<String>,
    pub page: Option<i64>,
    pub per_page: Option<i64>,
}

/// The jobs of one state (and kind), paged: waiting ones by due time, the others newest first.
#[utoipa::path(get, path = "/superadmin/jobs/list", tag = "jobs", params(ListQuery),
    responses((status = 200, body = Page<JobRow>), (status = 400, body = crate::error::ErrorBody)))]
pub async fn list(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Page<JobRow>>> {
    let filter = Filter {
        state: q.state,
        kind: q.kind,
    };
    let req = PageRequest::new(q.page, q.per_page, 25);
    browse::list(&state.pool, &filter, req)
        .await?
        .map(Json)
        .map_err(ApiError::bad_request)
}

/// One job: its kind, arguments (ids only), state, every attempt with its time, duration and
/// error, and when it runs next.
#[utoipa::path(get, path = "/superadmin/jobs/{id}", tag = "jobs", params(("id" = String, Path)),
    responses((status = 200, body = JobDetail), (status = 404, body = crate::error::ErrorBody)))]
pub async fn detail(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<JobDetail>> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    Ok(Json(
        browse::detail(&state.pool, &id)
            .await?
            .ok_or_else(ApiError::not_found)?,
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct BulkRequest {
    pub action: BulkAction,
    /// retry: retrying | failed | discarded; discard: queued | scheduled | retrying | failed
    pub state: String,
    pub kind: Option<String>,
    /// The count the operator confirmed: when the set has changed since, nothing is done (409).
    pub expected: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BulkDone {
    pub count: u64,
}

/// Retry or Discard every job of a state (and kind), audited as one entry with the count.
#[utoipa::path(post, path = "/superadmin/jobs/bulk", tag = "jobs", request_body = BulkRequest,
    responses((status = 200, body = BulkDone), (status = 400, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn bulk(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Json(b): Json<BulkRequest>,
) -> ApiResult<Json<BulkDone>> {
    let filter = Filter {
        state: b.state,
        kind: b.kind,
    };
    match browse::bulk(
        &state.pool,
        b.action,
        &filter,
        b.expected,
        Actor::superadmin(auth.admin_id),
    )
    .await?
    {
        Bulk::Done(count) => Ok(Json(BulkDone { count })),
        Bulk::Invalid(m) => Err(ApiError::bad_request(m)),
        Bulk::Changed(n) => Err(ApiError::conflict(format!(
            "The jobs changed: {n} match now. Look again and confirm."
        ))),
    }
}

/// A discarded job back to the queue, to run now.
#[utoipa::path(post, path = "/superadmin/jobs/{id}/revive", tag = "jobs", params(("id" = String, Path)),
    responses((status = 202, description = "queued"), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn revive(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    match browse::revive(&state.pool, &id, Actor::superadmin(auth.admin_id)).await? {
        Outcome::Done => Ok(StatusCode::ACCEPTED),
        Outcome::NotFailed => Err(ApiError::conflict("Only a discarded job can be revived")),
        Outcome::NotFound => Err(ApiError::not_found()),
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Throughput {
    /// Attempts done and failed per minute and kind over the last hour, oldest first; minutes
    /// with none are left out.
    pub minutes: Vec<Minute>,
}

/// Done and failed job attempts per minute and kind, over the last hour.
#[utoipa::path(get, path = "/superadmin/jobs/throughput", tag = "jobs",
    responses((status = 200, body = Throughput)))]
pub async fn throughput(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Throughput>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(Throughput {
        minutes: job_attempts::per_minute(&mut conn, 60).await?,
    }))
}

/// A kind the workers run, or 404 (a pause of an unknown kind would silently do nothing).
fn known_kind(kind: &str) -> ApiResult<&str> {
    jobs::registry::kinds()
        .iter()
        .copied()
        .find(|k| *k == kind)
        .ok_or_else(ApiError::not_found)
}

/// Pauses a kind: from the workers' next fetch on, none of its jobs starts (running ones
/// finish); new ones wait in the queue. Audited; pausing a paused kind changes nothing.
#[utoipa::path(post, path = "/superadmin/jobs/kinds/{kind}/pause", tag = "jobs", params(("kind" = String, Path)),
    responses((status = 204, description = "paused"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn pause(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(kind): Path<String>,
) -> ApiResult<StatusCode> {
    let kind = known_kind(&kind)?;
    let mut conn = state.pool.acquire().await?;
    queue::pause(&mut conn, kind, Actor::superadmin(auth.admin_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Resumes a paused kind: the workers are woken and take its waiting jobs at once. Audited.
#[utoipa::path(post, path = "/superadmin/jobs/kinds/{kind}/resume", tag = "jobs", params(("kind" = String, Path)),
    responses((status = 204, description = "resumed"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn resume(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(kind): Path<String>,
) -> ApiResult<StatusCode> {
    let kind = known_kind(&kind)?;
    let mut conn = state.pool.acquire().await?;
    queue::resume(&mut conn, kind, Actor::superadmin(auth.admin_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
