//! IP Hits: calls per user and IP, with their Active or Blocked status.

use axum::extract::State;
use domain::{
    ip_access::Filter,
    ip_hits::{self, IpHit},
    paging::{Page, PageRequest},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::PartnerAuth,
    error::ApiResult,
    extract::{Json, Path, Query},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(user_list))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HitsQuery {
    pub page: Option<i64>,
    pub per_page: Option<i64>,
    /// Digits only.
    pub user_id: Option<String>,
    pub ip: Option<String>,
    /// `YYYY-MM-DD`: that day's hits only.
    pub date: Option<String>,
}

impl HitsQuery {
    fn split(&self) -> ApiResult<(Filter, PageRequest)> {
        let f = Filter::parse(self.user_id.as_deref(), self.ip.as_deref(), self.date.as_deref())?;
        Ok((f, PageRequest::new(self.page, self.per_page, domain::paging::DEFAULT_PER_PAGE)))
    }
}

/// The partner's hits per user and IP, most recently seen first; `status` is `blocked` when
/// the pair is blocked (with `blocked_id` for Unblock).
#[utoipa::path(get, path = "/partner/ip-hits", tag = "ip_hits", params(HitsQuery),
    responses((status = 200, body = Page<IpHit>), (status = 422, body = crate::error::ErrorBody)))]
pub async fn list(auth: PartnerAuth, State(state): State<AppState>, Query(q): Query<HitsQuery>) -> ApiResult<Json<Page<IpHit>>> {
    let (f, page) = q.split()?;
    let mut conn = state.pool.acquire().await?;
    Ok(Json(ip_hits::list(&mut conn, auth.partner_id, &f, page).await?))
}

/// One user's hits (User Detail); another partner's user: 404.
#[utoipa::path(get, path = "/partner/users/{id}/ip-hits", tag = "ip_hits", params(("id" = i64, Path), HitsQuery),
    responses((status = 200, body = Page<IpHit>), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_list(auth: PartnerAuth, State(state): State<AppState>, Path(user_id): Path<i64>, Query(q): Query<HitsQuery>) -> ApiResult<Json<Page<IpHit>>> {
    let (mut f, page) = q.split()?;
    f.user_id = Some(user_id);
    let mut conn = state.pool.acquire().await?;
    domain::tenancy::user_of_partner(&mut conn, auth.partner_id, user_id).await?;
    Ok(Json(ip_hits::list(&mut conn, auth.partner_id, &f, page).await?))
}
