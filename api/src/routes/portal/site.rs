//! Public: what a partner's portal shows before sign-in (by `?subdomain=` or the Host header).

use axum::{extract::State, http::HeaderMap};
use domain::{
    partners::branding::Theme,
    portal::{
        self,
        site::{Contact, SiteApi},
    },
};
use serde::Serialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    error::{ApiError, ApiResult},
    extract::{Json, Query},
    links::signed_link,
    sites::{SiteQuery, requested_subdomain, site_branding},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(public_portal))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Signup {
    pub create_account: bool,
    pub forgot_password: bool,
    pub terms: bool,
    /// The partner's terms (HTML from its rich-text editor; sanitise before showing).
    pub terms_html: String,
    pub copyright: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PublicPortal {
    pub subdomain: String,
    pub title: String,
    pub description: String,
    pub logo_url: Option<String>,
    pub favicon_url: Option<String>,
    pub theme: Theme,
    /// The partner's Landing page switch: its own landing page at the root, else sign-in.
    pub landing_page: bool,
    pub documentation_link: Option<String>,
    pub contact: Contact,
    pub signup: Signup,
    /// Batch verification is on for the partner's users.
    pub batch_processing: bool,
    /// The partner's visible APIs at the price a user without a price of its own pays.
    pub apis: Vec<SiteApi>,
}

/// A partner's portal: branding, landing page switch, contact details, sign-up settings and
/// the APIs on offer with their prices. 404 for an unknown, inactive or not yet provisioned
/// site, and on the platform's own address.
#[utoipa::path(get, path = "/public/portal", tag = "portal", params(SiteQuery),
    responses((status = 200, body = PublicPortal), (status = 404, body = crate::error::ErrorBody)))]
pub async fn public_portal(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
) -> ApiResult<Json<PublicPortal>> {
    let sub = requested_subdomain(&state, q.subdomain.as_deref(), &headers)
        .ok_or_else(ApiError::not_found)?;
    let b = site_branding(&state, &sub)
        .await?
        .ok_or_else(ApiError::not_found)?;
    let site = portal::site(&mut *state.pool.acquire().await?, b.partner_id).await?;
    let s = site.signup;
    Ok(Json(PublicPortal {
        title: b.title(),
        description: b.description(),
        theme: b.theme(),
        logo_url: signed_link(&state, b.logo_key.as_deref()).await,
        favicon_url: signed_link(&state, b.favicon_key.as_deref()).await,
        subdomain: b.subdomain,
        landing_page: site.landing_page,
        documentation_link: site.documentation_link,
        contact: site.contact,
        signup: Signup {
            create_account: s.create_account,
            forgot_password: s.forgot_password,
            terms: s.terms,
            terms_html: s.terms_html,
            copyright: s.copyright,
        },
        batch_processing: site.batch_processing,
        apis: site.apis,
    }))
}
