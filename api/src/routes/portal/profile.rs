//! One's profile (name, phone, address lines) and password.

use axum::extract::State;
use domain::{
    auth::{accounts::Kind, passwords},
    portal::{self, Profile, ProfileChange},
};
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::UserAuth,
    credentials::ChangePasswordRequest,
    error::ApiResult,
    extract::Json,
    reply::{Message, message},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_profile, update_profile))
        .routes(routes!(change_password))
}

/// One's profile, as `GET /me` answers it.
#[utoipa::path(get, path = "/me/profile", tag = "portal", security(("bearer" = [])),
    responses((status = 200, body = Profile), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn get_profile(
    auth: UserAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<Profile>> {
    Ok(Json(
        portal::profile(
            &mut *state.pool.acquire().await?,
            auth.partner_id,
            auth.user_id,
        )
        .await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileUpdate {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone_number: Option<String>,
    /// Blank clears the line.
    pub address_line1: Option<String>,
    pub address_line2: Option<String>,
}

/// Changes the fields given (the e-mail is the sign-in and stays); each is checked as Add User
/// checks it (422 naming the field). Answers the profile.
#[utoipa::path(patch, path = "/me/profile", tag = "portal", request_body = ProfileUpdate, security(("bearer" = [])),
    responses((status = 200, body = Profile), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn update_profile(
    auth: UserAuth,
    State(state): State<AppState>,
    Json(req): Json<ProfileUpdate>,
) -> ApiResult<Json<Profile>> {
    let change = ProfileChange::parse(
        req.first_name.as_deref(),
        req.last_name.as_deref(),
        req.phone_number.as_deref(),
        req.address_line1.as_deref(),
        req.address_line2.as_deref(),
    )?;
    let mut tx = state.pool.begin().await?;
    portal::account::update_profile(
        &mut tx,
        auth.partner_id,
        auth.user_id,
        &change,
        auth.actor(),
    )
    .await?;
    let profile = portal::profile(&mut tx, auth.partner_id, auth.user_id).await?;
    tx.commit().await?;
    Ok(Json(profile))
}

/// Changes one's password as a partner changes its own: a wrong current password is a 422 on
/// `current_password`; the new one follows the password rule; every other session of the user
/// ends, the caller's token keeps working.
#[utoipa::path(post, path = "/me/password", tag = "portal", request_body = ChangePasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = Message), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn change_password(
    auth: UserAuth,
    State(state): State<AppState>,
    Json(req): Json<ChangePasswordRequest>,
) -> ApiResult<Json<Message>> {
    passwords::change(
        &state.pool,
        Kind::User {
            partner_id: auth.partner_id,
        },
        auth.user_id,
        &req.current_password,
        &req.new_password,
        req.confirm_new_password.as_deref(),
        auth.claims.sid,
    )
    .await?;
    state.sessions.forget(None);
    Ok(message("Password changed successfully"))
}
