//! A partner's end users' gateway keys: create (the key is answered once) with a name, an
//! expiry and IP and API lists, list with their usage, change the name and lists, revoke.

use axum::{extract::State, http::StatusCode};
use domain::gateway::api_keys::{self, CreatedKey, KeyInfo, KeyUpdate, NewKeyRequest};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    error::ApiResult,
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, revoke))
}

/// Creates a key for the user, optionally named, expiring, and limited to some addresses and
/// APIs. The clear key is in this answer only; the server keeps its SHA-256. 409 past 20 active
/// keys; another partner's user: 404; 422 naming each bad field.
#[utoipa::path(post, path = "/partner/users/{id}/api-keys", tag = "api_keys", params(("id" = i64, Path)), request_body = NewKeyRequest,
    responses((status = 201, body = CreatedKey), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Json(req): Json<NewKeyRequest>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::create(&mut tx, auth.partner_id, user_id, &req, auth.actor()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(key)))
}

/// Changes a user's key's name, IP list or API list (an empty list lifts the limit); every api
/// process enforces it within a second. Another partner's user or key: 404.
#[utoipa::path(patch, path = "/partner/users/{id}/api-keys/{key_id}", tag = "api_keys", params(("id" = i64, Path), ("key_id" = i64, Path)),
    request_body = KeyUpdate,
    responses((status = 200, body = KeyInfo), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn update(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path((user_id, key_id)): Path<(i64, i64)>,
    Json(req): Json<KeyUpdate>,
) -> ApiResult<Json<KeyInfo>> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::update(
        &mut tx,
        auth.partner_id,
        user_id,
        key_id,
        &req,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(key))
}

/// The user's keys, newest first, by name and prefix with mode, status (active, revoked,
/// expired), created, last used, expiry, IP and API lists, and calls and spend over the last 30
/// days.
#[utoipa::path(get, path = "/partner/users/{id}/api-keys", tag = "api_keys", params(("id" = i64, Path)),
    responses((status = 200, body = Vec<KeyInfo>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn list(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<KeyInfo>>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        api_keys::list(&mut conn, auth.partner_id, user_id).await?,
    ))
}

/// Revokes a key: refused by the gateway from now on. Revoking it again answers 204 too.
#[utoipa::path(delete, path = "/partner/users/{id}/api-keys/{key_id}", tag = "api_keys", params(("id" = i64, Path), ("key_id" = i64, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn revoke(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path((user_id, key_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    api_keys::revoke(&mut tx, auth.partner_id, user_id, key_id, auth.actor()).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
