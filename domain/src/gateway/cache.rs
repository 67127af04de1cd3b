//! What the gateway reads on every call, kept in the api process: a key's caller (its user,
//! partner, wallets and the user's IP lists) and a user's price and catalogue entry per service.
//!
//! A hit costs no round trip. Staleness is bounded by invalidation, not by a short life:
//! triggers on every table these answers are read from (migration
//! `20261126120001_gateway_cache`) send `NOTIFY gateway_cache` with the partner's id (or `*` for
//! the catalogue and the plans) when they commit, and each process's [`listen`] task drops that
//! partner's entries when it hears it, so a change (a revoked key, a blocked IP, a new price)
//! reaches every api process within milliseconds, a second at worst. While the listening
//! connection is down the cache is bypassed (every call reads Postgres, as before it existed)
//! and it starts empty when the connection is back, since notifications sent meanwhile are lost.
//!
//! A load that began before a change is not kept when the change's notification arrived while it
//! ran (`generation`), so a stale read can never outlive the notification that should have
//! dropped it. [`GatewayCache::sync`] waits until this process has heard every change committed
//! before it was called: the api calls it after each console write, so the process that made a
//! change answers by it at once.
//!
//! Per-key fields belong on [`Caller`] (and the key columns of `caller_sql!` in `gateway.rs`);
//! a per-key table needs its trigger (`gateway_cache_changed('partner_id')`) and nothing else.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Arc, RwLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use ipnet::IpNet;
use sqlx::{PgPool, postgres::PgConnectOptions};
use tokio::sync::watch;

use super::{
    Call, Caller, Priced, check_expiry, check_service, key_hash, missing_fields, unknown_key,
    well_formed,
};
use crate::{Error, Result};

/// The channel the triggers notify.
pub const CHANNEL: &str = "gateway_cache";

/// An entry is read again after this long even if no change was heard: a bound on what a lost
/// notification could cost, not the way changes arrive.
const MAX_AGE: Duration = Duration::from_secs(60);

/// Past this many entries a map is emptied rather than grown: unknown keys and services are
/// cached too (so that refusals cost no round trip) and their number is the caller's choice.
const MAX_ENTRIES: usize = 100_000;

/// A key's caller as the cache keeps it: everything but the client IP, which differs per call.
/// The key's expiry and API list are on the caller; its IP list is here, matched per call.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Profile {
    #[sqlx(flatten)]
    pub caller: Caller,
    /// The user's blocked IPs and allow-list, as `address/prefix`.
    pub blocked: Vec<String>,
    pub listed: Vec<String>,
    /// The key's own allow-list (empty: anywhere).
    pub key_ips: Vec<String>,
}

/// A load and when it was made; `None` answers are kept too (an unknown key, a service the user
/// cannot call), so that refusals cost no round trip either.
struct Entry<T> {
    value: Option<Arc<T>>,
    loaded: Instant,
}

/// What `map` holds for `key` while it is younger than [`MAX_AGE`].
fn fresh<'m, K: Eq + std::hash::Hash, T>(
    map: &'m HashMap<K, Entry<T>>,
    key: &K,
) -> Option<&'m Option<Arc<T>>> {
    map.get(key)
        .filter(|e| e.loaded.elapsed() < MAX_AGE)
        .map(|e| &e.value)
}

/// Keeps a load in `map`, emptied first when it is full.
fn put<K: Eq + std::hash::Hash, T>(map: &mut HashMap<K, Entry<T>>, key: K, value: Option<Arc<T>>) {
    if map.len() >= MAX_ENTRIES {
        map.clear();
    }
    map.insert(
        key,
        Entry {
            value,
            loaded: Instant::now(),
        },
    );
}

struct KeyProfile {
    caller: Caller,
    blocked: Vec<IpNet>,
    listed: Vec<IpNet>,
    key_ips: Vec<IpNet>,
}

impl KeyProfile {
    fn from(p: Profile) -> Self {
        Self {
            caller: p.caller,
            blocked: p.blocked.iter().filter_map(|n| net(n)).collect(),
            listed: p.listed.iter().filter_map(|n| net(n)).collect(),
            key_ips: p.key_ips.iter().filter_map(|n| net(n)).collect(),
        }
    }

    /// The caller from `ip`, expired or not (`gateway::check_expiry` tells, as time passes).
    fn caller(&self, ip: IpAddr) -> Caller {
        let mut c = self.caller.clone();
        // As Postgres's `>>=` on inet: an address of the other family is never contained.
        c.ip_blocked = self.blocked.iter().any(|n| n.contains(&ip));
        c.ip_listed = self.listed.iter().any(|n| n.contains(&ip));
        c.key_ip_refused =
            !self.key_ips.is_empty() && !self.key_ips.iter().any(|n| n.contains(&ip));
        c
    }
}

fn net(s: &str) -> Option<IpNet> {
    s.parse().ok()
}

#[derive(Default)]
struct Maps {
    keys: HashMap<[u8; 32], Entry<KeyProfile>>,
    /// (partner, user, service).
    prices: HashMap<(i64, i64, String), Entry<Priced>>,
}

impl Maps {
    fn drop_partner(&mut self, partner_id: i64) {
        self.keys.retain(|_, e| {
            e.value
                .as_ref()
                .is_some_and(|p| p.caller.partner_id != partner_id)
        });
        self.prices.retain(|(p, _, _), _| *p != partner_id);
    }
}

/// Per-key turns for loading: the first caller to miss loads, those that miss meanwhile wait for
/// its turn to end and find its entry. Bounded as the maps are.
struct Gates<K>(std::sync::Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>);

impl<K> Default for Gates<K> {
    fn default() -> Self {
        Self(std::sync::Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + std::hash::Hash + Clone> Gates<K> {
    async fn turn(&self, key: K) -> Turn<'_, K> {
        let gate = {
            let mut gates = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if gates.len() >= MAX_ENTRIES && !gates.contains_key(&key) {
                gates.clear();
            }
            gates.entry(key.clone()).or_default().clone()
        };
        let held = gate.clone().lock_owned().await;
        Turn {
            gates: self,
            key,
            gate,
            _held: held,
        }
    }

    /// What `cached` finds, or else a turn at `key`'s load: `cached` is asked again once the
    /// turn is taken, as whoever held it before may have loaded the entry meanwhile. The caller
    /// that gets the turn loads, and keeps it until its entry is in.
    async fn cached_or_turn<T>(
        &self,
        key: K,
        cached: impl Fn() -> Option<T>,
    ) -> std::result::Result<T, Turn<'_, K>> {
        if let Some(found) = cached() {
            return Ok(found);
        }
        let turn = self.turn(key).await;
        cached().ok_or(turn)
    }
}

/// A turn at a key's load; the first one to end takes the gate away (its waiters still hold
/// it), so a later miss starts a new one.
struct Turn<'a, K: Eq + std::hash::Hash> {
    gates: &'a Gates<K>,
    key: K,
    gate: Arc<tokio::sync::Mutex<()>>,
    _held: tokio::sync::OwnedMutexGuard<()>,
}

impl<K: Eq + std::hash::Hash> Drop for Turn<'_, K> {
    fn drop(&mut self) {
        let mut gates = self.gates.0.lock().unwrap_or_else(|e| e.into_inner());
        if gates
            .get(&self.key)
            .is_some_and(|g| Arc::ptr_eq(g, &self.gate))
        {
            gates.remove(&self.key);
        }
    }
}

/// The process's cache; cheap to clone.
#[derive(Clone)]
pub struct GatewayCache(Arc<Inner>);

struct Inner {
    maps: RwLock<Maps>,
    /// One load at a time per key and per price: on a cold cache (a process just started, an
    /// entry past `MAX_AGE`) the calls that miss together wait for the first one's load instead
    /// of each reading Postgres the same rows (at 900 calls/s on one key, a fresh process sent
    /// a load per call until the first answered).
    key_loads: Gates<[u8; 32]>,
    price_loads: Gates<(i64, i64, String)>,
    /// Bumped by every change heard: a load that saw it move is not kept.
    generation: AtomicU64,
    /// The listening connection is up: entries may be used.
    live: AtomicBool,
    /// The last of this process's sync tokens heard back.
    synced: watch::Sender<u64>,
    next_sync: AtomicU64,
    /// Tells this process's sync tokens from other processes'.
    nonce: String,
}

impl Default for GatewayCache {
    fn default() -> Self {
        Self(Arc::new(Inner {
            maps: RwLock::default(),
            key_loads: Gates::default(),
            price_loads: Gates::default(),
            generation: AtomicU64::new(0),
            live: AtomicBool::new(false),
            synced: watch::Sender::new(0),
            next_sync: AtomicU64::new(0),
            nonce: uuid::Uuid::new_v4().simple().to_string(),
        }))
    }
}

impl GatewayCache {
    fn live(&self) -> bool {
        self.0.live.load(Ordering::Acquire)
    }

    fn maps(&self) -> std::sync::RwLockReadGuard<'_, Maps> {
        self.0.maps.read().unwrap_or_else(|e| e.into_inner())
    }

    fn maps_mut(&self) -> std::sync::RwLockWriteGuard<'_, Maps> {
        self.0.maps.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Check 1 from the cache: the key's caller from `ip` (`gateway::caller`'s answer).
    pub async fn caller(&self, pool: &PgPool, key: &str, ip: IpAddr) -> Result<Caller> {
        let caller = self.lookup(pool, key, ip).await?;
        check_expiry(&caller)?;
        Ok(caller)
    }

    /// The caller of an unrevoked key from `ip`, expired or not: for the gateway, which keeps a
    /// refusal of an expired key in its owner's log. Unknown and revoked keys are 401.
    pub async fn lookup(&self, pool: &PgPool, key: &str, ip: IpAddr) -> Result<Caller> {
        if !well_formed(key) {
            return Err(unknown_key());
        }
        let hash = key_hash(key);
        let cached = || {
            let found = fresh(&self.maps().keys, &hash)?
                .as_ref()
                .map(|p| p.caller(ip))
                .ok_or_else(unknown_key);
            Some(found)
        };
        if !self.live() {
            return self.load_key(pool, hash, ip).await;
        }
        let _turn = match self.0.key_loads.cached_or_turn(hash, cached).await {
            Ok(answer) => return answer,
            Err(turn) => turn,
        };
        self.load_key(pool, hash, ip).await
    }

    async fn load_key(&self, pool: &PgPool, hash: [u8; 32], ip: IpAddr) -> Result<Caller> {
        let generation = self.0.generation.load(Ordering::Acquire);
        let profile = profile(pool, &hash)
            .await?
            .map(|p| Arc::new(KeyProfile::from(p)));
        let answer = profile.as_ref().map(|p| p.caller(ip));
        self.keep(generation, |m| put(&mut m.keys, hash, profile));
        answer.ok_or_else(unknown_key)
    }

    /// Checks 4 and 5 from the cache (`gateway::authorize`'s answer).
    pub async fn authorize(
        &self,
        pool: &PgPool,
        caller: &Caller,
        service: &str,
        input: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Call> {
        let priced = self.priced(pool, caller, service).await?;
        let call = check_service(caller, (*priced.ok_or(Error::NotFound)?).clone())?;
        missing_fields(&call.endpoint.required_fields, input)?;
        Ok(call)
    }

    async fn priced(
        &self,
        pool: &PgPool,
        caller: &Caller,
        service: &str,
    ) -> Result<Option<Arc<Priced>>> {
        let key = (caller.partner_id, caller.user_id, service.to_owned());
        let cached = || fresh(&self.maps().prices, &key).cloned();
        let _turn = if self.live() {
            match self.0.price_loads.cached_or_turn(key.clone(), cached).await {
                Ok(priced) => return Ok(priced),
                Err(turn) => Some(turn),
            }
        } else {
            None
        };
        let generation = self.0.generation.load(Ordering::Acquire);
        // Boxed: the load's 14 KB future is the cold path (a miss), and unboxed it would size
        // every call's future, which is moved whole from task to task on the hot path.
        let priced = Box::pin(async {
            super::priced(
                &mut *pool.acquire().await?,
                caller.partner_id,
                caller.user_id,
                service,
            )
            .await
        })
        .await?
        .map(Arc::new);
        self.keep(generation, |m| put(&mut m.prices, key, priced.clone()));
        Ok(priced)
    }

    /// Keeps a load begun at `generation` unless a change was heard since (or nobody listens).
    fn keep(&self, generation: u64, put: impl FnOnce(&mut Maps)) {
        if !self.live() {
            return;
        }
        let mut maps = self.maps_mut();
        // Read under the write lock: `changed` bumps it under the same lock.
        if self.0.generation.load(Ordering::Acquire) == generation {
            put(&mut maps);
        }
    }

    /// A change was heard: `None` drops everything.
    fn changed(&self, partner_id: Option<i64>) {
        let mut maps = self.maps_mut();
        self.0.generation.fetch_add(1, Ordering::AcqRel);
        match partner_id {
            Some(p) => maps.drop_partner(p),
            None => *maps = Maps::default(),
        }
        // A key created since it was tried unknown: the unknown keys go with any change.
        maps.keys.retain(|_, e| e.value.is_some());
    }

    fn set_live(&self, live: bool) {
        let mut maps = self.maps_mut();
        self.0.generation.fetch_add(1, Ordering::AcqRel);
        *maps = Maps::default();
        self.0.live.store(live, Ordering::Release);
    }

    /// Waits (at most a second) until this process has heard every change committed before the
    /// call. Nothing to wait for while the cache is bypassed.
    pub async fn sync(&self, pool: &PgPool) {
        if !self.live() {
            return;
        }
        let n = self.0.next_sync.fetch_add(1, Ordering::AcqRel) + 1;
        let mut rx = self.0.synced.subscribe();
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("sync:{}:{n}", self.0.nonce))
            .execute(pool)
            .await;
        if let Err(e) = sent {
            tracing::warn!(error = %e, "gateway cache: sync notification failed");
            return;
        }
        let heard = tokio::time::timeout(Duration::from_secs(1), rx.wait_for(|&s| s >= n)).await;
        if heard.is_err() {
            tracing::warn!("gateway cache: a change was not heard back within a second");
        }
    }

    fn heard(&self, payload: &str) {
        if let Some(token) = payload.strip_prefix("sync:") {
            if let Some((nonce, n)) = token.split_once(':')
                && nonce == self.0.nonce
                && let Ok(n) = n.parse::<u64>()
            {
                self.0.synced.send_if_modified(|s| {
                    let newer = n > *s;
                    if newer {
                        *s = n;
                    }
                    newer
                });
            }
            return;
        }
        self.changed(payload.parse().ok());
    }
}

/// The key's profile, unrevoked (expiry is checked per call, as time passes).
async fn profile(pool: &PgPool, hash: &[u8; 32]) -> Result<Option<Profile>> {
    Ok(sqlx::query_as(caller_sql!(
        "k.id AS key_id, k.mode AS key_mode, k.expires_at AS key_expires_at,
         k.allowed_services AS key_services, false AS key_ip_refused,
         k.allowed_ips::text[] AS key_ips",
        "api_keys k JOIN end_users u ON u.id = k.user_id AND u.partner_id = k.partner_id",
        "k.key_hash = $1 AND k.revoked_at IS NULL",
        "false AS ip_blocked, false AS ip_listed,
         ARRAY(SELECT host(b.ip) || '/' || masklen(b.ip) FROM blocked_ips b WHERE b.user_id = u.id) AS blocked,
         ARRAY(SELECT host(w.ip) || '/' || masklen(w.ip) FROM ip_whitelist w WHERE w.user_id = u.id) AS listed"
    ))
    .bind(hash.as_slice())
    .fetch_optional(pool)
    .await?)
}

/// Keeps `cache` in step with the database for as long as the process runs: one connection
/// listening on [`CHANNEL`], opened again (with the cache emptied) whenever it drops. `options`
/// are the pool's (`infra::db::options`): until this connection is made, calls read Postgres.
pub async fn listen(cache: GatewayCache, options: PgConnectOptions) {
    let mut backoff = Duration::from_millis(100);
    loop {
        match crate::infra::db::listener(options.clone()).await {
            Ok(mut l) => match l.listen(CHANNEL).await {
                Ok(()) => {
                    backoff = Duration::from_millis(100);
                    cache.set_live(true);
                    loop {
                        match l.try_recv().await {
                            Ok(Some(n)) => cache.heard(n.payload()),
                            // The connection dropped: what was sent meanwhile is lost.
                            Ok(None) => {
                                cache.set_live(false);
                                break;
                            }
                            Err(e) => {
                                tracing::warn!(error = %e, "gateway cache: listening failed");
                                cache.set_live(false);
                                break;
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "gateway cache: LISTEN failed"),
            },
            Err(e) => tracing::warn!(error = %e, "gateway cache: cannot connect to listen"),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};

    use super::*;

    fn profile(blocked: &[&str], listed: &[&str], expires_at: Option<DateTime<Utc>>) -> KeyProfile {
        keyed(blocked, listed, expires_at, &[])
    }

    fn keyed(
        blocked: &[&str],
        listed: &[&str],
        expires_at: Option<DateTime<Utc>>,
        key_ips: &[&str],
    ) -> KeyProfile {
        let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        KeyProfile::from(Profile {
            caller: Caller {
                key_id: 1,
                partner_id: 2,
                user_id: 3,
                key_mode: "live".into(),
                user_active: true,
                full_access: true,
                partner_active: true,
                server_security: false,
                restrict_all_apis: false,
                test_mode: false,
                batch_processing: false,
                charge_sandbox: false,
                base_url: None,
                ip_blocked: false,
                ip_listed: false,
                user_wallet_id: None,
                partner_wallet_id: None,
                key_expires_at: expires_at,
                key_ip_refused: false,
                key_services: vec![],
            },
            blocked: strings(blocked),
            listed: strings(listed),
            key_ips: strings(key_ips),
        })
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ip_lists_match_as_postgres_contains() {
        let p = profile(&["10.1.2.3/8", "203.0.113.7/32"], &["2001:db8::/64"], None);
        let c = p.caller(ip("10.200.0.1"));
        assert!(c.ip_blocked && !c.ip_listed);
        assert!(p.caller(ip("203.0.113.7")).ip_blocked);
        assert!(!p.caller(ip("203.0.113.8")).ip_blocked);
        let c = p.caller(ip("2001:db8::5"));
        assert!(!c.ip_blocked && c.ip_listed);
        assert!(!p.caller(ip("::ffff:10.0.0.1")).ip_blocked);
        assert!(!c.key_ip_refused, "no key list: anywhere");
    }

    #[test]
    fn a_key_list_refuses_every_other_address() {
        let p = keyed(&[], &[], None, &["198.51.100.0/24", "2001:db8::1/128"]);
        assert!(!p.caller(ip("198.51.100.77")).key_ip_refused);
        assert!(!p.caller(ip("2001:db8::1")).key_ip_refused);
        assert!(p.caller(ip("198.51.101.1")).key_ip_refused);
        assert!(p.caller(ip("2001:db8::2")).key_ip_refused);
        assert!(p.caller(ip("::ffff:198.51.100.1")).key_ip_refused);
    }

    #[test]
    fn an_expired_key_is_refused_saying_so() {
        let past = Utc::now() - chrono::Duration::seconds(1);
        let future = Utc::now() + chrono::Duration::seconds(60);
        let err = check_expiry(&profile(&[], &[], Some(past)).caller(ip("127.0.0.1"))).unwrap_err();
        assert!(
            matches!(&err, Error::Unauthorized(m) if m.starts_with("This API key expired at ")),
            "{err:?}"
        );
        assert!(check_expiry(&profile(&[], &[], Some(future)).caller(ip("127.0.0.1"))).is_ok());
    }

    #[test]
    fn a_partner_change_drops_its_entries_and_the_unknown_keys() {
        let cache = GatewayCache::default();
        cache.set_live(true);
        {
            let mut m = cache.maps_mut();
            put(
                &mut m.keys,
                [1; 32],
                Some(Arc::new(profile(&[], &[], None))),
            );
            put(&mut m.keys, [2; 32], None);
        }
        let g = cache.0.generation.load(Ordering::Acquire);
        cache.heard("99");
        assert_eq!(
            cache.maps().keys.len(),
            1,
            "partner 2's key stays, the unknown one goes"
        );
        cache.heard("2");
        assert!(cache.maps().keys.is_empty());
        // A load begun before the change is not kept.
        cache.keep(g, |m| put(&mut m.keys, [3; 32], None));
        assert!(cache.maps().keys.is_empty());
    }

    #[test]
    fn an_entry_is_used_until_its_age_and_a_full_map_starts_again() {
        let mut map: HashMap<u32, Entry<u32>> = HashMap::new();
        put(&mut map, 1, Some(Arc::new(10)));
        put(&mut map, 2, None);
        assert_eq!(fresh(&map, &1), Some(&Some(Arc::new(10))));
        assert_eq!(
            fresh(&map, &2),
            Some(&None),
            "a known absence is an answer too"
        );
        assert_eq!(fresh(&map, &3), None);
        let old = Instant::now()
            .checked_sub(MAX_AGE)
            .expect("a clock past a minute");
        map.get_mut(&1).unwrap().loaded = old;
        assert_eq!(fresh(&map, &1), None, "read again after MAX_AGE");

        for k in 0..MAX_ENTRIES as u32 {
            put(&mut map, k, None);
        }
        assert_eq!(map.len(), MAX_ENTRIES);
        put(&mut map, u32::MAX, None);
        assert_eq!(map.len(), 1, "emptied rather than grown");
    }

    #[tokio::test]
    async fn misses_of_one_key_load_once_and_other_keys_do_not_wait() {
        let gates: Arc<Gates<u32>> = Arc::default();
        let loads = Arc::new(AtomicU64::new(0));
        let loaded = Arc::new(AtomicBool::new(false));
        // Ten calls miss key 1 together; each takes its turn, and only one finds nothing loaded.
        let calls: Vec<_> = (0..10)
            .map(|_| {
                let (gates, loads, loaded) = (gates.clone(), loads.clone(), loaded.clone());
                tokio::spawn(async move {
                    let _turn = gates.turn(1).await;
                    if !loaded.load(Ordering::Acquire) {
                        loads.fetch_add(1, Ordering::AcqRel);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        loaded.store(true, Ordering::Release);
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(10)).await;
        // Key 2 is not behind key 1's load.
        tokio::time::timeout(Duration::from_millis(20), gates.turn(2))
            .await
            .expect("another key's turn at once");
        for c in calls {
            c.await.unwrap();
        }
        assert_eq!(loads.load(Ordering::Acquire), 1);
        assert!(gates.0.lock().unwrap().is_empty(), "no gate is left behind");
    }
}
