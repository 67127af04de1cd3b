//! A partner's session as sign-in, e-mail verification and a sub-domain claim answer it (the
//! claim re-issues it because the token carries the sub-domain).

use domain::partners::onboarding;
use serde::Serialize;

use crate::{
    AppState,
    auth::{Claims, Role},
    error::ApiResult,
};

/// The partner as sign-in returns it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PartnerSummary {
    pub id: i64,
    pub user_name: String,
    pub subdomain: Option<String>,
    /// The wizard step to show next: 2 plan … 5 SMTP, 6 done.
    pub onboarding_step: u8,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SessionResponse {
    pub token: String,
    pub partner: PartnerSummary,
}

/// A partner session token and its summary.
pub async fn partner_session(
    state: &AppState,
    conn: &mut sqlx::PgConnection,
    partner_id: i64,
) -> ApiResult<SessionResponse> {
    let p = onboarding::profile(conn, partner_id).await?;
    let claims = Claims {
        sub: p.id,
        role: Role::Partner,
        user_name: Some(p.user_name.clone()),
        subdomain: p.subdomain.clone(),
        email: Some(p.email.clone()),
        exp: 0,
        iat: 0,
        sid: uuid::Uuid::nil(),
    };
    let token = state.start_session(conn, claims).await?;
    let onboarding_step = p.progress().step();
    Ok(SessionResponse {
        token,
        partner: PartnerSummary {
            id: p.id,
            user_name: p.user_name,
            subdomain: p.subdomain,
            onboarding_step,
        },
    })
}

/// An end user as its sign-in and sign-up return it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserSummary {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserSession {
    pub token: String,
    pub user: UserSummary,
}

/// A session with role `user` for `user` on its partner's site (sign-in and sign-up).
pub async fn start_user_session(
    state: &AppState,
    conn: &mut sqlx::PgConnection,
    user: UserSummary,
    subdomain: String,
) -> ApiResult<UserSession> {
    let claims = Claims {
        sub: user.id,
        role: Role::User,
        user_name: None,
        subdomain: Some(subdomain),
        email: None,
        exp: 0,
        iat: 0,
        sid: uuid::Uuid::nil(),
    };
    let token = state.start_session(conn, claims).await?;
    Ok(UserSession { token, user })
}
