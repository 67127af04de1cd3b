//! What a partner sells at: per-user prices (User Detail, API Price), and the partner's own
//! selling prices and default margin for all its users (My Plan).

use axum::extract::State;
use domain::{
    catalogue::pricing::{self, Price, UserPriceChange},
    infra::audit::Actor,
    partners::tenancy,
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
        .routes(routes!(selling_prices, set_selling_prices))
        .routes(routes!(set_margin))
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
pub async fn user_prices(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<UserPriceList>> {
    list(&state, auth.partner_id, user_id).await
}

async fn list(state: &AppState, partner_id: i64, user_id: i64) -> ApiResult<Json<UserPriceList>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let items = pricing::prices(&mut conn, partner_id, Some(user_id), None)
        .await?
        .into_iter()
        .filter(|p| p.visible)
        .collect();
    Ok(Json(UserPriceList { items }))
}

async fn save(
    state: &AppState,
    partner_id: i64,
    user_id: i64,
    changes: &[UserPriceChange],
    actor: Actor,
) -> ApiResult<Json<UserPricesSaved>> {
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
pub async fn set_user_prices(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Json(req): Json<UserPricesRequest>,
) -> ApiResult<Json<UserPricesSaved>> {
    save(&state, auth.partner_id, user_id, &req.prices, auth.actor()).await
}

/// The API Price tab of a client's user (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/prices", tag = "pricing",
    params(("id" = i64, Path), ("user_id" = i64, Path)),
    responses((status = 200, body = UserPriceList), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_prices(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
) -> ApiResult<Json<UserPriceList>> {
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
    save(&state, partner_id, user_id, &req.prices, auth.actor()).await
}

/// The partner's selling prices (My Plan): its default margin and, per visible API, its cost
/// (`amount_paise`), its own selling price (`selling_price_paise`, or null) and what a user
/// without a price of its own pays (`sells_at_paise`, with `user_amount_source`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SellingPrices {
    /// The default margin over the cost, in percent (two decimals at most).
    pub default_margin_percent: f64,
    pub default_margin_bps: i32,
    pub items: Vec<Price>,
}

async fn selling(state: &AppState, partner_id: i64) -> ApiResult<Json<SellingPrices>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::partner_exists(&mut conn, partner_id).await?;
    let items: Vec<Price> = pricing::prices(&mut conn, partner_id, None, None)
        .await?
        .into_iter()
        .filter(|p| p.visible)
        .collect();
    let bps = pricing::margin(&mut conn, partner_id).await?;
    Ok(Json(SellingPrices {
        default_margin_percent: f64::from(bps) / 100.0,
        default_margin_bps: bps,
        items,
    }))
}

/// My Plan's selling prices. Every visible API, in category order.
#[utoipa::path(get, path = "/partner/selling-prices", tag = "pricing",
    responses((status = 200, body = SellingPrices), (status = 401, body = crate::error::ErrorBody)))]
pub async fn selling_prices(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<SellingPrices>> {
    selling(&state, auth.partner_id).await
}

/// Sets the partner's selling prices for all its users (only the rows that changed); `null`
/// removes one, so cost plus margin applies again. All or none: 422 names each bad row.
#[utoipa::path(put, path = "/partner/selling-prices", tag = "pricing", request_body = UserPricesRequest,
    responses((status = 200, body = UserPricesSaved), (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_selling_prices(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<UserPricesRequest>,
) -> ApiResult<Json<UserPricesSaved>> {
    let mut tx = state.pool.begin().await?;
    let changed = pricing::set_selling_prices(
        &mut tx,
        auth.partner_id,
        &req.prices,
        Actor::partner(auth.partner_id),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(UserPricesSaved { changed }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct MarginRequest {
    /// Percent over the cost, `0..=1000`, at most two decimals (12.5).
    #[serde(default)]
    #[schema(value_type = f64)]
    pub default_margin_percent: serde_json::Value,
}

/// Sets the default margin every API without a selling price is sold at; answers the
/// selling prices as they now are.
#[utoipa::path(put, path = "/partner/selling-prices/margin", tag = "pricing", request_body = MarginRequest,
    responses((status = 200, body = SellingPrices), (status = 422, body = crate::error::ErrorBody)))]
pub async fn set_margin(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<MarginRequest>,
) -> ApiResult<Json<SellingPrices>> {
    let bps = pricing::parse_margin(&req.default_margin_percent)?;
    let mut tx = state.pool.begin().await?;
    pricing::set_margin(
        &mut tx,
        auth.partner_id,
        bps,
        Actor::partner(auth.partner_id),
    )
    .await?;
    tx.commit().await?;
    selling(&state, auth.partner_id).await
}
