//! Which partner site a request is for, and its branding: the public branding route and the
//! web app's index.html both ask.

use axum::http::HeaderMap;
use domain::partners::branding::{self, SiteBranding};

use serde::Deserialize;

use crate::{AppState, error::ApiResult};

/// `?subdomain=` on the portal's paths: the partner's sub-domain when the Host header does not
/// name it (tests, local runs).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct SiteQuery {
    pub subdomain: Option<String>,
}

/// The sub-domain a request is for: `?subdomain=` first, else the Host header.
pub fn requested_subdomain(
    state: &AppState,
    explicit: Option<&str>,
    headers: &HeaderMap,
) -> Option<String> {
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
