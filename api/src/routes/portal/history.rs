//! The end user's own API transactions and API logs, paged, with a date range.

use axum::extract::State;
use domain::{
    gateway::logs::{self, ApiLog},
    infra::paging::{DEFAULT_PER_PAGE, Page, PageParams},
    wallets::transactions::{self, Filter, Kind, OwnTransaction},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::UserAuth,
    error::ApiResult,
    extract::{Json, Query},
    filters::{StatusQuery, TransactionsQuery},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(api_transactions))
        .routes(routes!(api_logs))
}

/// One's API calls, newest first, 50 per page, `from`/`to` IST days: the amount one paid and
/// one's balance after each (what the partner paid is the partner's business).
#[utoipa::path(get, path = "/me/api-transactions", tag = "portal", params(TransactionsQuery, PageParams), security(("bearer" = [])),
    responses((status = 200, body = Page<OwnTransaction>), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn api_transactions(
    auth: UserAuth,
    State(state): State<AppState>,
    Query(q): Query<TransactionsQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<OwnTransaction>>> {
    let mut conn = state.pool.acquire().await?;
    let f = Filter {
        from: q.from,
        to: q.to,
    };
    let page = transactions::for_user(
        &mut conn,
        Kind::Api,
        auth.partner_id,
        auth.user_id,
        &f,
        paging.with_default(DEFAULT_PER_PAGE),
    )
    .await?;
    Ok(Json(page.map(OwnTransaction::from)))
}

/// One's API calls with their status codes, newest first, 50 per page, `from`/`to` IST days.
#[utoipa::path(get, path = "/me/api-logs", tag = "portal", params(TransactionsQuery, StatusQuery, PageParams), security(("bearer" = [])),
    responses((status = 200, body = Page<ApiLog>), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn api_logs(
    auth: UserAuth,
    State(state): State<AppState>,
    Query(q): Query<TransactionsQuery>,
    Query(status): Query<StatusQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<ApiLog>>> {
    let status = status.parse()?;
    let mut conn = state.pool.acquire().await?;
    let f = Filter {
        from: q.from,
        to: q.to,
    };
    Ok(Json(
        logs::api_logs(
            &mut conn,
            auth.partner_id,
            auth.user_id,
            &f,
            status,
            paging.with_default(DEFAULT_PER_PAGE),
        )
        .await?,
    ))
}
