//! Whitelist IP and blocked IPs of a partner's users.

use axum::{extract::State, http::StatusCode};
use domain::{
    gateway::ip_access::{self, Filter, IpEntry, IpEntryInput, List},
    infra::audit::Actor,
    infra::paging::{Page, PageParams, PageRequest},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    error::ApiResult,
    extract::{Json, Path, Query},
    filters::IpFilterQuery,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(whitelist, allow))
        .routes(routes!(disallow))
        .routes(routes!(user_whitelist))
        .routes(routes!(blocked, block))
        .routes(routes!(unblock))
}

/// `{user_id, ip, comments}`, all required; `user_id` a number or a string of digits.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct IpEntryRequest {
    #[schema(value_type = Option<String>)]
    pub user_id: Option<serde_json::Value>,
    #[serde(default)]
    pub ip: String,
    #[serde(default)]
    pub comments: String,
}

async fn add(
    state: &AppState,
    partner_id: i64,
    actor: Actor,
    list: List,
    req: &IpEntryRequest,
) -> ApiResult<(StatusCode, Json<IpEntry>)> {
    let input = IpEntryInput::parse(list, req.user_id.as_ref(), &req.ip, &req.comments)?;
    let mut tx = state.pool.begin().await?;
    let e = ip_access::add(&mut tx, partner_id, list, &input, actor).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(e)))
}

async fn remove(
    state: &AppState,
    partner_id: i64,
    actor: Actor,
    list: List,
    id: i64,
) -> ApiResult<StatusCode> {
    let mut tx = state.pool.begin().await?;
    ip_access::remove(&mut tx, partner_id, list, id, actor).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn page(
    state: &AppState,
    partner_id: i64,
    list: List,
    f: &Filter,
    page: PageRequest,
) -> ApiResult<Json<Page<IpEntry>>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        ip_access::list(&mut conn, partner_id, list, f, page).await?,
    ))
}

/// The allow-list, newest first, filtered by user id, IP and date of the last update.
#[utoipa::path(get, path = "/partner/ip-whitelist", tag = "ip_access", params(IpFilterQuery, PageParams),
    responses((status = 200, body = Page<IpEntry>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn whitelist(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<IpFilterQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<IpEntry>>> {
    let f = q.parse()?;
    let p = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    page(&state, auth.partner_id, List::Whitelist, &f, p).await
}

/// Allow-lists a dotted IPv4 address for one of the partner's users (enforced while Server
/// Security is on). 404 for a user that is not the partner's, 409 when already listed.
#[utoipa::path(post, path = "/partner/ip-whitelist", tag = "ip_access", request_body = IpEntryRequest,
    responses((status = 201, body = IpEntry), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn allow(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<IpEntryRequest>,
) -> ApiResult<(StatusCode, Json<IpEntry>)> {
    add(&state, auth.partner_id, auth.actor(), List::Whitelist, &req).await
}

/// Removes an allow-list entry.
#[utoipa::path(delete, path = "/partner/ip-whitelist/{id}", tag = "ip_access", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn disallow(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    remove(&state, auth.partner_id, auth.actor(), List::Whitelist, id).await
}

/// One user's allow-list (User Detail).
#[utoipa::path(get, path = "/partner/users/{id}/ip-whitelist", tag = "ip_access", params(("id" = i64, Path), IpFilterQuery, PageParams),
    responses((status = 200, body = Page<IpEntry>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_whitelist(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<IpFilterQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<IpEntry>>> {
    let mut f = q.parse()?;
    let p = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    f.user_id = Some(user_id);
    let mut conn = state.pool.acquire().await?;
    domain::partners::tenancy::user_of_partner(&mut conn, auth.partner_id, user_id).await?;
    drop(conn);
    page(&state, auth.partner_id, List::Whitelist, &f, p).await
}

/// Blocked IPs (the Blocked IPs tab), newest first, with the same filters.
#[utoipa::path(get, path = "/partner/blocked-ips", tag = "ip_access", params(IpFilterQuery, PageParams),
    responses((status = 200, body = Page<IpEntry>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn blocked(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<IpFilterQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<IpEntry>>> {
    let f = q.parse()?;
    let p = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    page(&state, auth.partner_id, List::Blocked, &f, p).await
}

/// Blocks an IP (v4 or v6) for one of the partner's users: the gateway refuses its calls.
/// Comments are required.
#[utoipa::path(post, path = "/partner/blocked-ips", tag = "ip_access", request_body = IpEntryRequest,
    responses((status = 201, body = IpEntry), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn block(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<IpEntryRequest>,
) -> ApiResult<(StatusCode, Json<IpEntry>)> {
    add(&state, auth.partner_id, auth.actor(), List::Blocked, &req).await
}

/// Unblocks, by the blocked record's id.
#[utoipa::path(delete, path = "/partner/blocked-ips/{id}", tag = "ip_access", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn unblock(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    remove(&state, auth.partner_id, auth.actor(), List::Blocked, id).await
}
