//! The metered gateway: `GET /verify` (what this key may call) and `POST /verify/{service}`.
//! The pipeline after the key is found is `crate::verification`, shared with the portal's
//! Try-it console.

use axum::{
    body::{Body, Bytes},
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use domain::{
    gateway::batches::{self, Batch},
    gateway::results::{self, KeptCall},
    gateway::{self, Offer},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    batch::{self, Upload},
    client_ip::ClientIp,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
    gateway::Rate,
    idempotency, verification,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(offers))
        .routes(routes!(call))
        .routes(routes!(submit_batch))
        .routes(routes!(get_batch))
        .routes(routes!(batch_result))
        .routes(routes!(transaction))
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
    params(("service" = String, Path, description = "the catalogue's service key"),
        ("Idempotency-Key" = Option<String>, Header, description = "the same key with the same body within 24 hours answers the first call's answer, with no new call or charge")),
    request_body = Object,
    responses((status = 200, description = "the upstream's (or the sample) body", body = Object,
            headers(("X-Transaction-Id" = i64, description = "the call's transaction"),
                ("X-Charged-Paise" = i64, description = "what the user's wallet paid (0 when refunded)"),
                ("X-Verification-Id" = String, description = "the call's verification id, in the API log"),
                ("X-RateLimit-Limit" = i64, description = "calls per minute of this key"),
                ("X-RateLimit-Remaining" = i64, description = "calls left now"),
                ("X-RateLimit-Reset" = i64, description = "seconds until the whole budget is back"),
                ("Idempotent-Replayed" = bool, description = "true on the first answer given again for the same Idempotency-Key"))),
        (status = 401, description = "`unauthorized`: no key, an unknown, revoked or expired key", body = crate::error::ErrorBody),
        (status = 402, description = "`insufficient_balance`: a wallet cannot cover the call; nothing charged", body = crate::error::ErrorBody),
        (status = 403, description = "`forbidden`: the user or partner is inactive, the IP is not allowed, or the API is not open to this key", body = crate::error::ErrorBody),
        (status = 404, description = "`not_found`: no such service", body = crate::error::ErrorBody),
        (status = 409, description = "`idempotency_conflict`: the Idempotency-Key was used with another body", body = crate::error::ErrorBody),
        (status = 422, description = "`validation_failed`: required fields missing, each named in `fields`", body = crate::error::ErrorBody),
        (status = 429, description = "`rate_limited`: over the key's calls per minute",
            headers(("Retry-After" = i64, description = "seconds to wait")), body = crate::error::ErrorBody),
        (status = 502, description = "`upstream_error` or `upstream_unreachable`: refunded", body = crate::error::ErrorBody),
        (status = 504, description = "the upstream timed out: refunded", body = crate::error::ErrorBody)))]
pub async fn call(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(service): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let unauthorized = |e: ApiError| {
        let mut res = e.into_response();
        Rate::untouched(state.gateway.rate_limit()).apply(res.headers_mut());
        res
    };
    let caller = match state
        .gateway
        .cache
        .lookup(&state.pool, crate::gateway::api_key(&headers), ip)
        .await
    {
        Ok(c) => c,
        Err(e) => return Ok(unauthorized(e.into())),
    };
    // An expired key is a known key: its owner finds the refusal in the API log.
    if let Err(e) = gateway::check_expiry(&caller) {
        let e = ApiError::from(e);
        verification::refused(&state, &caller, &service, "", ip, &e);
        return Ok(unauthorized(e));
    }
    let route = format!("POST /verify/{service}");
    let work = {
        let (state, caller, headers) = (state.clone(), caller.clone(), headers.clone());
        let body = body.clone();
        move || async move {
            let (rate, verified) =
                verification::run_rated(&state, &caller, &service, &body, ip, &headers).await;
            let mut res = match verified {
                Ok(v) => v.into_response(),
                Err(e) => e.into_response(),
            };
            rate.apply(res.headers_mut());
            res
        }
    };
    let mut res = idempotency::once(&state, &caller, &headers, &route, &body, work).await;
    // A replay made no call, and the idempotency check's own refusals (409, 400) came before
    // the limit: where the key stands, uncounted.
    if res.headers().contains_key("idempotent-replayed")
        || !res.headers().contains_key("x-ratelimit-limit")
    {
        state
            .gateway
            .peek_rate(caller.key_id)
            .await
            .apply(res.headers_mut());
    }
    Ok(res)
}

/// A batch of calls of `service` with this key: the body is a CSV file (UTF-8, at most 2 MB and
/// 10,000 rows) whose first row names the service's input fields. 202 with the batch; the
/// `run_batch` job runs every row through this gateway's checks and charging, each charged only
/// on success, at a bounded rate. 403 while the partner's Batch Processing is off; 422 naming
/// what is wrong with the file.
#[utoipa::path(post, path = "/verify/{service}/batch", tag = "gateway", security(("api_key" = [])),
    params(("service" = String, Path, description = "the catalogue's service key"), Upload,
        ("Idempotency-Key" = Option<String>, Header, description = "the same key with the same file within 24 hours answers the first submission's batch")),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 202, body = Batch), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn submit_batch(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(service): Path<String>,
    Query(q): Query<Upload>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let caller = gateway::caller(
        &mut *state.pool.acquire().await?,
        crate::gateway::api_key(&headers),
        ip,
    )
    .await?;
    let file = batch::read_file(body).await?;
    let file_name = q.file_name.unwrap_or_default();
    let route = format!("POST /verify/{service}/batch?file_name={file_name}");
    let work = {
        let (state, caller, file) = (state.clone(), caller.clone(), file.clone());
        move || async move {
            let key_id = Some(caller.key_id);
            match batch::submit(&state, &caller, &service, &file, &file_name, key_id, ip).await {
                Ok(b) => (StatusCode::ACCEPTED, Json(b)).into_response(),
                Err(e) => e.into_response(),
            }
        }
    };
    Ok(idempotency::once(&state, &caller, &headers, &route, &file, work).await)
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

/// A call of this key's user by its transaction id (`X-Transaction-Id`), with the body it was
/// answered with, while `RESULT_RETENTION_HOURS` keeps it (24 by default; 0 keeps none): for a
/// client that lost an answer, so it need not pay for the call again. Another user's call, one
/// past the retention, or one still running: 404.
#[utoipa::path(get, path = "/verify/transactions/{id}", tag = "gateway", security(("api_key" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = KeptCall), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn transaction(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> ApiResult<Json<KeptCall>> {
    let caller = state
        .gateway
        .cache
        .caller(&state.pool, crate::gateway::api_key(&headers), ip)
        .await?;
    // The answers are personal data: a key kept off an address, or a blocked one, reads none.
    gateway::admit(&caller)?;
    Ok(Json(
        results::find(
            &mut *state.pool.acquire().await?,
            &state.gateway.secrets,
            caller.user_id,
            id,
            state.config.gateway.result_retention,
        )
        .await?,
    ))
}
