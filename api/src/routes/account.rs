//! My Account's settings kept beside the partner row (Contact details). The Basic, Theme,
//! SMTP and Settings tabs use the settings, branding and SMTP routes.

use axum::extract::State;
use domain::partners::account::{self, ContactDetails};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::PartnerAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(contact_get, contact_put))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ContactRequest {
    #[serde(default)]
    pub phone_number: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub address: String,
}

/// The partner's contact details; 404 until saved (the screen shows an empty form).
#[utoipa::path(get, path = "/partner/contact-details", tag = "account",
    responses((status = 200, body = ContactDetails), (status = 404, body = crate::error::ErrorBody)))]
pub async fn contact_get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<ContactDetails>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        account::contact_details(&mut conn, auth.partner_id).await?,
    ))
}

/// Saves the contact details: phone number, e-mail and address, all required.
#[utoipa::path(put, path = "/partner/contact-details", tag = "account", request_body = ContactRequest,
    responses((status = 200, body = ContactDetails), (status = 422, body = crate::error::ErrorBody)))]
pub async fn contact_put(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<ContactRequest>,
) -> ApiResult<Json<ContactDetails>> {
    let c = ContactDetails::parse(&req.phone_number, &req.email, &req.address)?;
    let mut tx = state.pool.begin().await?;
    let saved = account::save_contact_details(&mut tx, auth.partner_id, &c, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(saved))
}
