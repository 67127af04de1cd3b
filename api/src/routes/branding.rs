//! Public, unauthenticated: a partner site's branding (by `?subdomain=` or by the Host header
//! `{sub}.{PLATFORM_DOMAIN}`).

use axum::{extract::State, http::HeaderMap};
use domain::partners::branding::Theme;
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    extract::{Json, Query},
    links::signed_link,
    sites::{requested_subdomain, site_branding},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(public_branding))
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
    /// Batch Processing, set by the super admin: the portal shows its users batch
    /// verification only while this is on.
    pub batch_processing: bool,
}

/// A partner site's title, description, logo and favicon links and colours. 404 for an unknown,
/// inactive or not yet provisioned site; 204 on the platform's own address (no sub-domain asked
/// for by Host or query): there is no partner to brand, which is not an error (a 404 there made
/// every sign-in page log one in the browser's console).
#[utoipa::path(get, path = "/public/branding", tag = "public", params(BrandingQuery),
    responses((status = 200, body = PublicBranding), (status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn public_branding(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<BrandingQuery>,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let Some(sub) = requested_subdomain(&state, q.subdomain.as_deref(), &headers) else {
        return Ok(axum::http::StatusCode::NO_CONTENT.into_response());
    };
    let b = site_branding(&state, &sub)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(PublicBranding {
        title: b.title(),
        description: b.description(),
        theme: b.theme(),
        logo_url: signed_link(&state, b.logo_key.as_deref()).await,
        favicon_url: signed_link(&state, b.favicon_key.as_deref()).await,
        batch_processing: b.batch_processing,
        subdomain: b.subdomain,
    })
    .into_response())
}
