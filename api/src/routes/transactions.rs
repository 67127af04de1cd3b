//! An end user's transaction lists (User Detail, API Transactions and Product Transactions).

use axum::extract::State;
use domain::{
    paging::{Page, PageParams},
    tenancy,
    transactions::{self, Filter, Kind, Transaction},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
    filters::TransactionsQuery,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(api_transactions))
        .routes(routes!(product_transactions))
        .routes(routes!(client_user_api_transactions))
        .routes(routes!(client_user_product_transactions))
}

async fn list(state: &AppState, kind: Kind, partner_id: i64, user_id: i64, q: TransactionsQuery, paging: PageParams) -> ApiResult<Json<Page<Transaction>>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(domain::paging::DEFAULT_PER_PAGE);
    Ok(Json(transactions::for_user(&mut conn, kind, partner_id, user_id, &Filter { from: q.from, to: q.to }, page).await?))
}

/// One user's API calls, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/api-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn api_transactions(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Api, auth.partner_id, user_id, q, paging).await
}

/// One user's product purchases, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/product-transactions", tag = "transactions", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn product_transactions(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Product, auth.partner_id, user_id, q, paging).await
}

/// A client's user's API calls (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/api-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_api_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Api, partner_id, user_id, q, paging).await
}

/// A client's user's product purchases (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/product-transactions", tag = "transactions",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<Transaction>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_product_transactions(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<Transaction>>> {
    list(&state, Kind::Product, partner_id, user_id, q, paging).await
}
