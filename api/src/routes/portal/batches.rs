//! Batch verification in the portal: upload a CSV of inputs for one API, follow its progress,
//! download the result. Only while the super admin has the partner's Batch Processing on.

use axum::{body::Body, extract::State, http::StatusCode, response::Response};
use domain::{
    gateway,
    gateway::batches::{self, Batch},
    infra::paging::{Page, PageParams},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::UserAuth,
    batch,
    error::ApiResult,
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_batches))
        .routes(routes!(submit_batch))
        .routes(routes!(get_batch))
        .routes(routes!(batch_result))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct Submit {
    /// The catalogue's service key.
    pub service: String,
    /// `live` (default) or `sandbox`: sandbox rows answer the catalogue's sample.
    #[serde(default)]
    pub mode: Option<String>,
    pub file_name: Option<String>,
}

/// One's batches, newest first, with their progress.
#[utoipa::path(get, path = "/me/batches", tag = "portal", params(PageParams), security(("bearer" = [])),
    responses((status = 200, body = Page<Batch>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list_batches(
    auth: UserAuth,
    State(state): State<AppState>,
    Query(p): Query<PageParams>,
) -> ApiResult<Json<Page<Batch>>> {
    Ok(Json(
        batches::list(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
            p.with_default(10),
        )
        .await?,
    ))
}

/// Submits a batch: the body is a CSV file (UTF-8, at most 2 MB and 10,000 rows) whose first
/// row names the API's input fields. 202 with the batch; its rows run in the `run_batch` job,
/// each charged only on success. 403 while the partner's Batch Processing is off, or for a live
/// batch of a partial-access user; 404 for an unknown API; 422 naming what is wrong with the file.
#[utoipa::path(post, path = "/me/batches", tag = "portal", params(Submit), request_body(content = String, content_type = "text/csv"),
    security(("bearer" = [])),
    responses((status = 202, body = Batch), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn submit_batch(
    auth: UserAuth,
    State(state): State<AppState>,
    Query(q): Query<Submit>,
    body: Body,
) -> ApiResult<(StatusCode, Json<Batch>)> {
    let sandbox = match q.mode.as_deref().map(str::trim) {
        None | Some("") | Some("live") => false,
        Some("sandbox") => true,
        Some(_) => {
            return Err(domain::Error::invalid("mode", "Mode must be live or sandbox").into());
        }
    };
    let file = batch::read_file(body).await?;
    let caller = gateway::session_caller(
        &mut *state.pool.acquire().await?,
        auth.partner_id,
        auth.user_id,
        auth.ip,
        sandbox,
    )
    .await?;
    let b = batch::submit(
        &state,
        &caller,
        q.service.trim(),
        &file,
        q.file_name.as_deref().unwrap_or(""),
        None,
        auth.ip,
    )
    .await?;
    Ok((StatusCode::ACCEPTED, Json(b)))
}

/// One of one's batches: status and rows done, charged and failed (poll it while it runs).
#[utoipa::path(get, path = "/me/batches/{id}", tag = "portal", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = Batch), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_batch(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Batch>> {
    Ok(Json(
        batches::find(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
            id,
        )
        .await?,
    ))
}

/// The result file: every row with its status, status code, transaction, amount charged and
/// the answer or the error (rows not yet run say Pending).
#[utoipa::path(get, path = "/me/batches/{id}/result", tag = "portal", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn batch_result(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    batch::result(&state, auth.partner_id, auth.user_id, id).await
}
