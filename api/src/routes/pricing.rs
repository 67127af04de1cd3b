//! Per-user prices set by the partner (User Detail, API Price).

use axum::extract::State;
use domain::{
    audit::Actor,
    pricing::{self, Price, UserPriceChange},
    tenancy,
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(user_prices, set_user_prices))
        .routes(routes!(client_user_prices, set_client_user_prices))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserPriceList {
    /// Every API the user can see: `user_price_paise` (the user's own, or null),
    /// `amount_paise` (what the partner pays) and `user_amount_paise` (what the user pays).
    pub items: Vec<Price>,
}

/// The API Price tab: every visible API with the user's price, the partner's price and the
/// price that applies. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/prices", tag = "pricing", params(("id" = i64, Path)),
    responses((status = 200, body = UserPriceList), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_prices(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>) -> ApiResult<Json<UserPriceList>> {
    list(&state, auth.partner_id, user_id).await
}

async fn list(state: &AppState, partner_id: i64, user_id: i64) -> ApiResult<Json<UserPriceList>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let items = pricing::prices(&mut conn, partner_id, Some(user_id), None).await?.into_iter().filter(|p| p.visible).collect();
    Ok(Json(UserPriceList { items }))
}

async fn save(state: &AppState, partner_id: i64, user_id: i64, changes: &[UserPriceChange], actor: Actor) -> ApiResult<Json<UserPricesSaved>> {
    let mut tx = state.pool.begin().await?;
    let changed = pricing::set_user_prices(&mut tx, partner_id, user_id, changes, actor).await?;
    tx.commit().await?;
    Ok(Json(UserPricesSaved { changed }))
}

/// Only the rows the partner changed. `price_paise: null` removes the user's own price.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct UserPricesRequest {
    pub prices: Vec<UserPriceChange>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserPricesSaved {
    pub changed: usize,
}

/// Saves changed per-user prices, all or none: a negative price or an unknown service refuses
/// the whole list (422). Another partner's user: 404.
#[utoipa::path(put, path = "/partner/users/{id}/prices", tag = "pricing", params(("id" = i64, Path)), request_body = UserPricesRequest,
    responses((status = 200, body = UserPricesSaved), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_user_prices(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Json(req): Json<UserPricesRequest>) -> ApiResult<Json<UserPricesSaved>> {
    save(&state, auth.partner_id, user_id, &req.prices, Actor::partner(auth.partner_id)).await
}

/// The API Price tab of a client's user (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/prices", tag = "pricing",
    params(("id" = i64, Path), ("user_id" = i64, Path)),
    responses((status = 200, body = UserPriceList), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_prices(_auth: SuperAdminAuth, State(state): State<AppState>, Path((partner_id, user_id)): Path<(i64, i64)>) -> ApiResult<Json<UserPriceList>> {
    list(&state, partner_id, user_id).await
}

/// The super admin acting for a client on one of its users' prices.
#[utoipa::path(put, path = "/superadmin/clients/{id}/users/{user_id}/prices", tag = "pricing",
    params(("id" = i64, Path), ("user_id" = i64, Path)), request_body = UserPricesRequest,
    responses((status = 200, body = UserPricesSaved), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_client_user_prices(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Json(req): Json<UserPricesRequest>,
) -> ApiResult<Json<UserPricesSaved>> {
    save(&state, partner_id, user_id, &req.prices, Actor::superadmin(auth.admin_id)).await
}
