//! Job state, for dashboards that poll a long-running job.

use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::AnyAuth, error::{ApiError, ApiResult}, extract::{Json, Path}};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(job_state))
}

/// Kind, status (queued, running, retrying, done, failed), attempts and last error of a job.
#[utoipa::path(get, path = "/jobs/{id}", tag = "jobs", params(("id" = String, Path)),
    responses((status = 200, description = "job state"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn job_state(_auth: AnyAuth, State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<serde_json::Value>> {
    if id.len() > 64 {
        return Err(ApiError::not_found());
    }
    let job = jobs::state::find(&state.pool, &id).await?.ok_or_else(ApiError::not_found)?;
    Ok(Json(serde_json::to_value(job).map_err(ApiError::internal)?))
}
