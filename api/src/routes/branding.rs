//! Public, unauthenticated: the plan cards and a partner site's branding (by `?subdomain=` or
//! by the Host header `{sub}.{PLATFORM_DOMAIN}`).

use axum::{extract::State, http::HeaderMap};
use domain::{
    branding::Theme,
    plan_cards::{self, PlanCard},
};
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
    OpenApiRouter::new()
        .routes(routes!(plans))
        .routes(routes!(public_branding))
}

/// The three plan cards (Standard, Premium, Pro): prices per month in paise, billed monthly or
/// yearly, and their features.
#[utoipa::path(get, path = "/public/plans", tag = "public", responses((status = 200, body = [PlanCard])))]
pub async fn plans() -> Json<Vec<PlanCard>> {
    Json(plan_cards::cards())
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
#[utoipa::path(get, path = "/public/branding", tag = "public", params(BrandingQuery),
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
