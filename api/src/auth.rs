//! Session tokens (HS256 JWT with a role, an expiry and a session id) and the extractors that
//! demand them. The partner id of every partner-scoped query comes from here, never from the
//! request.
//!
//! A token is accepted only while its session (`domain::infra::sessions`) is live. So that a hot path
//! does not read the database on every request, a live answer is remembered in this process for
//! `SESSION_CACHE_TTL` (2 s): a session ended here is refused here at once (the entry is
//! dropped), and in other api processes within those 2 seconds.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use axum::{extract::FromRequestParts, http::request::Parts};
use domain::infra::sessions::{self, PrincipalKind};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{AppState, error::ApiError};

/// How long a live session is believed without asking the database again.
pub const SESSION_CACHE_TTL: Duration = Duration::from_secs(2);

const EXPIRED: &str = "Your session has expired, please sign in again";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Partner,
    Superadmin,
    /// A partner's end user, signed in on the partner's portal (`sub` is the user's id).
    User,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub sub: i64,
    pub role: Role,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subdomain: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub exp: i64,
    pub iat: i64,
    /// The session (`sessions.id`) this token belongs to; tokens without one are refused.
    pub sid: Uuid,
}

impl Role {
    pub fn principal_kind(&self) -> PrincipalKind {
        match self {
            Role::Partner => PrincipalKind::Partner,
            Role::Superadmin => PrincipalKind::Superadmin,
            Role::User => PrincipalKind::User,
        }
    }
}

/// Sessions recently found live, with when they were checked (see the module doc).
#[derive(Default)]
pub struct SessionCache {
    live: Mutex<HashMap<Uuid, Instant>>,
}

impl SessionCache {
    fn is_fresh(&self, sid: Uuid) -> bool {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.get(&sid)
            .is_some_and(|at| at.elapsed() < SESSION_CACHE_TTL)
    }

    fn remember(&self, sid: Uuid) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        // Only signed tokens of live sessions get here, so the map is as big as the sessions
        // active in the last seconds; stale entries are dropped when it grows.
        if live.len() >= 10_000 {
            live.retain(|_, at| at.elapsed() < SESSION_CACHE_TTL);
        }
        live.insert(sid, Instant::now());
    }

    /// Forgets one session (logout here) or, with `None`, all (sessions ended in bulk here).
    pub fn forget(&self, sid: Option<Uuid>) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        match sid {
            Some(sid) => {
                live.remove(&sid);
            }
            None => live.clear(),
        }
    }
}

impl AppState {
    /// Starts a session for `claims`' principal on `conn` and returns its signed token.
    pub async fn start_session(
        &self,
        conn: &mut sqlx::PgConnection,
        mut claims: Claims,
    ) -> Result<String, ApiError> {
        claims.sid = sessions::start(
            conn,
            claims.role.principal_kind(),
            claims.sub,
            self.config.session_ttl,
        )
        .await?;
        self.issue_token(claims)
    }

    /// Signs a token for the session `claims.sid`, which must exist (see `start_session`).
    pub fn issue_token(&self, mut claims: Claims) -> Result<String, ApiError> {
        let now = chrono::Utc::now().timestamp();
        claims.iat = now;
        claims.exp = now + self.config.session_ttl.as_secs() as i64;
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(self.config.jwt_secret.as_bytes()),
        )
        .map_err(ApiError::internal)
    }

    pub fn decode_token(&self, token: &str) -> Option<Claims> {
        let mut v = Validation::new(Algorithm::HS256);
        v.leeway = 5;
        jsonwebtoken::decode::<Claims>(
            token,
            &DecodingKey::from_secret(self.config.jwt_secret.as_bytes()),
            &v,
        )
        .ok()
        .map(|d| d.claims)
    }
}

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The claims of a valid token whose session is live.
async fn claims(parts: &Parts, state: &AppState) -> Result<Claims, ApiError> {
    let token = bearer(parts).ok_or_else(|| ApiError::unauthorized("Please sign in"))?;
    let c = state
        .decode_token(token)
        .ok_or_else(|| ApiError::unauthorized(EXPIRED))?;
    if state.sessions.is_fresh(c.sid) {
        return Ok(c);
    }
    let mut conn = state.pool.acquire().await?;
    if !sessions::is_live(&mut conn, c.sid, c.role.principal_kind(), c.sub).await? {
        return Err(ApiError::unauthorized(EXPIRED));
    }
    state.sessions.remember(c.sid);
    Ok(c)
}

/// Any signed-in principal with a live session, whatever the state of its account: logout
/// takes this, so an inactive partner can still end its session.
#[derive(Debug, Clone)]
pub struct SessionAuth(pub Claims);

impl FromRequestParts<AppState> for SessionAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        claims(parts, state).await.map(SessionAuth)
    }
}

/// A signed-in partner.
#[derive(Debug, Clone)]
pub struct PartnerAuth {
    pub partner_id: i64,
    pub claims: Claims,
    /// The request's client address, for the audit log.
    pub ip: std::net::IpAddr,
}

impl PartnerAuth {
    /// The partner as the audit log names it, with the request's client address.
    pub fn actor(&self) -> domain::infra::audit::Actor {
        domain::infra::audit::Actor::partner(self.partner_id).from_ip(self.ip)
    }
}

impl FromRequestParts<AppState> for PartnerAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state).await?;
        if c.role != Role::Partner {
            return Err(ApiError::forbidden("This needs a partner sign-in"));
        }
        let ip = crate::client_ip::client_ip(parts, &state.config.trusted_proxies);
        active_partner(state, c, ip).await
    }
}

/// A partner token's account must still be active: deactivation ends the sessions too, but
/// another api process may believe one for `SESSION_CACHE_TTL` more, and money moves on these
/// requests (a primary-key lookup).
async fn active_partner(
    state: &AppState,
    c: Claims,
    ip: std::net::IpAddr,
) -> Result<PartnerAuth, ApiError> {
    let active = domain::partners::is_active(&mut *state.pool.acquire().await?, c.sub).await?;
    match active {
        None => Err(ApiError::unauthorized(EXPIRED)),
        Some(false) => Err(ApiError::forbidden(
            "Your account is inactive. Please contact support.",
        )),
        Some(true) => Ok(PartnerAuth {
            partner_id: c.sub,
            claims: c,
            ip,
        }),
    }
}

/// The signed-in super admin.
#[derive(Debug, Clone)]
pub struct SuperAdminAuth {
    pub admin_id: i64,
    pub claims: Claims,
    /// The request's client address, for the audit log.
    pub ip: std::net::IpAddr,
}

impl SuperAdminAuth {
    /// The super admin as the audit log names it, with the request's client address.
    pub fn actor(&self) -> domain::infra::audit::Actor {
        domain::infra::audit::Actor::superadmin(self.admin_id).from_ip(self.ip)
    }
}

impl FromRequestParts<AppState> for SuperAdminAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state).await?;
        if c.role != Role::Superadmin {
            return Err(ApiError::forbidden("This needs a super-admin sign-in"));
        }
        Ok(Self {
            admin_id: c.sub,
            claims: c,
            ip: crate::client_ip::client_ip(parts, &state.config.trusted_proxies),
        })
    }
}

/// Either role; exports and job state serve both.
#[derive(Debug, Clone)]
pub enum AnyAuth {
    Partner(i64),
    SuperAdmin(i64),
}

impl FromRequestParts<AppState> for AnyAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state).await?;
        Ok(match c.role {
            Role::Partner => AnyAuth::Partner(
                active_partner(
                    state,
                    c,
                    crate::client_ip::client_ip(parts, &state.config.trusted_proxies),
                )
                .await?
                .partner_id,
            ),
            Role::Superadmin => AnyAuth::SuperAdmin(c.sub),
            Role::User => return Err(ApiError::forbidden("This needs a partner sign-in")),
        })
    }
}

/// A signed-in end user of the portal. The partner comes from the user's own row, never from
/// the request; the user and its partner must both still be active (checked per request, as
/// for partners: money moves on these requests).
#[derive(Debug, Clone)]
pub struct UserAuth {
    pub user_id: i64,
    pub partner_id: i64,
    pub claims: Claims,
    /// The request's client address, for the audit log and the gateway's IP checks.
    pub ip: std::net::IpAddr,
}

impl UserAuth {
    /// The user as the audit log names it, with the request's client address.
    pub fn actor(&self) -> domain::infra::audit::Actor {
        domain::infra::audit::Actor::user(self.user_id).from_ip(self.ip)
    }
}

impl FromRequestParts<AppState> for UserAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state).await?;
        if c.role != Role::User {
            return Err(ApiError::forbidden("This needs an end-user sign-in"));
        }
        issued_here(parts, state, &c)?;
        let ip = crate::client_ip::client_ip(parts, &state.config.trusted_proxies);
        active_user(state, c, ip).await
    }
}

/// An end user's token works only on the site that issued it: on a partner's host, the token's
/// sub-domain must be that host's (another partner's user, or a token from before the site
/// moved, is 401). The platform's own host and plain addresses carry no site (local runs, the
/// tests, API clients); they are not a partner's page, so nothing there can be confused with
/// another partner's site.
fn issued_here(parts: &Parts, state: &AppState, c: &Claims) -> Result<(), ApiError> {
    let host_site = parts
        .headers
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| {
            domain::partners::branding::subdomain_of_host(h, &state.config.platform_domain)
        });
    match host_site {
        Some(site) if c.subdomain.as_deref() != Some(site.as_str()) => Err(ApiError::unauthorized(
            "This sign-in belongs to another site. Please sign in here",
        )),
        _ => Ok(()),
    }
}

async fn active_user(
    state: &AppState,
    c: Claims,
    ip: std::net::IpAddr,
) -> Result<UserAuth, ApiError> {
    let found = domain::portal::principal(&mut *state.pool.acquire().await?, c.sub).await?;
    match found {
        Some(p) if p.user_active && p.partner_active => Ok(UserAuth {
            user_id: c.sub,
            partner_id: p.partner_id,
            claims: c,
            ip,
        }),
        // Deactivation ends the sessions too; this covers another process's cached belief.
        _ => Err(ApiError::unauthorized(EXPIRED)),
    }
}

/// Whoever may request and read CSV exports: a partner, a super admin, or an end user (its own
/// rows only).
#[derive(Debug, Clone)]
pub enum ExportAuth {
    Partner(i64),
    SuperAdmin(i64),
    User { partner_id: i64, user_id: i64 },
}

impl FromRequestParts<AppState> for ExportAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state).await?;
        let ip = crate::client_ip::client_ip(parts, &state.config.trusted_proxies);
        Ok(match c.role {
            Role::Partner => ExportAuth::Partner(active_partner(state, c, ip).await?.partner_id),
            Role::Superadmin => ExportAuth::SuperAdmin(c.sub),
            Role::User => {
                issued_here(parts, state, &c)?;
                let u = active_user(state, c, ip).await?;
                ExportAuth::User {
                    partner_id: u.partner_id,
                    user_id: u.user_id,
                }
            }
        })
    }
}
