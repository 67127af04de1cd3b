//! The metered gateway's moving parts in one api process: the charging task, the HTTP client
//! for upstreams and the per-key rate limit. `routes::verify` uses them; the checks and the
//! money live in `domain::gateway` and `domain::wallets::charge`.

use std::{num::NonZeroU32, sync::Arc, time::Duration};

use domain::{PgPool, config::Config, wallets::charge::Charger};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter, clock::{Clock, DefaultClock}};

#[derive(Clone)]
pub struct Gateway {
    pub charger: Charger,
    pub http: reqwest::Client,
    limiter: Arc<DefaultKeyedRateLimiter<i64>>,
}

impl Gateway {
    /// Starts this process's charging task (so: inside a Tokio runtime).
    pub fn new(pool: PgPool, config: &Config) -> Self {
        let charger = Charger::spawn(pool, jobs::wallets::alert_all);
        let http = reqwest::Client::builder()
            .timeout(config.upstream_timeout)
            .connect_timeout(config.upstream_timeout.min(Duration::from_secs(5)))
            .pool_max_idle_per_host(256)
            .build()
            .expect("building the upstream HTTP client");
        let n = NonZeroU32::new(config.gateway.rate_limit_per_minute.max(1)).expect("at least 1");
        let limiter = Arc::new(RateLimiter::keyed(Quota::per_minute(n)));
        Self { charger, http, limiter }
    }

    /// `Err(seconds to wait)` when the key `key_id` is over its calls per minute.
    pub fn check_rate(&self, key_id: i64) -> Result<(), u64> {
        self.limiter
            .check_key(&key_id)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1))
    }
}
