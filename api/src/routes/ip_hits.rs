//! IP Hits: calls per user and IP, with their Active or Blocked status.

use axum::extract::State;
use domain::{
    gateway::ip_hits::{self, IpHit},
    infra::paging::{Page, PageParams},
};
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
        .routes(routes!(list))
        .routes(routes!(user_list))
}

/// The partner's hits per user and IP, most recently seen first; `status` is `blocked` when
/// the pair is blocked (with `blocked_id` for Unblock).
#[utoipa::path(get, path = "/partner/ip-hits", tag = "ip_hits", params(IpFilterQuery, PageParams),
    responses((status = 200, body = Page<IpHit>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn list(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Query(q): Query<IpFilterQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<IpHit>>> {
    let f = q.parse()?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        ip_hits::list(&mut conn, auth.partner_id, &f, page).await?,
    ))
}

/// One user's hits (User Detail); another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/ip-hits", tag = "ip_hits", params(("id" = i64, Path), IpFilterQuery, PageParams),
    responses((status = 200, body = Page<IpHit>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_list(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Path(user_id): Path<i64>,
    Query(q): Query<IpFilterQuery>,
    Query(paging): Query<PageParams>,
) -> ApiResult<Json<Page<IpHit>>> {
    let mut f = q.parse()?;
    let page = paging.with_default(domain::infra::paging::DEFAULT_PER_PAGE);
    f.user_id = Some(user_id);
    let mut conn = state.pool.acquire().await?;
    domain::partners::tenancy::user_of_partner(&mut conn, auth.partner_id, user_id).await?;
    Ok(Json(
        ip_hits::list(&mut conn, auth.partner_id, &f, page).await?,
    ))
}
