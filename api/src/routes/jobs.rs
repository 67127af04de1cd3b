//! Job state, for dashboards that poll a long-running job.

use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::AnyAuth, error::{ApiError, ApiResult}, extract::{Json, Path}};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(job_state))
}

/// Kind, status (queued, running, retrying, done, failed), attempts and last error of a job.
/// A partner sees the jobs its own requests caused; any other job is 404 to it. The super
/// admin sees all.
#[utoipa::path(get, path = "/jobs/{id}", tag = "jobs", params(("id" = String, Path)),
    responses((status = 200, description = "job state"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn job_state(auth: AnyAuth, State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<serde_json::Value>> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    if let AnyAuth::Partner(partner_id) = auth {
        let mut conn = state.pool.acquire().await?;
        if !domain::job_owners::is_owner(&mut conn, &id, partner_id).await? {
            return Err(ApiError::not_found());
        }
    }
    let job = jobs::state::find(&state.pool, &id).await?.ok_or_else(ApiError::not_found)?;
    Ok(Json(serde_json::to_value(job).map_err(ApiError::internal)?))
}
