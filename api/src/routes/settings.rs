//! The settings the gateway honours: the partner's My Account settings and the super admin's
//! per-client settings.

use axum::extract::State;
use domain::partners::settings::{
    self, ClientSettings, ClientSettingsPatch, PartnerSettings, PartnerSettingsPatch,
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{PartnerAuth, SuperAdminAuth},
    error::ApiResult,
    extract::{Json, Path},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(partner_get, partner_patch))
        .routes(routes!(client_get, client_patch))
        .routes(routes!(client_domain))
}

/// Server Security, Landing page and the documentation link.
#[utoipa::path(get, path = "/partner/settings", tag = "settings", responses((status = 200, body = PartnerSettings)))]
pub async fn partner_get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<PartnerSettings>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(settings::partner(&mut conn, auth.partner_id).await?))
}

/// Sets the fields given. The documentation link must be an https URL ('Invalid URL'); an
/// empty one clears it.
#[utoipa::path(patch, path = "/partner/settings", tag = "settings", request_body = PartnerSettingsPatch,
    responses((status = 200, body = PartnerSettings), (status = 422, body = crate::error::ErrorBody)))]
pub async fn partner_patch(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<PartnerSettingsPatch>,
) -> ApiResult<Json<PartnerSettings>> {
    let mut tx = state.pool.begin().await?;
    let s = settings::update_partner(&mut tx, auth.partner_id, &req, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(s))
}

/// A client's settings on the client-details screen.
#[utoipa::path(get, path = "/superadmin/clients/{id}/settings", tag = "settings", params(("id" = i64, Path)),
    responses((status = 200, body = ClientSettings), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn client_get(
    _auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
) -> ApiResult<Json<ClientSettings>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(settings::client(&mut conn, partner_id).await?))
}

/// Sets the fields given. `base_url` must be an http(s) URL and is required to turn
/// `base_url_active` on; `is_active: false` refuses the client's sign-in and sessions at once.
#[utoipa::path(patch, path = "/superadmin/clients/{id}/settings", tag = "settings", params(("id" = i64, Path)), request_body = ClientSettingsPatch,
    responses((status = 200, body = ClientSettings), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_patch(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Json(req): Json<ClientSettingsPatch>,
) -> ApiResult<Json<ClientSettings>> {
    settings::check_base_url(&req, &state.config).await?;
    let mut tx = state.pool.begin().await?;
    let s = settings::update_client(&mut tx, partner_id, &req, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(s))
}

#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
pub struct DomainRequest {
    #[serde(default)]
    pub subdomain: String,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct DomainChanged {
    pub job_id: String,
    pub subdomain: String,
    /// The site's address once the job has activated it.
    pub url: String,
}

/// Update Domain: the client's site moves to a new sub-domain. The old one stops serving the
/// site at once; the new one is claimed in the transaction that enqueues `provision_subdomain`,
/// which activates it (poll `/api/v1/jobs/{job_id}`). 409 when another client holds it.
#[utoipa::path(put, path = "/superadmin/clients/{id}/subdomain", tag = "settings", params(("id" = i64, Path)), request_body = DomainRequest,
    responses((status = 202, body = DomainChanged), (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn client_domain(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
    Path(partner_id): Path<i64>,
    Json(req): Json<DomainRequest>,
) -> ApiResult<(axum::http::StatusCode, Json<DomainChanged>)> {
    let name = domain::partners::subdomains::parse(&req.subdomain)?;
    let mut tx = state.pool.begin().await?;
    domain::partners::subdomains::claim_as(&mut tx, partner_id, &name, auth.actor()).await?;
    let job_id = jobs::enqueue(
        &mut tx,
        &jobs::ProvisionSubdomain {
            partner_id,
            subdomain: name.clone(),
        },
    )
    .await?;
    tx.commit().await?;
    let url = state.config.partner_site_url(&name);
    Ok((
        axum::http::StatusCode::ACCEPTED,
        Json(DomainChanged {
            job_id,
            subdomain: name,
            url,
        }),
    ))
}
