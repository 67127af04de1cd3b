//! Partner identity: sign-up, e-mail verification, sign-in with captcha, forgot and reset
//! password, change password; super-admin sign-in. The rules live in `domain::partners`.

use axum::{extract::State, http::StatusCode};
use domain::{
    auth::accounts::{self, Kind},
    auth::captcha,
    auth::passwords::{self, NewPassword},
    auth::sign_in::{self, SignedIn},
    auth::superadmins,
    auth::tokens::{self, Purpose},
    infra::crypto,
    mail::{Mail, SendMail},
    partners,
};
use serde::{Deserialize, Serialize};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{Claims, PartnerAuth, Role, SessionAuth, SuperAdminAuth},
    credentials::{ChangePasswordRequest, LoginRequest},
    error::{ApiError, ApiResult},
    extract::Json,
    ratelimit::{CaptchaLimit, ForgotPasswordLimit, SignInLimit, SignUpLimit},
    reply::{Message, message},
    session::{PartnerSummary, SessionResponse, partner_session},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(new_captcha))
        .routes(routes!(signup))
        .routes(routes!(verify_email))
        .routes(routes!(login))
        .routes(routes!(forgot_password))
        .routes(routes!(reset_password_verify))
        .routes(routes!(reset_password))
        .routes(routes!(change_password))
        .routes(routes!(partner_logout))
        .routes(routes!(superadmin_login))
        .routes(routes!(superadmin_me))
        .routes(routes!(superadmin_logout))
}

/// Tests compare the 403 of an inactive partner's sign-in with it.
pub use domain::auth::sign_in::INACTIVE;
pub const UNVERIFIED: &str =
    "Please verify your email address to log in. We have sent a verification link to your email.";
pub const VERIFY_FAILED: &str = "This verification link is invalid or has expired";
/// A new verification mail on a sign-in attempt at most this often.
const RESEND_VERIFICATION_AFTER_SECS: f64 = 10.0 * 60.0;

/// A new built-in captcha image. Answer it once, within 10 minutes, as
/// `captcha: {id, answer}` (case does not matter). `mode` says which captcha the server checks.
#[utoipa::path(get, path = "/auth/captcha", tag = "auth",
    responses((status = 200, body = CaptchaResponse), (status = 429, body = crate::error::ErrorBody)))]
pub async fn new_captcha(
    _: CaptchaLimit,
    State(state): State<AppState>,
) -> ApiResult<Json<CaptchaResponse>> {
    let c = captcha::issue(&state.pool, &state.config).await?;
    let mode = match state.config.captcha {
        domain::infra::config::CaptchaConfig::Builtin => "builtin",
        domain::infra::config::CaptchaConfig::Recaptcha { .. } => "recaptcha",
        domain::infra::config::CaptchaConfig::Off => "off",
    };
    Ok(Json(CaptchaResponse {
        id: c.id.to_string(),
        image: c.image,
        mode,
    }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CaptchaResponse {
    pub id: String,
    /// `data:image/svg+xml;base64,…`
    pub image: String,
    /// `builtin`, `recaptcha` or `off`.
    pub mode: &'static str,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct SignupRequest {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone_number: String,
    #[serde(default)]
    pub user_name: String,
    #[serde(default)]
    pub password: String,
    /// `{id, answer}` (built-in) or a reCAPTCHA token; ignored with `CAPTCHA=off`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub captcha: serde_json::Value,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SignupResponse {
    pub partner_id: i64,
}

/// Reserves a verification token and enqueues its mail on the caller's transaction; the job
/// mints the token when it builds the mail, so the queue never holds the link.
async fn send_verification(conn: &mut sqlx::PgConnection, partner_id: i64) -> ApiResult<()> {
    let token_id = tokens::reserve(
        conn,
        Purpose::VerifyEmail,
        partner_id,
        tokens::VERIFY_EMAIL_TTL,
    )
    .await?;
    jobs::enqueue(
        conn,
        &SendMail::of(Mail::VerifyEmail {
            partner_id,
            token_id,
        }),
    )
    .await?;
    Ok(())
}

/// Partner sign-up (wizard step 1). Creates the partner, unverified, with its API and product
/// wallets, and mails a link to `/verify-email/{token}` (valid 24 hours), all in one
/// transaction. 409 names the field (`email` or `user_name`) that is taken.
#[utoipa::path(post, path = "/partner/signup", tag = "auth", request_body = SignupRequest,
    responses((status = 201, body = SignupResponse), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn signup(
    _: SignUpLimit,
    State(state): State<AppState>,
    Json(req): Json<SignupRequest>,
) -> ApiResult<(StatusCode, Json<SignupResponse>)> {
    let form = partners::SignupForm::parse(
        &req.first_name,
        &req.last_name,
        &req.email,
        &req.phone_number,
        &req.user_name,
        &req.password,
    )?;
    captcha::verify(&state.pool, &state.config, &req.captcha).await?;
    // Hashed before the transaction: waiting for the hashing pool must not hold locks.
    let hash = crypto::hash_password_pooled(&form.password)
        .await
        .map_err(ApiError::internal)?;
    let mut tx = state.pool.begin().await?;
    let id = partners::create(&mut tx, &form, &hash).await?;
    let c = partners::credentials_by_id(&mut tx, id)
        .await?
        .ok_or_else(|| ApiError::internal("partner vanished"))?;
    send_verification(&mut tx, c.id).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(SignupResponse { partner_id: id })))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct TokenRequest {
    #[serde(default)]
    pub token: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VerifiedResponse {
    pub message: String,
    /// A session: the verify page continues to the wizard without another sign-in.
    pub token: String,
    pub partner: PartnerSummary,
}

/// Verifies the partner's e-mail with the mailed token (one use, 24 hours) and signs it in.
/// 400 for a token that is unknown, expired or used.
#[utoipa::path(post, path = "/partner/verify-email", tag = "auth", request_body = TokenRequest,
    responses((status = 200, body = VerifiedResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn verify_email(
    State(state): State<AppState>,
    Json(req): Json<TokenRequest>,
) -> ApiResult<Json<VerifiedResponse>> {
    let mut tx = state.pool.begin().await?;
    let id = tokens::consume(&mut tx, Purpose::VerifyEmail, req.token.trim())
        .await?
        .ok_or_else(|| ApiError::bad_request(VERIFY_FAILED))?;
    accounts::mark_email_verified(&mut tx, id).await?;
    let session = partner_session(&state, &mut tx, id).await?;
    tx.commit().await?;
    Ok(Json(VerifiedResponse {
        message: "Your email is verified successfully, You can login to your dashboard.".into(),
        token: session.token,
        partner: session.partner,
    }))
}

/// Partner sign-in. Every attempt uses up its captcha (fetch a new one after a failure). 401 is
/// the same for an unknown e-mail and a wrong password; 429 after 10 attempts on one account in
/// 15 minutes, from whatever addresses, until the window ends or a sign-in succeeds; 403 for an unverified e-mail (a new
/// link is mailed if the last is over 10 minutes old) or an inactive partner.
#[utoipa::path(post, path = "/partner/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = SessionResponse), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
pub async fn login(
    _: SignInLimit,
    State(state): State<AppState>,
    Json(req): Json<LoginRequest>,
) -> ApiResult<Json<SessionResponse>> {
    sign_in::check_form(&req.email, &req.password)?;
    captcha::verify(&state.pool, &state.config, &req.captcha).await?;
    let signed_in = sign_in::sign_in(&state.pool, Kind::Partner, &req.email, &req.password).await?;
    let mut conn = state.pool.acquire().await?;
    match signed_in {
        SignedIn::Ready(c) => Ok(Json(partner_session(&state, &mut conn, c.id).await?)),
        SignedIn::Unverified(c) => {
            let last = tokens::last_issued_secs_ago(&mut conn, Purpose::VerifyEmail, c.id).await?;
            if last.is_none_or(|secs| secs > RESEND_VERIFICATION_AFTER_SECS) {
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                send_verification(&mut tx, c.id).await?;
                tx.commit().await?;
            }
            let mut e = ApiError::forbidden(UNVERIFIED);
            e.code = "email_not_verified";
            Err(e)
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ForgotPasswordRequest {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub user_name: String,
}

/// Forgot password: when the e-mail (lower-cased) and the user name name one partner, mails a
/// link to `/reset-password-admin/{token}` (valid 1 hour). Always 202, so the answer does not
/// tell whether an account exists.
#[utoipa::path(post, path = "/partner/forgot-password", tag = "auth", request_body = ForgotPasswordRequest,
    responses((status = 202, body = Message), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn forgot_password(
    _: ForgotPasswordLimit,
    State(state): State<AppState>,
    Json(req): Json<ForgotPasswordRequest>,
) -> ApiResult<(StatusCode, Json<Message>)> {
    let mut v = domain::error::Violations::new();
    v.check(!req.email.trim().is_empty(), "email", "Email is required");
    v.check(
        req.email.trim().is_empty() || domain::infra::email_address::is_valid(req.email.trim()),
        "email",
        domain::infra::email_address::INVALID,
    );
    v.check(
        !req.user_name.trim().is_empty(),
        "user_name",
        "Username is required",
    );
    v.check(
        req.email.len() <= 254 && req.user_name.len() <= 100,
        "email",
        "Email or username is too long",
    );
    v.into_result()?;
    // The account is looked up by the job, not here: the answer takes as long whether or not
    // one exists, and the mail (with its link) is built only when sent.
    let reset = Mail::PasswordReset {
        email: req.email.clone(),
        user_name: req.user_name.clone(),
    };
    jobs::enqueue_now(&state.pool, &SendMail::of(reset)).await?;
    Ok((
        StatusCode::ACCEPTED,
        message(
            "If the details match an account, a link to reset the password will be sent to the email address.",
        ),
    ))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ResetTokenInfo {
    pub user_id: i64,
    pub user_name: String,
}

/// Checks a reset link before the new-password form shows (does not use it up). 400 'Session
/// expired ! Please try again' for a token that is unknown, expired or used.
#[utoipa::path(post, path = "/partner/reset-password/verify", tag = "auth", request_body = TokenRequest,
    responses((status = 200, body = ResetTokenInfo), (status = 400, body = crate::error::ErrorBody)))]
pub async fn reset_password_verify(
    State(state): State<AppState>,
    Json(req): Json<TokenRequest>,
) -> ApiResult<Json<ResetTokenInfo>> {
    let c = passwords::reset_account(&state.pool, Kind::Partner, &req.token).await?;
    Ok(Json(ResetTokenInfo {
        user_id: c.id,
        user_name: c.user_name,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ResetPasswordRequest {
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub new_password: String,
    #[serde(default)]
    pub confirm_new_password: String,
}

/// Sets a new password with a reset link. The passwords are checked first (422), so a typo
/// does not use up the link; then the link is used (400 when expired or used). Ends every
/// session of the partner.
#[utoipa::path(post, path = "/partner/reset-password", tag = "auth", request_body = ResetPasswordRequest,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn reset_password(
    State(state): State<AppState>,
    Json(req): Json<ResetPasswordRequest>,
) -> ApiResult<Json<Message>> {
    let new_password = NewPassword::parse(&req.new_password, Some(&req.confirm_new_password))?;
    // Whoever else holds a session of this partner is signed out: a reset is how a partner
    // takes the account back.
    passwords::reset(&state.pool, Kind::Partner, &req.token, &new_password).await?;
    state.sessions.forget(None);
    Ok(message(
        "Your password has been reset. Please log in with your new password.",
    ))
}

/// Changes the signed-in partner's password (/reset-password). A wrong current password is a
/// 422 on `current_password`. Ends the partner's other sessions; the caller's token stays valid.
#[utoipa::path(post, path = "/partner/change-password", tag = "auth", request_body = ChangePasswordRequest,
    security(("bearer" = [])),
    responses((status = 200, body = Message), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn change_password(
    auth: PartnerAuth,
    State(state): State<AppState>,
    Json(req): Json<ChangePasswordRequest>,
) -> ApiResult<Json<Message>> {
    passwords::change(
        &state.pool,
        Kind::Partner,
        auth.partner_id,
        &req.current_password,
        &req.new_password,
        req.confirm_new_password.as_deref(),
        auth.claims.sid,
    )
    .await?;
    state.sessions.forget(None);
    Ok(message("Password changed successfully"))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SuperAdminSession {
    pub token: String,
    pub email: String,
}

/// Super-admin sign-in with captcha (/superadmin/auth). Shares the sign-in rate limit.
#[utoipa::path(post, path = "/superadmin/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = SuperAdminSession), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn superadmin_login(
    _: SignInLimit,
    State(state): State<AppState>,
    Json(req): Json<LoginRequest>,
) -> ApiResult<Json<SuperAdminSession>> {
    sign_in::check_form(&req.email, &req.password)?;
    captcha::verify(&state.pool, &state.config, &req.captcha).await?;
    // Super admins are always verified and active.
    let (SignedIn::Ready(admin) | SignedIn::Unverified(admin)) =
        sign_in::sign_in(&state.pool, Kind::SuperAdmin, &req.email, &req.password).await?;
    let (id, email) = (admin.id, admin.email);
    let mut conn = state.pool.acquire().await?;
    let claims = Claims {
        sub: id,
        role: Role::Superadmin,
        user_name: None,
        subdomain: None,
        email: Some(email.clone()),
        exp: 0,
        iat: 0,
        sid: uuid::Uuid::nil(),
    };
    let token = state.start_session(&mut conn, claims).await?;
    Ok(Json(SuperAdminSession { token, email }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SuperAdminMe {
    pub email: String,
}

/// The signed-in super admin (the console header shows the e-mail).
#[utoipa::path(get, path = "/superadmin/me", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = SuperAdminMe), (status = 401, body = crate::error::ErrorBody)))]
pub async fn superadmin_me(
    auth: SuperAdminAuth,
    State(state): State<AppState>,
) -> ApiResult<Json<SuperAdminMe>> {
    // A deleted super admin's token stops working here rather than at expiry.
    let email = superadmins::email_of(&state.pool, auth.admin_id)
        .await?
        .ok_or_else(|| ApiError::unauthorized("Please sign in"))?;
    Ok(Json(SuperAdminMe { email }))
}

/// Ends the session of `auth` (both logouts), here at once and in other api processes within
/// `auth::SESSION_CACHE_TTL`.
async fn end_session(state: &AppState, auth: &SessionAuth) -> ApiResult<StatusCode> {
    let mut conn = state.pool.acquire().await?;
    domain::infra::sessions::end(&mut conn, auth.0.sid).await?;
    state.sessions.forget(Some(auth.0.sid));
    Ok(StatusCode::NO_CONTENT)
}

/// Partner sign-out: the token is refused from then on. An inactive partner may sign out too.
#[utoipa::path(post, path = "/partner/logout", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "signed out"), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn partner_logout(
    auth: SessionAuth,
    State(state): State<AppState>,
) -> ApiResult<StatusCode> {
    if auth.0.role != Role::Partner {
        return Err(ApiError::forbidden("This needs a partner sign-in"));
    }
    end_session(&state, &auth).await
}

/// Super-admin sign-out: the token is refused from then on.
#[utoipa::path(post, path = "/superadmin/logout", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "signed out"), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn superadmin_logout(
    auth: SessionAuth,
    State(state): State<AppState>,
) -> ApiResult<StatusCode> {
    if auth.0.role != Role::Superadmin {
        return Err(ApiError::forbidden("This needs a super-admin sign-in"));
    }
    end_session(&state, &auth).await
}
