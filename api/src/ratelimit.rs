//! Per-IP rate limits (`governor`) on the routes people could hammer: sign-in, sign-up, forgot
//! password, the contact form and captcha images. A handler opts in by taking the extractor
//! (`_: SignInLimit`) as its first argument; over the limit it answers 429 in the contract's
//! error shape with `Retry-After`, before the body is read or the database touched.
//!
//! The client is `client_ip::ClientIp` (trusted proxies only), keyed per IPv4 address or per
//! IPv6 /64.

use std::{
    net::IpAddr,
    num::NonZeroU32,
    sync::atomic::{AtomicU64, Ordering},
};

use axum::{
    extract::FromRequestParts,
    http::request::Parts,
    response::{IntoResponse, Response},
};
use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};

use crate::{AppState, client_ip::client_ip, error::ApiError};

/// One limiter per purpose, each keyed by client IP.
pub struct Limiter {
    inner: DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU64,
}

impl Limiter {
    /// `per_minute` requests in a burst, refilled evenly over a minute.
    pub fn per_minute(per_minute: u32) -> Self {
        let n = NonZeroU32::new(per_minute.max(1)).expect("at least 1");
        Self {
            inner: RateLimiter::keyed(Quota::per_minute(n)),
            checks: AtomicU64::new(0),
        }
    }

    /// `Err(seconds to wait)` when `ip` is over the limit.
    pub fn check(&self, ip: IpAddr) -> Result<(), u64> {
        // Forget idle clients now and then, so the key map stays as small as the active set.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 1024 == 1023 {
            self.inner.retain_recent();
            self.inner.shrink_to_fit();
        }
        self.inner.check_key(&ip).map_err(|not_until| {
            not_until
                .wait_time_from(DefaultClock::default().now())
                .as_secs()
                .max(1)
        })
    }
}

/// The limits, documented in README.md ("Rate limits"); set by the `RATE_LIMIT_*` settings.
pub struct RateLimits {
    /// Partner and super-admin sign-in share one budget per IP.
    pub sign_in: Limiter,
    pub sign_up: Limiter,
    pub forgot_password: Limiter,
    pub contact: Limiter,
    /// Captcha images: generous, but a script cannot fill the captcha table.
    pub captcha: Limiter,
}

impl From<&domain::infra::config::RateLimitConfig> for RateLimits {
    fn from(c: &domain::infra::config::RateLimitConfig) -> Self {
        Self {
            sign_in: Limiter::per_minute(c.sign_in),
            sign_up: Limiter::per_minute(c.sign_up),
            forgot_password: Limiter::per_minute(c.forgot_password),
            contact: Limiter::per_minute(c.contact),
            captcha: Limiter::per_minute(c.captcha),
        }
    }
}

fn too_many(wait_secs: u64) -> Response {
    ApiError::too_many_requests_after(wait_secs).into_response()
}

macro_rules! limit_extractor {
    ($(#[$doc:meta])* $name:ident, $field:ident) => {
        $(#[$doc])*
        pub struct $name;

        impl FromRequestParts<AppState> for $name {
            type Rejection = Response;
            async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
                let ip = client_ip(parts, &state.config.trusted_proxies);
                state.limits.$field.check(crate::client_ip::limit_key(ip)).map(|_| $name).map_err(too_many)
            }
        }
    };
}

limit_extractor!(
    /// Sign-in (partner and super admin).
    SignInLimit, sign_in
);
limit_extractor!(
    /// Partner sign-up.
    SignUpLimit, sign_up
);
limit_extractor!(
    /// Forgot password.
    ForgotPasswordLimit, forgot_password
);
limit_extractor!(
    /// The landing page's contact form.
    ContactLimit, contact
);
limit_extractor!(
    /// New captcha images.
    CaptchaLimit, captcha
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refused_per_ip() {
        let l = Limiter::per_minute(3);
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let b: IpAddr = "203.0.113.2".parse().unwrap();
        for _ in 0..3 {
            assert!(l.check(a).is_ok());
        }
        let wait = l.check(a).unwrap_err();
        assert!((1..=20).contains(&wait), "{wait}");
        assert!(l.check(b).is_ok(), "another client has its own budget");
    }
}
