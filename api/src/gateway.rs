//! The metered gateway's moving parts in one api process: the cache of callers and prices, the
//! charging task, the HTTP client for upstreams, the per-key rate limit, the IP-hit counter and
//! the keys' last use. `routes::verify` uses them; the checks and the money live in
//! `domain::gateway` and `domain::wallets::charge`.
//!
//! With `REDIS_URL` the rate limit is a GCRA in Redis, shared by every api process, and hits are
//! counted there; without it the limit is the same GCRA in this process and hits go to Postgres.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderName, HeaderValue, Method},
    middleware::Next,
    response::Response,
};
use domain::{
    PgPool,
    gateway::{
        cache::{self, GatewayCache},
        hits::{self, Hit, RedisHits},
        logs::Refusal,
    },
    infra::{config::Config, crypto::SecretBox},
    wallets::charge::Charger,
};
use tokio::sync::{OnceCell, mpsc};

use crate::AppState;

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
    /// Callers and prices, kept in step with Postgres by this process's listener.
    pub cache: GatewayCache,
    pub charger: Charger,
    pub http: reqwest::Client,
    /// Seals the answers kept for `GET /verify/transactions/{id}` (`ENCRYPTION_KEY`).
    pub secrets: SecretBox,
    limit: Limit,
    hits: mpsc::UnboundedSender<Hit>,
    key_uses: mpsc::UnboundedSender<i64>,
    refusals: mpsc::UnboundedSender<Refusal>,
}

#[derive(Clone)]
enum Limit {
    Local(Arc<LocalGcra>),
    Redis {
        shared: Arc<SharedRedis>,
        per_minute: u32,
    },
}

/// Where a key stands against its calls per minute, for the `X-RateLimit-*` headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub limit: u32,
    /// Calls left now (after this one, when it was counted).
    pub remaining: u32,
    /// Seconds until the whole budget is back.
    pub reset_secs: u64,
    /// Refused: seconds until the next call may pass.
    pub retry_after: Option<u64>,
}

impl Rate {
    /// A GCRA's state as headers: `tat_ahead_us` is how far the theoretical arrival time is
    /// ahead of now (0 when idle), `interval_us` the spacing of calls.
    fn of(limit: u32, interval_us: u64, tat_ahead_us: u64, retry_after_us: Option<u64>) -> Self {
        let burst = interval_us * u64::from(limit);
        let free = burst.saturating_sub(tat_ahead_us);
        Rate {
            limit,
            remaining: u32::try_from(free / interval_us).unwrap_or(u32::MAX),
            reset_secs: tat_ahead_us.div_ceil(1_000_000),
            retry_after: retry_after_us.map(|w| w.div_ceil(1_000_000).max(1)),
        }
    }

    /// A caller no key names: the whole budget.
    pub fn untouched(limit: u32) -> Self {
        Rate {
            limit,
            remaining: limit,
            reset_secs: 0,
            retry_after: None,
        }
    }

    pub fn apply(&self, h: &mut HeaderMap) {
        h.insert(
            HeaderName::from_static("x-ratelimit-limit"),
            HeaderValue::from(self.limit),
        );
        h.insert(
            HeaderName::from_static("x-ratelimit-remaining"),
            HeaderValue::from(self.remaining),
        );
        h.insert(
            HeaderName::from_static("x-ratelimit-reset"),
            HeaderValue::from(self.reset_secs),
        );
    }
}

/// The GCRA of one process: per key the theoretical arrival time, in microseconds since `start`.
struct LocalGcra {
    start: Instant,
    per_minute: u32,
    interval_us: u64,
    tats: Mutex<HashMap<i64, u64>>,
}

/// The spacing of a limit's calls in microseconds: at least one, whatever limit the process was
/// given (the configuration stops at 60,000,000 a minute; past it the spacing was 0, and every
/// call divided by it and panicked).
fn interval_us(per_minute: u32) -> u64 {
    (60_000_000 / u64::from(per_minute.max(1))).max(1)
}

/// Past this many keys the idle ones (theoretical arrival time passed) are forgotten.
const GCRA_KEYS: usize = 100_000;

impl LocalGcra {
    fn new(per_minute: u32) -> Self {
        Self {
            start: Instant::now(),
            per_minute,
            interval_us: interval_us(per_minute),
            tats: Mutex::default(),
        }
    }

    fn check(&self, key_id: i64, count: bool) -> Rate {
        let now = u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX);
        let burst = self.interval_us * u64::from(self.per_minute);
        let mut tats = self.tats.lock().unwrap_or_else(|e| e.into_inner());
        let tat = tats.get(&key_id).copied().unwrap_or(now).max(now);
        if !count {
            return Rate::of(self.per_minute, self.interval_us, tat - now, None);
        }
        let new_tat = tat + self.interval_us;
        if new_tat - now > burst {
            let wait = new_tat - burst - now;
            return Rate::of(self.per_minute, self.interval_us, tat - now, Some(wait));
        }
        if tats.len() >= GCRA_KEYS {
            tats.retain(|_, t| *t > now);
        }
        tats.insert(key_id, new_tat);
        Rate::of(self.per_minute, self.interval_us, new_tat - now, None)
    }
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
/// (both in microseconds), `ARGV[3]` 1 to count the call, 0 to look only. Answers {microseconds
/// to wait (0: allowed), how far the theoretical arrival time is then ahead of now}.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
if ARGV[3] == '0' then return {0, tat - now} end
local new_tat = tat + interval
local wait = new_tat - burst - now
if wait > 0 then return {wait, tat - now} end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {0, new_tat - now}
";

impl Gateway {
    /// Starts this process's charging and hit-counting tasks (so: inside a Tokio runtime).
    pub fn new(pool: PgPool, config: &Config) -> Self {
        let cache = GatewayCache::default();
        tokio::spawn(cache::listen(
            cache.clone(),
            pool.connect_options().as_ref().clone(),
        ));
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
            None => Limit::Local(Arc::new(LocalGcra::new(per_minute))),
        };
        let (hits, rx) = mpsc::unbounded_channel();
        tokio::spawn(count_hits(pool.clone(), redis, rx));
        let (key_uses, rx) = mpsc::unbounded_channel();
        tokio::spawn(record_key_uses(pool.clone(), rx));
        let (refusals, rx) = mpsc::unbounded_channel();
        tokio::spawn(record_refusals(pool, rx));
        Self {
            cache,
            charger,
            http,
            secrets: SecretBox::new(&config.encryption_key),
            limit,
            hits,
            key_uses,
            refusals,
        }
    }

    /// Counts a call of the key `key_id` against its calls per minute; `rate.retry_after` is set
    /// when it is over. Should Redis be unreachable the call is let through (and logged): the
    /// wallets still bound what it costs.
    pub async fn check_rate(&self, key_id: i64) -> Rate {
        self.rate(key_id, true).await
    }

    /// Where the key stands, without counting a call: for the headers of a refusal.
    pub async fn peek_rate(&self, key_id: i64) -> Rate {
        self.rate(key_id, false).await
    }

    async fn rate(&self, key_id: i64, count: bool) -> Rate {
        match &self.limit {
            Limit::Local(l) => l.check(key_id, count),
            Limit::Redis { shared, per_minute } => {
                let interval = interval_us(*per_minute);
                // Boxed: its 3.7 KB would otherwise be in every call's future, moved whole with
                // it, Redis or not (see `verification::run_rated`).
                let result: Result<(u64, u64), redis::RedisError> = Box::pin(async {
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
                        .arg(u8::from(count))
                        .query_async(&mut conn)
                        .await
                })
                .await;
                match result {
                    Ok((wait, ahead)) => {
                        Rate::of(*per_minute, interval, ahead, (wait > 0).then_some(wait))
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "gateway rate limit: Redis unreachable, call let through");
                        Rate::untouched(*per_minute)
                    }
                }
            }
        }
    }

    pub fn rate_limit(&self) -> u32 {
        match &self.limit {
            Limit::Local(l) => l.per_minute,
            Limit::Redis { per_minute, .. } => *per_minute,
        }
    }

    /// Counts one call for (user, IP); written in batches by this process's hit task.
    pub fn count_hit(&self, hit: Hit) {
        let _ = self.hits.send(hit);
    }

    /// Keeps a refused call in the API log, off the call's path: written in batches by this
    /// process's task.
    pub fn log_refusal(&self, refusal: Refusal) {
        let _ = self.refusals.send(refusal);
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
    let mut last = None;
    while next_batch(&mut rx, &mut batch, &mut last, KEY_USES_EVERY).await {
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

/// Writes refused calls to the API log in batches. A failed write is retried a while (the rows
/// stay in memory), then dropped with an error: the log is a record, not money.
async fn record_refusals(pool: PgPool, mut rx: mpsc::UnboundedReceiver<Refusal>) {
    let mut batch = Vec::with_capacity(HIT_BATCH);
    let mut last = None;
    while next_batch(&mut rx, &mut batch, &mut last, WRITE_EVERY).await {
        for attempt in 1.. {
            let written = match pool.acquire().await {
                Ok(mut conn) => domain::gateway::logs::record_refusals(&mut conn, &batch).await,
                Err(e) => Err(e.into()),
            };
            match written {
                Ok(()) => break,
                Err(e) if attempt < 20 => {
                    tracing::warn!(error = %e, rows = batch.len(), attempt, "logging refused calls failed; retrying");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => {
                    tracing::error!(error = %e, rows = batch.len(), "logging refused calls failed; dropping them");
                    break;
                }
            }
        }
        batch.clear();
    }
}

/// Most hits one write takes.
const HIT_BATCH: usize = 4096;

/// How often a busy off-path writer (IP hits, refused calls) writes; an idle one writes a
/// lone call's row at once.
const WRITE_EVERY: Duration = Duration::from_millis(100);

/// How often the keys' last use is written under steady calls: it is shown, never decided on.
const KEY_USES_EVERY: Duration = Duration::from_secs(1);

/// Waits for an off-path writer's next batch: at least one item, then whatever else arrives
/// until `every` has passed since the previous write began (`last`). Writing each item as it
/// came made every writer under steady calls a chain of tiny commits, each a round trip, a WAL
/// flush and a backend's time taken from the charging groups. False once every sender is gone
/// and nothing is left.
async fn next_batch<T>(
    rx: &mut mpsc::UnboundedReceiver<T>,
    batch: &mut Vec<T>,
    last: &mut Option<Instant>,
    every: Duration,
) -> bool {
    if rx.recv_many(batch, HIT_BATCH).await == 0 {
        return false;
    }
    if let Some(rest) = last.map(|l| every.saturating_sub(l.elapsed()))
        && !rest.is_zero()
    {
        tokio::time::sleep(rest).await;
        if !rx.is_empty() && batch.len() < HIT_BATCH {
            rx.recv_many(batch, HIT_BATCH - batch.len()).await;
        }
    }
    *last = Some(Instant::now());
    true
}

/// Writes the hits that have arrived, in one statement or one Redis MULTI per batch. A failed
/// write is retried (the hits stay in memory) rather than dropped.
async fn count_hits(
    pool: PgPool,
    redis: Option<Arc<SharedRedis>>,
    mut rx: mpsc::UnboundedReceiver<Hit>,
) {
    let mut batch = Vec::with_capacity(HIT_BATCH);
    let mut last = None;
    while next_batch(&mut rx, &mut batch, &mut last, WRITE_EVERY).await {
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

/// After a console write (any method but GET, HEAD and OPTIONS, outside the gateway) that
/// succeeded, waits until this process's gateway cache has heard of it, so the change is in force
/// here by the time its author sees the answer (other processes follow within milliseconds).
pub async fn sync_after_writes(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && !req.uri().path().starts_with("/api/v1/verify");
    let res = next.run(req).await;
    if write && res.status().is_success() {
        state.gateway.cache.sync(&state.pool).await;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_gcra_counts_down_and_refuses_past_the_budget() {
        let g = LocalGcra::new(3);
        assert_eq!(g.check(1, false).remaining, 3);
        let r: Vec<Rate> = (0..4).map(|_| g.check(1, true)).collect();
        assert_eq!(
            r.iter().map(|r| r.remaining).collect::<Vec<_>>(),
            [2, 1, 0, 0]
        );
        assert!(r[..3].iter().all(|r| r.retry_after.is_none()));
        let refused = r[3];
        assert!(refused.retry_after.is_some_and(|s| (1..=20).contains(&s)));
        assert!((40..=60).contains(&refused.reset_secs), "{refused:?}");
        assert_eq!(g.check(1, false).remaining, 0, "a look counts nothing");
        assert_eq!(g.check(2, true).remaining, 2, "keys are apart");
    }

    #[test]
    fn a_limit_past_one_call_a_microsecond_still_answers() {
        for per_minute in [60_000_000, 100_000_000, u32::MAX] {
            let g = LocalGcra::new(per_minute);
            let r = g.check(1, true);
            assert!(r.retry_after.is_none(), "{per_minute}: {r:?}");
            assert_eq!(r.limit, per_minute);
        }
    }
}
