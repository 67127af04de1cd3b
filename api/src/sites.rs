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

/// The sub-domain a request is for: a partner's Host always wins; `?subdomain=` counts only
/// on a Host that names no partner site (the platform's own address, `localhost`, an address:
/// local runs and the tests), so a request on partner B's site can never act on partner A's.
pub fn requested_subdomain(
    state: &AppState,
    explicit: Option<&str>,
    headers: &HeaderMap,
) -> Option<String> {
    let by_host = headers
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| branding::subdomain_of_host(h, &state.config.platform_domain));
    if by_host.is_some() {
        return by_host;
    }
    explicit
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_lowercase)
}

/// True when the request's Host is the platform's own address: `PUBLIC_URL`'s host,
/// `PLATFORM_DOMAIN`, `localhost`, or an address literal (a scraper inside the network). A
/// partner's sub-domain, or any other name pointed at the api, is not.
pub fn is_platform_host(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(host) = headers
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| h.trim().to_ascii_lowercase())
    else {
        // HTTP/1.1 requires Host; an HTTP/1.0 client on the network reaches the api directly.
        return true;
    };
    let name = if let Some(rest) = host.strip_prefix('[') {
        return rest
            .split_once(']')
            .is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
    } else {
        host.rsplit_once(':').map_or(host.as_str(), |(h, _)| h)
    };
    let name = name.trim_end_matches('.');
    let public_host = state
        .config
        .public_url
        .split_once("://")
        .map_or("", |(_, rest)| rest)
        .split(['/', ':'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    name == public_host
        || name == state.config.platform_domain.trim_end_matches('.')
        || name == "localhost"
        || name.parse::<std::net::IpAddr>().is_ok()
}

/// The branding of an active partner site.
pub async fn site_branding(state: &AppState, subdomain: &str) -> ApiResult<Option<SiteBranding>> {
    Ok(branding::by_subdomain(&mut *state.pool.acquire().await?, subdomain).await?)
}
