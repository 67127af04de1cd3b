//! The Try-it console: one sandbox call through the gateway's own pipeline and charging
//! (`crate::verification`), as the signed-in user.

use axum::{body::Bytes, extract::State, http::HeaderMap};
use domain::{
    gateway,
    wallets::{self, Owner},
};
use serde::Serialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::UserAuth,
    error::ApiResult,
    extract::{Json, Path},
    verification,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(try_call))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TryResult {
    /// The status the gateway answered the call with.
    pub status_code: u16,
    /// Its body: the catalogue's sample (JSON), or the error.
    #[schema(value_type = Object)]
    pub body: serde_json::Value,
    pub transaction_id: i64,
    pub charged_paise: i64,
    /// The user's API wallet after the call.
    pub balance_paise: i64,
    pub verification_id: String,
}

/// A sandbox call of `service` with the body's input fields, as a sandbox key of this user
/// would make it: every gateway check applies (inactive, blocked or not allow-listed address,
/// visibility, the sandbox list, required fields: the gateway's status and error, no charge),
/// then the per-user console rate limit and the charge (metered like a live call).
#[utoipa::path(post, path = "/me/try/{service}", tag = "portal", params(("service" = String, Path)), request_body = Object,
    security(("bearer" = [])),
    responses((status = 200, body = TryResult), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
              (status = 402, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn try_call(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(service): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<TryResult>> {
    let caller = {
        let mut conn = state.pool.acquire().await?;
        gateway::session_caller(&mut conn, auth.partner_id, auth.user_id, auth.ip, true).await?
    };
    let v = verification::run(&state, &caller, &service, &body, auth.ip, &headers).await?;
    let (status_code, body) = match v.answer {
        Ok(a) => (
            a.status.as_u16(),
            serde_json::from_slice(&a.body).unwrap_or_else(|_| {
                serde_json::Value::String(String::from_utf8_lossy(&a.body).into_owned())
            }),
        ),
        Err(e) => (
            e.status.as_u16(),
            serde_json::json!({"error": {"code": e.code, "message": e.message}}),
        ),
    };
    let balance_paise = wallets::balances(
        &mut *state.pool.acquire().await?,
        Owner::User {
            partner_id: auth.partner_id,
            user_id: auth.user_id,
        },
    )
    .await?
    .api
    .balance_paise;
    Ok(Json(TryResult {
        status_code,
        body,
        transaction_id: v.transaction_id,
        charged_paise: v.charged_paise,
        balance_paise,
        verification_id: v.verification_id,
    }))
}
