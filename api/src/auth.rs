//! Session tokens (HS256 JWT with a role and an expiry) and the extractors that demand them.
//! The partner id of every partner-scoped query comes from here, never from the request.

use axum::{extract::FromRequestParts, http::request::Parts};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::{AppState, error::ApiError};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Partner,
    Superadmin,
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
}

impl AppState {
    pub fn issue_token(&self, mut claims: Claims) -> Result<String, ApiError> {
        let now = chrono::Utc::now().timestamp();
        claims.iat = now;
        claims.exp = now + self.config.session_ttl.as_secs() as i64;
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &EncodingKey::from_secret(self.config.jwt_secret.as_bytes()))
            .map_err(ApiError::internal)
    }

    pub fn decode_token(&self, token: &str) -> Option<Claims> {
        let mut v = Validation::new(Algorithm::HS256);
        v.leeway = 5;
        jsonwebtoken::decode::<Claims>(token, &DecodingKey::from_secret(self.config.jwt_secret.as_bytes()), &v)
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

fn claims(parts: &Parts, state: &AppState) -> Result<Claims, ApiError> {
    let token = bearer(parts).ok_or_else(|| ApiError::unauthorized("Please sign in"))?;
    state.decode_token(token).ok_or_else(|| ApiError::unauthorized("Your session has expired, please sign in again"))
}

/// A signed-in partner.
#[derive(Debug, Clone)]
pub struct PartnerAuth {
    pub partner_id: i64,
    pub claims: Claims,
}

impl FromRequestParts<AppState> for PartnerAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state)?;
        if c.role != Role::Partner {
            return Err(ApiError::forbidden("This needs a partner sign-in"));
        }
        // A token outlives a deactivation by up to SESSION_TTL_HOURS; money moves on these
        // requests, so the account's state is checked on each one (a primary-key lookup).
        let active = domain::partners::is_active(&mut *state.pool.acquire().await?, c.sub).await?;
        match active {
            None => Err(ApiError::unauthorized("Your session has expired, please sign in again")),
            Some(false) => Err(ApiError::forbidden("Your account is inactive. Please contact support.")),
            Some(true) => Ok(Self { partner_id: c.sub, claims: c }),
        }
    }
}

/// The signed-in super admin.
#[derive(Debug, Clone)]
pub struct SuperAdminAuth {
    pub admin_id: i64,
    pub claims: Claims,
}

impl FromRequestParts<AppState> for SuperAdminAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let c = claims(parts, state)?;
        if c.role != Role::Superadmin {
            return Err(ApiError::forbidden("This needs a super-admin sign-in"));
        }
        Ok(Self { admin_id: c.sub, claims: c })
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
        let c = claims(parts, state)?;
        Ok(match c.role {
            Role::Partner => AnyAuth::Partner(c.sub),
            Role::Superadmin => AnyAuth::SuperAdmin(c.sub),
        })
    }
}
