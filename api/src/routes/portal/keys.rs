//! The end user's own gateway keys: create (the key is answered once) with a name, an expiry
//! and IP and API lists, list with their usage, change the name and lists, revoke, and roll (a
//! new key, the old one kept working for a grace period).

use axum::{extract::State, http::StatusCode};
use domain::gateway::api_keys::{self, CreatedKey, KeyInfo, KeyUpdate, NewKeyRequest};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::UserAuth,
    error::ApiResult,
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, revoke))
        .routes(routes!(roll))
}

/// Creates a key for oneself, optionally named, expiring, and limited to some addresses and
/// APIs. The clear key is in this answer only. 409 past 20 active keys; 422 naming each bad
/// field.
#[utoipa::path(post, path = "/me/api-keys", tag = "portal", request_body = NewKeyRequest, security(("bearer" = [])),
    responses((status = 201, body = CreatedKey), (status = 401, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: UserAuth,
    State(state): State<AppState>,
    Json(req): Json<NewKeyRequest>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::create(&mut tx, auth.partner_id, auth.user_id, &req, auth.actor()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(key)))
}

/// Changes one of one's keys' name, IP list or API list (an empty list lifts the limit). Every
/// api process enforces the change within a second. Anyone else's key: 404; 422 naming each bad
/// field.
#[utoipa::path(patch, path = "/me/api-keys/{key_id}", tag = "portal", params(("key_id" = i64, Path)), request_body = KeyUpdate,
    security(("bearer" = [])),
    responses((status = 200, body = KeyInfo), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn update(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(key_id): Path<i64>,
    Json(req): Json<KeyUpdate>,
) -> ApiResult<Json<KeyInfo>> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::update(
        &mut tx,
        auth.partner_id,
        auth.user_id,
        key_id,
        &req,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(key))
}

/// One's keys, newest first, by name and prefix with mode, status (active, revoked, expired),
/// created, last used, expiry, IP and API lists, and calls and spend over the last 30 days.
#[utoipa::path(get, path = "/me/api-keys", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = Vec<KeyInfo>), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list(auth: UserAuth, State(state): State<AppState>) -> ApiResult<Json<Vec<KeyInfo>>> {
    Ok(Json(
        api_keys::list(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
        )
        .await?,
    ))
}

/// Revokes one of one's keys at once. Again: 204; anyone else's key: 404.
#[utoipa::path(delete, path = "/me/api-keys/{key_id}", tag = "portal", params(("key_id" = i64, Path)), security(("bearer" = [])),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn revoke(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(key_id): Path<i64>,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    api_keys::revoke(&mut tx, auth.partner_id, auth.user_id, key_id, auth.actor()).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RollKey {
    /// Minutes the old key keeps working, 0 to 10080 (a week).
    pub grace_minutes: i64,
}

/// Rolls one of one's usable keys: a new key of the same mode (shown once), and the old one
/// refused by the gateway from `now + grace_minutes` on. A revoked, expired or unknown key: 404.
#[utoipa::path(post, path = "/me/api-keys/{key_id}/roll", tag = "portal", params(("key_id" = i64, Path)), request_body = RollKey,
    security(("bearer" = [])),
    responses((status = 201, body = CreatedKey), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn roll(
    auth: UserAuth,
    State(state): State<AppState>,
    Path(key_id): Path<i64>,
    Json(req): Json<RollKey>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::roll(
        &mut tx,
        auth.partner_id,
        auth.user_id,
        key_id,
        req.grace_minutes,
        auth.actor(),
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(key)))
}
