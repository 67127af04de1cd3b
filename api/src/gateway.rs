//! The metered gateway's moving parts in one api process: the charging task, the HTTP client
//! for upstreams, the per-key rate limit, the IP-hit counter and the keys' last use. `routes::verify` uses them; the
//! checks and the money live in `domain::gateway` and `domain::wallets::charge`.
//!
//! With `REDIS_URL` the rate limit is a GCRA in Redis, shared by every api process, and hits are
//! counted there; without it the limit is `governor` in this process and hits go to Postgres.

use std::{num::NonZeroU32, sync::Arc, time::Duration};

use domain::{
    PgPool,
    gateway::hits::{self, Hit, RedisHits},
    infra::config::Config,
    wallets::charge::Charger,
};
use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};
use tokio::sync::{OnceCell, mpsc};

/// The caller's API key (`X-Api-Key`), as the gateway and the product API read it.
pub fn api_key(headers: &axum::http::HeaderMap) -> &str {
    headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim()
}

#[derive(Clone)]
pub struct Gateway {
    pub charger: Charger,
    pub http: reqwest::Client,
    limit: Limit,
    hits: mpsc::UnboundedSender<Hit>,
    key_uses: mpsc::UnboundedSender<i64>,
}

#[derive(Clone)]
enum Limit {
    Local(Arc<DefaultKeyedRateLimiter<i64>>),
    Redis {
        shared: Arc<SharedRedis>,
        per_minute: u32,
    },
}

/// One Redis connection per process, opened on first use (the constructor is synchronous).
pub struct SharedRedis {
    url: String,
    database_url: String,
    hits: OnceCell<RedisHits>,
    conn: OnceCell<redis::aio::ConnectionManager>,
}

impl SharedRedis {
    async fn conn(&self) -> Result<redis::aio::ConnectionManager, redis::RedisError> {
        self.conn
            .get_or_try_init(|| async {
                redis::aio::ConnectionManager::new(redis::Client::open(self.url.as_str())?).await
            })
            .await
            .cloned()
    }

    async fn hits(&self) -> domain::Result<RedisHits> {
        self.hits
            .get_or_try_init(|| RedisHits::connect(&self.url, &self.database_url))
            .await
            .cloned()
    }
}

/// GCRA (the generic cell rate algorithm) on Redis's clock: `KEYS[1]` holds the theoretical
/// arrival time in microseconds; `ARGV[1]` is the interval between calls, `ARGV[2]` the burst
/// (both in microseconds). Answers 0 (allowed) or the microseconds to wait.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local wait = new_tat - burst - now
if wait > 0 then return wait end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000) + 1)
return 0
";

impl Gateway {
    /// Starts this process's charging and hit-counting tasks (so: inside a Tokio runtime).
    pub fn new(pool: PgPool, config: &Config) -> Self {
        let charger = Charger::spawn(pool.clone());
        let http = domain::gateway::call::http_client(config);
        let per_minute = config.gateway.rate_limit_per_minute.max(1);
        let redis = config.redis_url.as_ref().map(|url| {
            Arc::new(SharedRedis {
                url: url.clone(),
                database_url: config.database_url.clone(),
                hits: OnceCell::new(),
                conn: OnceCell::new(),
            })
        });
        let limit = match &redis {
            Some(shared) => Limit::Redis {
                shared: shared.clone(),
                per_minute,
            },
            None => Limit::Local(Arc::new(RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(per_minute).expect("at least 1"),
            )))),
        };
        let (hits, rx) = mpsc::unbounded_channel();
        tokio::spawn(count_hits(pool.clone(), redis, rx));
        let (key_uses, rx) = mpsc::unbounded_channel();
        tokio::spawn(record_key_uses(pool, rx));
        Self {
            charger,
            http,
            limit,
            hits,
            key_uses,
        }
    }

    /// `Err(seconds to wait)` when the key `key_id` is over its calls per minute. Should Redis be
    /// unreachable the call is let through (and logged): the wallets still bound what it costs.
    pub async fn check_rate(&self, key_id: i64) -> Result<(), u64> {
        match &self.limit {
            Limit::Local(l) => l.check_key(&key_id).map_err(|not_until| {
                not_until
                    .wait_time_from(DefaultClock::default().now())
                    .as_secs()
                    .max(1)
            }),
            Limit::Redis { shared, per_minute } => {
                let interval = 60_000_000 / u64::from(*per_minute);
                let result: Result<u64, redis::RedisError> = async {
                    let mut conn = shared.conn().await?;
                    redis::cmd("EVAL")
                        .arg(GCRA)
                        .arg(1)
                        .arg(format!(
                            "{}:gateway:rate:{key_id}",
                            hits::namespace(&shared.database_url)
                        ))
                        .arg(interval)
                        .arg(interval * u64::from(*per_minute))
                        .query_async(&mut conn)
                        .await
                }
                .await;
                match result {
                    Ok(0) => Ok(()),
                    Ok(wait_us) => Err(wait_us.div_ceil(1_000_000).max(1)),
                    Err(e) => {
                        tracing::warn!(error = %e, "gateway rate limit: Redis unreachable, call let through");
                        Ok(())
                    }
                }
            }
        }
    }

    /// Counts one call for (user, IP); written in batches by this process's hit task.
    pub fn count_hit(&self, hit: Hit) {
        let _ = self.hits.send(hit);
    }

    /// Notes a call with the key `key_id` (its "last used"), off the call's path: written in
    /// batches by this process's task.
    pub fn note_key_use(&self, key_id: i64) {
        let _ = self.key_uses.send(key_id);
    }
}

/// Writes the keys' last use in batches, each key once per batch. Last use is for display: a
/// failed write is logged and left to the key's next call.
async fn record_key_uses(pool: PgPool, mut rx: mpsc::UnboundedReceiver<i64>) {
    let mut batch = Vec::with_capacity(HIT_BATCH);
    while rx.recv_many(&mut batch, HIT_BATCH).await > 0 {
        batch.sort_unstable();
        batch.dedup();
        let written = match pool.acquire().await {
            Ok(mut conn) => domain::gateway::api_keys::mark_used(&mut conn, &batch)
                .await
                .map(|_| ()),
            Err(e) => Err(e.into()),
        };
        if let Err(e) = written {
            tracing::warn!(error = %e, keys = batch.len(), "recording the keys' last use failed");
        }
        batch.clear();
    }
}

/// Most hits one write takes.
const HIT_BATCH: usize = 4096;

/// Writes the hits that have arrived, in one statement or one Redis MULTI per batch. A failed
/// write is retried (the hits stay in memory) rather than dropped.
async fn count_hits(
    pool: PgPool,
    redis: Option<Arc<SharedRedis>>,
    mut rx: mpsc::UnboundedReceiver<Hit>,
) {
    let mut batch = Vec::with_capacity(HIT_BATCH);
    while rx.recv_many(&mut batch, HIT_BATCH).await > 0 {
        for attempt in 1.. {
            let written = match &redis {
                Some(r) => match r.hits().await {
                    Ok(h) => h.record(&batch).await,
                    Err(e) => Err(e),
                },
                None => match pool.acquire().await {
                    Ok(mut conn) => hits::record(&mut conn, &batch).await,
                    Err(e) => Err(e.into()),
                },
            };
            match written {
                Ok(()) => break,
                Err(e) if attempt < 50 => {
                    tracing::warn!(error = %e, hits = batch.len(), attempt, "writing IP hits failed; retrying");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => {
                    tracing::error!(error = %e, hits = batch.len(), "writing IP hits failed; dropping them");
                    break;
                }
            }
        }
        batch.clear();
    }
}
