//! My Account's settings kept beside the partner row (Contact details) and on it (Profile).
//! The Basic, Theme, SMTP and Settings tabs use the settings, branding and SMTP routes.

use axum::extract::State;
use domain::partners::{
    Identity,
    account::{self, ContactDetails, Profile},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::PartnerAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(contact_get, contact_put))
        .routes(routes!(profile_get, profile_put))
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

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ProfileRequest {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone_number: String,
}

/// The partner's own profile: name, e-mail (its sign-in), phone and user name.
#[utoipa::path(get, path = "/partner/profile", tag = "account",
    responses((status = 200, body = Profile), (status = 401, body = crate::error::ErrorBody)))]
pub async fn profile_get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Profile>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(account::profile(&mut conn, auth.partner_id).await?))
}

/// Saves the profile, all four fields required, under sign-up's rules (422 naming the field).
/// An e-mail another partner signs in with: 409 on `email`. Audited.
#[utoipa::path(put, path = "/partner/profile", tag = "account", request_body = ProfileRequest,
    responses((status = 200, body = Profile), (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn profile_put(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<ProfileRequest>,
) -> ApiResult<Json<Profile>> {
    let p = Identity::parse(
        &req.first_name,
        &req.last_name,
        &req.email,
        &req.phone_number,
    )?;
    let mut tx = state.pool.begin().await?;
    let saved = account::save_profile(&mut tx, auth.partner_id, &p, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(saved))
}
