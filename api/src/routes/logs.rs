//! An end user's API and product logs (User Detail 'API Logs' and 'Product Logs').

use axum::extract::State;
use domain::{
    logs::{self, ApiLog, ProductLog},
    paging::{DEFAULT_PER_PAGE, Page, PageParams},
    tenancy,
    transactions::Filter,
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
        .routes(routes!(api_logs))
        .routes(routes!(product_logs))
        .routes(routes!(client_user_api_logs))
        .routes(routes!(client_user_product_logs))
}

async fn api_list(state: &AppState, partner_id: i64, user_id: i64, q: TransactionsQuery, paging: PageParams) -> ApiResult<Json<Page<ApiLog>>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(DEFAULT_PER_PAGE);
    Ok(Json(logs::api_logs(&mut conn, partner_id, user_id, &Filter { from: q.from, to: q.to }, page).await?))
}

async fn product_list(state: &AppState, partner_id: i64, user_id: i64, q: TransactionsQuery, paging: PageParams) -> ApiResult<Json<Page<ProductLog>>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(DEFAULT_PER_PAGE);
    Ok(Json(logs::product_logs(&mut conn, partner_id, user_id, &Filter { from: q.from, to: q.to }, page).await?))
}

/// One user's API calls with their status codes, newest first, 50 per page. Another partner's
/// user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/api-logs", tag = "logs", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn api_logs(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>) -> ApiResult<Json<Page<ApiLog>>> {
    api_list(&state, auth.partner_id, user_id, q, paging).await
}

/// One user's product events, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/product-logs", tag = "logs", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ProductLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn product_logs(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>) -> ApiResult<Json<Page<ProductLog>>> {
    product_list(&state, auth.partner_id, user_id, q, paging).await
}

/// A client's user's API calls (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/api-logs", tag = "logs",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_api_logs(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    api_list(&state, partner_id, user_id, q, paging).await
}

/// A client's user's product events (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/product-logs", tag = "logs",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ProductLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_product_logs(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>, Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ProductLog>>> {
    product_list(&state, partner_id, user_id, q, paging).await
}
