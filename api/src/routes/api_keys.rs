//! A partner's end users' gateway keys: create (the key is answered once), list, revoke.

use axum::{extract::State, http::StatusCode};
use domain::gateway::api_keys::{self, CreatedKey, KeyInfo, Mode};
use serde::Deserialize;
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
        .routes(routes!(revoke))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateKey {
    pub mode: Mode,
}

/// Creates a key for the user. The clear key is in this answer only; the server keeps its
/// SHA-256. 409 past 20 active keys; another partner's user: 404.
#[utoipa::path(post, path = "/partner/users/{id}/api-keys", tag = "api_keys", params(("id" = i64, Path)), request_body = CreateKey,
    responses((status = 201, body = CreatedKey), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn create(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Json(req): Json<CreateKey>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let mut tx = state.pool.begin().await?;
    let key = api_keys::create(&mut tx, auth.partner_id, user_id, req.mode, auth.actor()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(key)))
}

/// The user's keys, newest first, by prefix with mode, status (active, revoked, expired),
/// created and last used.
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
