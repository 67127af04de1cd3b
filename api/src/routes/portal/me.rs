//! The signed-in end user: its profile with both wallets, and the APIs it may call.

use axum::extract::State;
use domain::{
    gateway::{self, Offer},
    portal::{self, Profile},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::UserAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(apis))
}

/// The signed-in user, its partner's title and documentation link, both wallet balances with
/// their thresholds, and whether the API wallet is below its threshold.
#[utoipa::path(get, path = "/me", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = Profile), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn me(auth: UserAuth, State(state): State<AppState>) -> ApiResult<Json<Profile>> {
    Ok(Json(
        portal::profile(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
        )
        .await?,
    ))
}

/// The APIs this user may call, by the gateway's own rule (`GET /verify`'s function): with a
/// live key when it has full access, else with a sandbox key. `sandbox` marks those the Try-it
/// console (a sandbox call) may call.
#[utoipa::path(get, path = "/me/apis", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = Vec<Offer>), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn apis(auth: UserAuth, State(state): State<AppState>) -> ApiResult<Json<Vec<Offer>>> {
    let mut conn = state.pool.acquire().await?;
    let full_access =
        gateway::session_caller(&mut conn, auth.partner_id, auth.user_id, auth.ip, false)
            .await?
            .full_access;
    let caller = gateway::session_caller(
        &mut conn,
        auth.partner_id,
        auth.user_id,
        auth.ip,
        !full_access,
    )
    .await?;
    Ok(Json(gateway::offers(&mut conn, &caller).await?))
}
