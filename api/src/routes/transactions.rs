//! An end user's transaction lists (User Detail, API Transactions and Product Transactions).

use axum::{Router, extract::State, routing::get};
use chrono::NaiveDate;
use domain::{
    paging::{Page, PageRequest},
    tenancy,
    transactions::{self, Filter, Kind, Transaction},
};
use serde::Deserialize;

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/partner/users/{id}/api-transactions", get(api_transactions))
        .route("/partner/users/{id}/product-transactions", get(product_transactions))
        .route("/superadmin/clients/{id}/users/{user_id}/api-transactions", get(client_user_api_transactions))
        .route("/superadmin/clients/{id}/users/{user_id}/product-transactions", get(client_user_product_transactions))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TransactionsQuery {
    pub page: Option<i64>,
    /// Default 50.
    pub per_page: Option<i64>,
    /// First day, `YYYY-MM-DD`.
    pub from: Option<NaiveDate>,
    /// Last day (inclusive), `YYYY-MM-DD`.
    pub to: Option<NaiveDate>,
}

async fn list(state: &AppState, kind: Kind, partner_id: i64, user_id: i64, q: TransactionsQuery) -> ApiResult<Json<Page<Transaction>>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = PageRequest::new(q.page, q.per_page, domain::paging::DEFAULT_PER_PAGE);
    Ok(Json(transactions::for_user(&mut conn, kind, partner_id, user_id, &Filter { from: q.from, to: q.to }, page).await?))
}

/// One user's API calls, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/api/v1/partner/users/{id}/api-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn api_transactions(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Api, auth.partner_id, user_id, q).await
}

/// One user's product purchases, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/api/v1/partner/users/{id}/product-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn product_transactions(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Product, auth.partner_id, user_id, q).await
}

/// A client's user's API calls (super admin, client details, Users).
#[utoipa::path(get, path = "/api/v1/superadmin/clients/{id}/users/{user_id}/api-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_api_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Api, partner_id, user_id, q).await
}

/// A client's user's product purchases (super admin, client details, Users).
#[utoipa::path(get, path = "/api/v1/superadmin/clients/{id}/users/{user_id}/product-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_product_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Product, partner_id, user_id, q).await
}
