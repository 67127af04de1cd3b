//! An end user's API and product logs (User Detail 'API Logs' and 'Product Logs').

use axum::extract::State;
use domain::{
    gateway::logs::{self, ApiLog, ProductLog},
    infra::paging::{DEFAULT_PER_PAGE, Page, PageParams},
    partners::tenancy,
    wallets::transactions::Filter,
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path, Query},
    filters::{PartnerListQuery, StatusQuery, TransactionsQuery},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(api_logs))
        .routes(routes!(product_logs))
        .routes(routes!(client_user_api_logs))
        .routes(routes!(client_user_product_logs))
        .routes(routes!(client_api_logs))
        .routes(routes!(partner_api_logs))
        .routes(routes!(partner_product_logs))
}

/// Every user's API calls of the signed-in partner with their status codes, newest first, 50
/// per page, with the filter panel (User ID, Email, PID, Services, Date).
#[utoipa::path(get, path = "/partner/api-logs", tag = "logs", params(PartnerListQuery, StatusQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_api_logs(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<PartnerListQuery>,
    Query(status): Query<StatusQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    let f = q.parse()?;
    let status = status.parse()?;
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        logs::partner_api_logs(
            &mut conn,
            auth.partner_id,
            &f,
            status,
            paging.with_default(DEFAULT_PER_PAGE),
        )
        .await?,
    ))
}

/// Every user's product events of the signed-in partner, newest first, 50 per page; Services
/// matches the description (product events have no PID).
#[utoipa::path(get, path = "/partner/product-logs", tag = "logs", params(PartnerListQuery, PageParams),
    responses((status = 200, body = Page<ProductLog>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_product_logs(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<PartnerListQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ProductLog>>> {
    let f = q.parse()?;
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        logs::partner_product_logs(
            &mut conn,
            auth.partner_id,
            &f,
            paging.with_default(DEFAULT_PER_PAGE),
        )
        .await?,
    ))
}

async fn api_list(
    state: &AppState,
    partner_id: i64,
    user_id: i64,
    q: TransactionsQuery,
    status: StatusQuery,
    paging: PageParams,
) -> ApiResult<Json<Page<ApiLog>>> {
    let status = status.parse()?;
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(DEFAULT_PER_PAGE);
    Ok(Json(
        logs::api_logs(
            &mut conn,
            partner_id,
            user_id,
            &Filter {
                from: q.from,
                to: q.to,
            },
            status,
            page,
        )
        .await?,
    ))
}

async fn product_list(
    state: &AppState,
    partner_id: i64,
    user_id: i64,
    q: TransactionsQuery,
    paging: PageParams,
) -> ApiResult<Json<Page<ProductLog>>> {
    let mut conn = state.pool.acquire().await?;
    tenancy::user_of_partner(&mut conn, partner_id, user_id).await?;
    let page = paging.with_default(DEFAULT_PER_PAGE);
    Ok(Json(
        logs::product_logs(
            &mut conn,
            partner_id,
            user_id,
            &Filter {
                from: q.from,
                to: q.to,
            },
            page,
        )
        .await?,
    ))
}

/// One user's API calls with their status codes, newest first, 50 per page. Another partner's
/// user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/api-logs", tag = "logs", params(("id" = i64, Path), TransactionsQuery, StatusQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn api_logs(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<TransactionsQuery>,
    Query(status): Query<StatusQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    api_list(&state, auth.partner_id, user_id, q, status, paging).await
}

/// One user's product events, newest first, 50 per page. Another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/product-logs", tag = "logs", params(("id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ProductLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn product_logs(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ProductLog>>> {
    product_list(&state, auth.partner_id, user_id, q, paging).await
}

/// A client's user's API calls (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/api-logs", tag = "logs",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, StatusQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_api_logs(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
    Query(status): Query<StatusQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    api_list(&state, partner_id, user_id, q, status, paging).await
}

/// A client's user's product events (super admin, client details, Users).
#[utoipa::path(get, path = "/superadmin/clients/{id}/users/{user_id}/product-logs", tag = "logs",
    params(("id" = i64, Path), ("user_id" = i64, Path), TransactionsQuery, PageParams),
    responses((status = 200, body = Page<ProductLog>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_user_product_logs(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path((partner_id, user_id)): Path<(i64, i64)>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ProductLog>>> {
    product_list(&state, partner_id, user_id, q, paging).await
}

#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientLogsQuery {
    /// First day, `YYYY-MM-DD`.
    pub from: Option<chrono::NaiveDate>,
    /// Last day (inclusive), `YYYY-MM-DD`.
    pub to: Option<chrono::NaiveDate>,
    /// Digits only.
    pub user_id: Option<String>,
    pub pid: Option<String>,
    pub vid: Option<String>,
    pub vpid: Option<String>,
    /// A service key.
    pub service: Option<String>,
}

/// An id filter: trimmed, blank is none, at most 100 characters (no stored id is longer).
fn id_filter(field: &str, v: Option<String>) -> ApiResult<Option<String>> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) if s.chars().count() > 100 => Err(crate::error::ApiError::field(field, "Too long")),
        Some(s) => Ok(Some(s.to_owned())),
    }
}

/// Api Logs of a client (client details): every user's calls, newest first, 50 per page;
/// narrowed by date, user id, PID, VID, VPID and service.
#[utoipa::path(get, path = "/superadmin/clients/{id}/api-logs", tag = "logs",
    params(("id" = i64, Path), ClientLogsQuery, PageParams),
    responses((status = 200, body = Page<ApiLog>), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_api_logs(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Query(q): Query<ClientLogsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    let user_id = match q
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(s) => Some(s.parse::<i64>().map_err(|_| {
            crate::error::ApiError::field("user_id", "User ID contains only numeric values.")
        })?),
    };
    let f = logs::ClientLogFilter {
        dates: Filter {
            from: q.from,
            to: q.to,
        },
        user_id,
        pid: id_filter("pid", q.pid)?,
        vid: id_filter("vid", q.vid)?,
        vpid: id_filter("vpid", q.vpid)?,
        service: id_filter("service", q.service)?,
    };
    let mut conn = state.pool.acquire().await?;
    domain::partners::clients::get(&mut conn, partner_id).await?;
    Ok(Json(
        logs::client_api_logs(
            &mut conn,
            partner_id,
            &f,
            paging.with_default(DEFAULT_PER_PAGE),
        )
        .await?,
    ))
}
