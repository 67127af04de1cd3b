//! My Account's Signup Customization (`domain::partners::signup_customization`): the switches of the
//! end users' sign-in and sign-up pages and the terms, saved together on 'Apply changes'.

use axum::extract::State;
use domain::partners::signup_customization::{self, SignupCustomization};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, auth::PartnerAuth, error::ApiResult, extract::Json};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get, put))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SignupCustomizationRequest {
    #[serde(default)]
    pub forgot_password: Option<bool>,
    #[serde(default)]
    pub terms: Option<bool>,
    #[serde(default)]
    pub create_account: Option<bool>,
    #[serde(default)]
    pub login_with_google: Option<bool>,
    /// HTML from the rich-text editor; stored sanitised (allowed tags only, no scripts, no
    /// event handlers, no `javascript:` links).
    #[serde(default)]
    pub terms_html: String,
    #[serde(default)]
    pub copyright: String,
}

/// The partner's Signup Customization; the defaults (all on but login with Google, no terms)
/// until it saves them.
#[utoipa::path(get, path = "/partner/signup-customization", tag = "account",
    responses((status = 200, body = SignupCustomization), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get(
    auth: PartnerAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<SignupCustomization>> {
    Ok(Json(
        signup_customization::get(&mut *state.pool.acquire().await?, auth.partner_id).await?,
    ))
}

/// Saves every switch, the terms (sanitised HTML) and the copyright at once; answers what was
/// stored. 422 when a switch is missing or a text is too long.
#[utoipa::path(put, path = "/partner/signup-customization", tag = "account", request_body = SignupCustomizationRequest,
    responses((status = 200, body = SignupCustomization), (status = 422, body = crate::error::ErrorBody)))]
pub async fn put(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<SignupCustomizationRequest>,
) -> ApiResult<Json<SignupCustomization>> {
    let s = SignupCustomization::parse(
        req.forgot_password,
        req.terms,
        req.create_account,
        req.login_with_google,
        &req.terms_html,
        &req.copyright,
    )?;
    let mut tx = state.pool.begin().await?;
    let saved = signup_customization::save(&mut tx, auth.partner_id, &s, auth.actor()).await?;
    tx.commit().await?;
    Ok(Json(saved))
}
