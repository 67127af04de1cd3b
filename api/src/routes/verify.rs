//! The metered gateway: `GET /verify` (what this key may call) and `POST /verify/{service}`.
//! The pipeline after the key is found is `crate::verification`, shared with the portal's
//! Try-it console.

use axum::{
    body::{Body, Bytes},
    extract::State,
    http::{HeaderMap, StatusCode},
    response::Response,
};
use domain::{
    gateway::batches::{self, Batch},
    gateway::{self, Offer},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    batch::{self, Upload},
    client_ip::ClientIp,
    error::ApiResult,
    extract::{Json, Path, Query},
    verification,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(offers))
        .routes(routes!(call))
        .routes(routes!(submit_batch))
        .routes(routes!(get_batch))
        .routes(routes!(batch_result))
}

/// The services this API key may call, with the user's price and the required fields.
#[utoipa::path(get, path = "/verify", tag = "gateway", security(("api_key" = [])),
    responses((status = 200, body = Vec<Offer>), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn offers(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<Offer>>> {
    let mut conn = state.pool.acquire().await?;
    let caller = gateway::caller(&mut conn, crate::gateway::api_key(&headers), ip).await?;
    gateway::admit(&caller)?;
    Ok(Json(gateway::offers(&mut conn, &caller).await?))
}

/// One metered verification. The body is the service's input fields (a JSON object); the
/// answer is the upstream's body (or the catalogue's sample for a sandbox call) with
/// `X-Transaction-Id` and `X-Charged-Paise`. Only a 2xx from the upstream is charged: any other
/// status (502), a timeout (504) or a refused connection (502) refunds both wallets.
#[utoipa::path(post, path = "/verify/{service}", tag = "gateway", security(("api_key" = [])),
    params(("service" = String, Path, description = "the catalogue's service key")),
    request_body = Object,
    responses((status = 200, description = "the upstream's (or the sample) body"),
        (status = 401, body = crate::error::ErrorBody), (status = 402, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody),
        (status = 502, body = crate::error::ErrorBody), (status = 504, body = crate::error::ErrorBody)))]
pub async fn call(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(service): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let caller = {
        let mut conn = state.pool.acquire().await?;
        gateway::caller(&mut conn, crate::gateway::api_key(&headers), ip).await?
    };
    Ok(
        verification::run(&state, &caller, &service, &body, ip, &headers)
            .await?
            .into_response(),
    )
}

/// A batch of calls of `service` with this key: the body is a CSV file (UTF-8, at most 2 MB and
/// 10,000 rows) whose first row names the service's input fields. 202 with the batch; the
/// `run_batch` job runs every row through this gateway's checks and charging, each charged only
/// on success, at a bounded rate. 403 while the partner's Batch Processing is off; 422 naming
/// what is wrong with the file.
#[utoipa::path(post, path = "/verify/{service}/batch", tag = "gateway", security(("api_key" = [])),
    params(("service" = String, Path, description = "the catalogue's service key"), Upload),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 202, body = Batch), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn submit_batch(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(service): Path<String>,
    Query(q): Query<Upload>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<(StatusCode, Json<Batch>)> {
    let caller = gateway::caller(
        &mut *state.pool.acquire().await?,
        crate::gateway::api_key(&headers),
        ip,
    )
    .await?;
    let file = batch::read_file(body).await?;
    let b = batch::submit(
        &state,
        &caller,
        &service,
        &file,
        q.file_name.as_deref().unwrap_or(""),
        Some(caller.key_id),
        ip,
    )
    .await?;
    Ok((StatusCode::ACCEPTED, Json(b)))
}

/// A batch submitted by this key's user: its status and rows done, charged and failed.
#[utoipa::path(get, path = "/verify/batches/{id}", tag = "gateway", security(("api_key" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = Batch), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_batch(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> ApiResult<Json<Batch>> {
    let mut conn = state.pool.acquire().await?;
    let caller = gateway::caller(&mut conn, crate::gateway::api_key(&headers), ip).await?;
    Ok(Json(
        batches::find(&mut conn, caller.partner_id, caller.user_id, id).await?,
    ))
}

/// The result file of a batch of this key's user.
#[utoipa::path(get, path = "/verify/batches/{id}/result", tag = "gateway", security(("api_key" = [])), params(("id" = i64, Path)),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn batch_result(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let caller = gateway::caller(
        &mut *state.pool.acquire().await?,
        crate::gateway::api_key(&headers),
        ip,
    )
    .await?;
    batch::result(&state, caller.partner_id, caller.user_id, id).await
}
