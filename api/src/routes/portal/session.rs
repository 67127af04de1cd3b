//! End users' sign-in on their partner's sub-domain, and sign-out. The same machinery as the
//! partners': a revocable session row, argon2 on the hashing pool with no connection held, the
//! per-address and per-account limits, and the captcha.

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
};
use domain::auth::{
    accounts::Kind,
    captcha,
    sign_in::{self, BAD_CREDENTIALS, SignedIn},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    auth::{Role, SessionAuth},
    credentials::LoginRequest,
    error::{ApiError, ApiResult},
    extract::{Json, Query},
    ratelimit::SignInLimit,
    session::{UserSession, UserSummary, start_user_session},
    sites::{SiteQuery, requested_subdomain, site_branding},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
}

/// End-user sign-in on `{subdomain}.{PLATFORM_DOMAIN}` (or `?subdomain=`). Every attempt uses
/// up its captcha. 401 alike for an unknown e-mail, a wrong password, a user of another partner,
/// an inactive user, and a site that is unknown or whose partner is inactive; 429 after 10
/// attempts on one account in 15 minutes, or past the per-address sign-in limit.
#[utoipa::path(post, path = "/me/login", tag = "portal", params(SiteQuery), request_body = LoginRequest,
    responses((status = 200, body = UserSession), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn login(
    _: SignInLimit,
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<SiteQuery>,
    Json(req): Json<LoginRequest>,
) -> ApiResult<Json<UserSession>> {
    sign_in::check_form(&req.email, &req.password)?;
    captcha::verify(&state.pool, &state.config, &req.captcha).await?;
    let sub = requested_subdomain(&state, q.subdomain.as_deref(), &headers)
        .ok_or_else(|| ApiError::unauthorized(BAD_CREDENTIALS))?;
    let site = site_branding(&state, &sub)
        .await?
        .ok_or_else(|| ApiError::unauthorized(BAD_CREDENTIALS))?;
    // End users are always verified; an inactive one is refused inside.
    let (SignedIn::Ready(c) | SignedIn::Unverified(c)) = sign_in::sign_in(
        &state.pool,
        Kind::User {
            partner_id: site.partner_id,
        },
        &req.email,
        &req.password,
    )
    .await?;
    let mut conn = state.pool.acquire().await?;
    Ok(Json(
        start_user_session(
            &state,
            &mut conn,
            UserSummary {
                id: c.id,
                first_name: c.first_name,
                last_name: c.last_name,
            },
            site.subdomain,
        )
        .await?,
    ))
}

/// End-user sign-out: the token is refused from then on.
#[utoipa::path(post, path = "/me/logout", tag = "portal", security(("bearer" = [])),
    responses((status = 204, description = "signed out"), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn logout(auth: SessionAuth, State(state): State<AppState>) -> ApiResult<StatusCode> {
    if auth.0.role != Role::User {
        return Err(ApiError::forbidden("This needs an end-user sign-in"));
    }
    let mut conn = state.pool.acquire().await?;
    domain::infra::sessions::end(&mut conn, auth.0.sid).await?;
    state.sessions.forget(Some(auth.0.sid));
    Ok(StatusCode::NO_CONTENT)
}
