//! Public: the landing page's Privacy policy, Terms and conditions and Cancellation policy, in
//! the partner's words on its site where it wrote them, else the platform's.

use axum::{extract::State, http::HeaderMap};
use domain::partners::policies::{self, Policy, PolicyText};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    extract::{Json, Path, Query},
    sites::{requested_subdomain, site_branding},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(policy))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct PolicyQuery {
    /// The partner site asked for; else the Host header's.
    pub subdomain: Option<String>,
}

/// One policy: `privacy`, `terms` or `cancellation`. On an active partner site the partner's
/// terms (its sign-up terms text) when it wrote them; the platform's text otherwise.
#[utoipa::path(get, path = "/public/policies/{kind}", tag = "public", params(("kind" = String, Path, description = "privacy, terms or cancellation"), PolicyQuery),
    responses((status = 200, body = PolicyText), (status = 404, body = crate::error::ErrorBody)))]
pub async fn policy(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(kind): Path<String>,
    Query(q): Query<PolicyQuery>,
) -> ApiResult<Json<PolicyText>> {
    let policy = Policy::parse(&kind).ok_or_else(ApiError::not_found)?;
    let partner_id = match requested_subdomain(&state, q.subdomain.as_deref(), &headers) {
        Some(sub) => site_branding(&state, &sub).await?.map(|b| b.partner_id),
        None => None,
    };
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        policies::text(&mut conn, partner_id, policy, &state.config.contact_email).await?,
    ))
}
