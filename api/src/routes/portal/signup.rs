//! End users' self sign-up, forgot password and reset on their partner's site, each only while
//! the partner's Signup Customization allows it. The same limits and captcha as the partners'.

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
};
use domain::{
    auth::accounts::Kind,
    auth::captcha,
    auth::passwords::{self, NewPassword},
    infra::crypto,
    mail::{Mail, SendMail},
    partners::users::{self, NewUser},
    portal,
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    client_ip::ClientIp,
    error::{ApiError, ApiResult},
    extract::{Json, Query},
    ratelimit::{ForgotPasswordLimit, SignUpLimit},
    reply::{Message, message},
    session::{UserSession, UserSummary, start_user_session},
    sites::{SiteQuery, requested_subdomain, site_branding},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(signup))
        .routes(routes!(forgot_password))
        .routes(routes!(reset_password_verify))
        .routes(routes!(reset_password))
}

pub const TERMS_REQUIRED: &str = "Please accept the terms and conditions";

/// The active site the request is for: (partner id, sub-domain); 404 when there is none.
async fn site(state: &AppState, q: &SiteQuery, headers: &HeaderMap) -> ApiResult<(i64, String)> {
    let sub = requested_subdomain(state, q.subdomain.as_deref(), headers)
        .ok_or_else(ApiError::not_found)?;
    let b = site_branding(state, &sub)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok((b.partner_id, b.subdomain))
}

async fn signup_settings(state: &AppState, partner_id: i64) -> ApiResult<portal::SignupSettings> {
    Ok(portal::signup_settings(&mut *state.pool.acquire().await?, partner_id).await?)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct UserSignupRequest {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone_number: String,
    #[serde(default)]
    pub password: String,
    /// Checked when given.
    #[serde(default)]
    pub confirm_password: Option<String>,
    /// Required (true) while the partner shows its terms.
    #[serde(default)]
    pub accept_terms: bool,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub captcha: serde_json::Value,
}

/// Self sign-up on `{subdomain}.{PLATFORM_DOMAIN}` (or `?subdomain=`), only while the partner's
/// Signup Customization has `create_account` on (else 403); its terms must be accepted while
/// `terms` is on (422 on `accept_terms`). The user starts with partial access (sandbox calls)
/// and empty wallets, as Add User's default, and is signed in (201 with a session).
#[utoipa::path(post, path = "/me/signup", tag = "portal", params(SiteQuery), request_body = UserSignupRequest,
    responses((status = 201, body = UserSession), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn signup(
    _: SignUpLimit,
    ClientIp(ip): ClientIp,
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
    Json(req): Json<UserSignupRequest>,
) -> ApiResult<(StatusCode, Json<UserSession>)> {
    let (partner_id, subdomain) = site(&state, &q, &headers).await?;
    let settings = signup_settings(&state, partner_id).await?;
    if !settings.create_account {
        return Err(ApiError::forbidden("Sign up is not available on this site"));
    }
    let new = NewUser::parse(
        &req.first_name,
        &req.last_name,
        &req.email,
        &req.phone_number,
        &req.password,
        false,
    )?;
    if req
        .confirm_password
        .as_deref()
        .is_some_and(|c| c != req.password)
    {
        return Err(ApiError::field("confirm_password", passwords::MISMATCH));
    }
    if settings.terms && !req.accept_terms {
        return Err(ApiError::field("accept_terms", TERMS_REQUIRED));
    }
    captcha::verify(&state.pool, &state.config, &req.captcha).await?;
    // Hashed before the transaction: waiting for the hashing pool must not hold locks.
    let hash = crypto::hash_password_pooled(&new.password)
        .await
        .map_err(ApiError::internal)?;
    let mut tx = state.pool.begin().await?;
    let actor = domain::infra::audit::Actor::user(0).from_ip(ip);
    let id = users::create_by(&mut tx, partner_id, &new, &hash, Some(actor)).await?;
    domain::webhooks::emit(
        &mut tx,
        domain::webhooks::Owner::partner(partner_id),
        domain::webhooks::USER_SIGNED_UP,
        serde_json::json!({
            "user_id": id,
            "email": new.email,
            "first_name": new.first_name,
            "last_name": new.last_name,
        }),
    )
    .await?;
    let session = start_user_session(
        &state,
        &mut tx,
        UserSummary {
            id,
            first_name: new.first_name.clone(),
            last_name: new.last_name.clone(),
        },
        subdomain,
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(session)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct UserForgotPassword {
    #[serde(default)]
    pub email: String,
}

/// Forgot password on the site, only while its Signup Customization has `forgot_password` on
/// (else 403): when the e-mail names an active user of this partner, mails a link to
/// `{site}/reset-password/{token}` (1 hour, one use). 202 either way.
#[utoipa::path(post, path = "/me/forgot-password", tag = "portal", params(SiteQuery), request_body = UserForgotPassword,
    responses((status = 202, body = Message), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn forgot_password(
    _: ForgotPasswordLimit,
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
    Json(req): Json<UserForgotPassword>,
) -> ApiResult<(StatusCode, Json<Message>)> {
    let email = req.email.trim();
    let mut v = domain::error::Violations::new();
    v.check(!email.is_empty(), "email", "Email is required");
    v.check(
        email.is_empty() || (email.len() <= 254 && domain::infra::email_address::is_valid(email)),
        "email",
        domain::infra::email_address::INVALID,
    );
    v.into_result()?;
    let (partner_id, _) = site(&state, &q, &headers).await?;
    if !signup_settings(&state, partner_id).await?.forgot_password {
        return Err(ApiError::forbidden(
            "Forgot password is not available on this site",
        ));
    }
    // The user is looked up by the job: the answer is the same, as fast, for any address.
    let mail = SendMail::of(Mail::UserPasswordReset {
        partner_id,
        email: email.to_owned(),
    })
    .via_partner(partner_id);
    jobs::enqueue_now(&state.pool, &mail).await?;
    Ok((
        StatusCode::ACCEPTED,
        message(
            "If the email matches an account, a link to reset the password will be sent to it.",
        ),
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ResetToken {
    #[serde(default)]
    pub token: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ResetTokenUser {
    pub first_name: String,
}

/// Checks a reset link before the new-password form shows.
#[utoipa::path(post, path = "/me/reset-password/verify", tag = "portal", params(SiteQuery), request_body = ResetToken,
    responses((status = 200, body = ResetTokenUser), (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn reset_password_verify(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
    Json(req): Json<ResetToken>,
) -> ApiResult<Json<ResetTokenUser>> {
    let (partner_id, _) = site(&state, &q, &headers).await?;
    // 400 'Session expired ! Please try again' for a link that is unknown, expired, used, or of
    // another partner's site.
    let c = passwords::reset_account(&state.pool, Kind::User { partner_id }, &req.token).await?;
    Ok(Json(ResetTokenUser {
        first_name: c.first_name,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct UserResetPassword {
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub new_password: String,
    #[serde(default)]
    pub confirm_new_password: String,
}

/// Sets a new password with a reset link of this site: the passwords are checked first (422),
/// then the link is used (400 when expired, used or another site's). Ends every session of the
/// user, as a partner's reset does.
#[utoipa::path(post, path = "/me/reset-password", tag = "portal", params(SiteQuery), request_body = UserResetPassword,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
pub async fn reset_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
    Json(req): Json<UserResetPassword>,
) -> ApiResult<Json<Message>> {
    let new_password = NewPassword::parse(&req.new_password, Some(&req.confirm_new_password))?;
    let (partner_id, _) = site(&state, &q, &headers).await?;
    // Another site's link is refused before it is used up.
    passwords::reset(
        &state.pool,
        Kind::User { partner_id },
        &req.token,
        &new_password,
    )
    .await?;
    state.sessions.forget(None);
    Ok(message(
        "Your password has been reset. Please log in with your new password.",
    ))
}
