//! API and category visibility: per user and partner-wide (My APIs) by the partner, per client
//! by the super admin. The rule that combines them is in `domain::gateway::visibility`.

use axum::extract::State;
use domain::gateway::visibility::{self, Scope, Visibility};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(partner_get, partner_patch))
        .routes(routes!(user_get, user_patch))
        .routes(routes!(client_get, client_patch))
}

async fn read(state: &AppState, scope: Scope) -> ApiResult<Json<Visibility>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(visibility::get(&mut conn, scope).await?))
}

async fn write(state: &AppState, scope: Scope, patch: &Visibility) -> ApiResult<Json<Visibility>> {
    let mut tx = state.pool.begin().await?;
    let v = visibility::patch(&mut tx, scope, patch).await?;
    tx.commit().await?;
    Ok(Json(v))
}

/// My APIs: what the partner set for all its users (absent means shown).
#[utoipa::path(get, path = "/partner/visibility", tag = "visibility", responses((status = 200, body = Visibility)))]
pub async fn partner_get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Visibility>> {
    read(
        &state,
        Scope::Partner {
            partner_id: auth.partner_id,
        },
    )
    .await
}

/// Sets the APIs and categories named for all the partner's users; 422 naming an unknown one.
#[utoipa::path(patch, path = "/partner/visibility", tag = "visibility", request_body = Visibility,
    responses((status = 200, body = Visibility), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_patch(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<Visibility>,
) -> ApiResult<Json<Visibility>> {
    write(
        &state,
        Scope::Partner {
            partner_id: auth.partner_id,
        },
        &req,
    )
    .await
}

/// One user's settings; another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/visibility", tag = "visibility", params(("id" = i64, Path)),
    responses((status = 200, body = Visibility), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_get(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Visibility>> {
    read(
        &state,
        Scope::User {
            partner_id: auth.partner_id,
            user_id,
        },
    )
    .await
}

/// Sets the named entries for one user.
#[utoipa::path(patch, path = "/partner/users/{id}/visibility", tag = "visibility", params(("id" = i64, Path)), request_body = Visibility,
    responses((status = 200, body = Visibility), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn user_patch(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Json(req): Json<Visibility>,
) -> ApiResult<Json<Visibility>> {
    write(
        &state,
        Scope::User {
            partner_id: auth.partner_id,
            user_id,
        },
        &req,
    )
    .await
}

/// API Status of a client: the super admin's setting, over whatever the partner sets.
#[utoipa::path(get, path = "/superadmin/clients/{id}/visibility", tag = "visibility", params(("id" = i64, Path)),
    responses((status = 200, body = Visibility), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_get(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
) -> ApiResult<Json<Visibility>> {
    read(&state, Scope::Admin { partner_id }).await
}

/// Shows or hides APIs and categories for a whole client.
#[utoipa::path(patch, path = "/superadmin/clients/{id}/visibility", tag = "visibility", params(("id" = i64, Path)), request_body = Visibility,
    responses((status = 200, body = Visibility), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_patch(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Json(req): Json<Visibility>,
) -> ApiResult<Json<Visibility>> {
    write(&state, Scope::Admin { partner_id }, &req).await
}
