//! The metered gateway: `GET /verify` (what this key may call) and `POST /verify/{service}`.
//! The pipeline after the key is found is `crate::verification`, shared with the portal's
//! Try-it console.

use axum::{body::Bytes, extract::State, http::HeaderMap, response::Response};
use domain::gateway::{self, Offer};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    client_ip::ClientIp,
    error::ApiResult,
    extract::{Json, Path},
    verification,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(offers))
        .routes(routes!(call))
}

/// The services this API key may call, with the user's price and the required fields.
#[utoipa::path(get, path = "/verify", tag = "gateway", security(("api_key" = [])),
    responses((status = 200, body = Vec<Offer>), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn offers(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap) -> ApiResult<Json<Vec<Offer>>> {
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
    Ok(verification::run(&state, &caller, &service, &body, ip, &headers).await?.into_response())
}
