//! Public, unauthenticated: the plan cards and a partner site's branding (by `?subdomain=` or
//! by the Host header `{sub}.{PLATFORM_DOMAIN}`).

use axum::{Router, extract::State, http::HeaderMap, routing::get};
use domain::{
    branding::{self, SiteBranding, Theme},
    plan_cards::{self, PlanCard},
};
use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    extract::{Json, Query},
};

pub fn router() -> Router<AppState> {
    Router::new().route("/public/plans", get(plans)).route("/public/branding", get(public_branding))
}

/// The three plan cards (Standard, Premium, Pro): prices per month in paise, billed monthly or
/// yearly, and their features.
#[utoipa::path(get, path = "/api/v1/public/plans", tag = "public", responses((status = 200, body = [PlanCard])))]
pub async fn plans() -> Json<Vec<PlanCard>> {
    Json(plan_cards::cards())
}

/// A signed, long-lived download link of a stored file; `None` when there is no key or the
/// store cannot sign (a profile still loads without its pictures).
pub async fn signed_link(state: &AppState, key: Option<&str>) -> Option<String> {
    let key = key?;
    match state.storage.public_url_for(key).await {
        Ok(url) => Some(url),
        Err(e) => {
            tracing::warn!(error = %e, "could not sign a branding file link");
            None
        }
    }
}

/// The sub-domain a request is for: `?subdomain=` first, else the Host header.
pub fn requested_subdomain(state: &AppState, explicit: Option<&str>, headers: &HeaderMap) -> Option<String> {
    if let Some(s) = explicit.map(str::trim).filter(|s| !s.is_empty()) {
        return Some(s.to_lowercase());
    }
    let host = headers.get(http::header::HOST)?.to_str().ok()?;
    branding::subdomain_of_host(host, &state.config.platform_domain)
}

/// The branding of an active partner site.
pub async fn site_branding(state: &AppState, subdomain: &str) -> ApiResult<Option<SiteBranding>> {
    Ok(branding::by_subdomain(&mut *state.pool.acquire().await?, subdomain).await?)
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct BrandingQuery {
    pub subdomain: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PublicBranding {
    pub subdomain: String,
    pub title: String,
    pub description: String,
    pub logo_url: Option<String>,
    pub favicon_url: Option<String>,
    pub theme: Theme,
}

/// A partner site's title, description, logo and favicon links and colours. 404 for an unknown,
/// inactive or not yet provisioned site.
#[utoipa::path(get, path = "/api/v1/public/branding", tag = "public", params(BrandingQuery),
    responses((status = 200, body = PublicBranding), (status = 404, body = crate::error::ErrorBody)))]
pub async fn public_branding(State(state): State<AppState>, headers: HeaderMap, Query(q): Query<BrandingQuery>) -> ApiResult<Json<PublicBranding>> {
    let sub = requested_subdomain(&state, q.subdomain.as_deref(), &headers).ok_or_else(ApiError::not_found)?;
    let b = site_branding(&state, &sub).await?.ok_or_else(ApiError::not_found)?;
    Ok(Json(PublicBranding {
        title: b.title(),
        description: b.description(),
        theme: b.theme(),
        logo_url: signed_link(&state, b.logo_key.as_deref()).await,
        favicon_url: signed_link(&state, b.favicon_key.as_deref()).await,
        subdomain: b.subdomain,
    }))
}
