//! IP hits: every gateway call with a valid key counts once for (user, client IP, IST day),
//! refused or not, so a partner sees who knocks from where (the IP Details list).
//!
//! The api process batches hits (many calls, one write) and sends them either
//! - to Postgres (`REDIS_URL` unset): one upsert into the unlogged `ip_hit_counters` per batch,
//!   which `aggregate_ip_hits` drains into `ip_hits` in one statement; or
//! - to Redis: atomic `HINCRBY`s on one hash. `aggregate_ip_hits` folds it without losing or
//!   doubling a hit when a worker dies half-way: it RENAMEs the hash to a key of its own (new
//!   hits start a fresh hash), adds the counts to `ip_hits` in one transaction that also records
//!   the key in `ip_hit_folds` (a second fold of the same key finds it there and adds nothing),
//!   and deletes the key only after that commit. A key left by a dead worker is folded by the
//!   next run.

use std::{collections::BTreeMap, net::IpAddr};

use chrono::{DateTime, NaiveDate, Utc};
use redis::AsyncCommands;
use sqlx::{PgConnection, PgPool};

use crate::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub partner_id: i64,
    pub user_id: i64,
    pub ip: IpAddr,
    pub at: DateTime<Utc>,
}

/// One counter: hits of a (user, IP, day), with the partner and the first and last time seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Count {
    partner_id: i64,
    hits: i64,
    first: DateTime<Utc>,
    last: DateTime<Utc>,
}

type Key = (i64, IpAddr, NaiveDate);
/// partner, user, ip, day, hits, first seen, last seen: one vector each, for `UNNEST`.
type Columns = (
    Vec<i64>,
    Vec<i64>,
    Vec<String>,
    Vec<NaiveDate>,
    Vec<i64>,
    Vec<DateTime<Utc>>,
    Vec<DateTime<Utc>>,
);

/// Sorted by key, so concurrent upserts touch rows in one order and cannot deadlock.
fn aggregate(hits: &[Hit]) -> BTreeMap<Key, Count> {
    let mut m: BTreeMap<Key, Count> = BTreeMap::new();
    for h in hits {
        let e = m
            .entry((h.user_id, h.ip, crate::infra::ist::day_of(h.at)))
            .or_insert(Count {
                partner_id: h.partner_id,
                hits: 0,
                first: h.at,
                last: h.at,
            });
        e.hits += 1;
        e.first = e.first.min(h.at);
        e.last = e.last.max(h.at);
    }
    m
}

/// Adds `counts` to `table` (`ip_hit_counters` or `ip_hits`: same columns, same unique key).
async fn upsert(
    conn: &mut PgConnection,
    table: &'static str,
    counts: &BTreeMap<Key, Count>,
) -> Result<u64> {
    if counts.is_empty() {
        return Ok(0);
    }
    let mut cols: Columns = Default::default();
    for ((user, ip, day), c) in counts {
        cols.0.push(c.partner_id);
        cols.1.push(*user);
        cols.2.push(ip.to_string());
        cols.3.push(*day);
        cols.4.push(c.hits);
        cols.5.push(c.first);
        cols.6.push(c.last);
    }
    let sql = format!(
        "INSERT INTO {table} (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         SELECT p, u, ip::inet, d, h, f, l
           FROM UNNEST($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::bigint[], $6::timestamptz[], $7::timestamptz[])
                AS x(p, u, ip, d, h, f, l)
         ON CONFLICT (user_id, ip, day) DO UPDATE
            SET hits = {table}.hits + EXCLUDED.hits,
                first_seen = LEAST({table}.first_seen, EXCLUDED.first_seen),
                last_seen = GREATEST({table}.last_seen, EXCLUDED.last_seen)"
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&cols.0)
        .bind(&cols.1)
        .bind(&cols.2)
        .bind(&cols.3)
        .bind(&cols.4)
        .bind(&cols.5)
        .bind(&cols.6)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected())
}

/// Without Redis: one batch of hits into `ip_hit_counters`.
pub async fn record(conn: &mut PgConnection, hits: &[Hit]) -> Result<()> {
    upsert(conn, "ip_hit_counters", &aggregate(hits))
        .await
        .map(|_| ())
}

/// The Redis side. Keys are namespaced by the database's name, so several platforms (or test
/// databases) can share one Redis.
#[derive(Clone)]
pub struct RedisHits {
    conn: redis::aio::ConnectionManager,
    prefix: String,
}

fn redis_err(e: redis::RedisError) -> Error {
    Error::Other(anyhow::anyhow!("redis: {e}"))
}

/// `kyc:{database name}`: the namespace of this platform's Redis keys.
pub fn namespace(database_url: &str) -> String {
    let path = database_url.rsplit('/').next().unwrap_or("");
    format!("kyc:{}", path.split('?').next().unwrap_or(""))
}

impl RedisHits {
    pub async fn connect(redis_url: &str, database_url: &str) -> Result<Self> {
        let client = redis::Client::open(redis_url).map_err(redis_err)?;
        let conn = redis::aio::ConnectionManager::new(client)
            .await
            .map_err(redis_err)?;
        Ok(Self {
            conn,
            prefix: namespace(database_url),
        })
    }

    fn live_key(&self) -> String {
        format!("{}:ip_hits:live", self.prefix)
    }

    fn fold_pattern(&self) -> String {
        format!("{}:ip_hits:fold:*", self.prefix)
    }

    /// One batch of hits: per counter an `HINCRBY` of its count, `HSETNX` of its first time and
    /// `HSET` of its last, all in one MULTI so a fold's RENAME sees all of a batch or none.
    pub async fn record(&self, hits: &[Hit]) -> Result<()> {
        let counts = aggregate(hits);
        if counts.is_empty() {
            return Ok(());
        }
        let key = self.live_key();
        let mut pipe = redis::pipe();
        pipe.atomic();
        for ((user, ip, day), c) in &counts {
            let field = format!("{}|{user}|{ip}|{day}", c.partner_id);
            pipe.hincr(&key, &field, c.hits).ignore();
            pipe.hset_nx(&key, format!("{field}|f"), c.first.timestamp_millis())
                .ignore();
            pipe.hset(&key, format!("{field}|l"), c.last.timestamp_millis())
                .ignore();
        }
        let mut conn = self.conn.clone();
        pipe.query_async::<()>(&mut conn).await.map_err(redis_err)
    }

    /// Moves the live hash aside for folding (new hits start a fresh one). `None`: no hits.
    pub async fn take(&self) -> Result<Option<String>> {
        let fold = format!(
            "{}:ip_hits:fold:{}",
            self.prefix,
            uuid::Uuid::new_v4().simple()
        );
        let mut conn = self.conn.clone();
        match conn.rename::<_, _, ()>(self.live_key(), &fold).await {
            Ok(()) => Ok(Some(fold)),
            // "ERR no such key": nothing counted since the last fold.
            Err(e) if e.to_string().contains("no such key") => Ok(None),
            Err(e) => Err(redis_err(e)),
        }
    }

    /// Folds one set-aside hash into `ip_hits`, once: the fold key is recorded in the same
    /// transaction, and the hash deleted only after the commit. Returns the rows touched.
    pub async fn fold_key(&self, pool: &PgPool, fold: &str) -> Result<u64> {
        let mut conn = self.conn.clone();
        let fields: Vec<(String, i64)> = conn.hgetall(fold).await.map_err(redis_err)?;
        let mut by_field: BTreeMap<String, (i64, i64, i64)> = BTreeMap::new();
        for (f, v) in fields {
            let (base, part) = match f.rsplit_once('|') {
                Some((b, "f")) => (b.to_owned(), 1),
                Some((b, "l")) => (b.to_owned(), 2),
                _ => (f, 0),
            };
            let e = by_field.entry(base).or_insert((0, v, v));
            match part {
                0 => e.0 = v,
                1 => e.1 = v,
                _ => e.2 = v,
            }
        }
        let mut counts: BTreeMap<Key, Count> = BTreeMap::new();
        for (field, (hits, first, last)) in by_field {
            let mut parts = field.split('|');
            let parsed = (|| {
                let partner_id: i64 = parts.next()?.parse().ok()?;
                let user: i64 = parts.next()?.parse().ok()?;
                let ip: IpAddr = parts.next()?.parse().ok()?;
                let day: NaiveDate = parts.next()?.parse().ok()?;
                let first = DateTime::from_timestamp_millis(first)?;
                let last = DateTime::from_timestamp_millis(last)?;
                Some((
                    (user, ip, day),
                    Count {
                        partner_id,
                        hits,
                        first,
                        last,
                    },
                ))
            })();
            match parsed {
                Some((k, c)) if c.hits > 0 => {
                    counts.insert(k, c);
                }
                Some(_) => {}
                None => tracing::warn!(%field, "skipping an IP-hit counter that does not parse"),
            }
        }
        let mut tx = pool.begin().await?;
        let first_time =
            sqlx::query("INSERT INTO ip_hit_folds (fold_key) VALUES ($1) ON CONFLICT DO NOTHING")
                .bind(fold)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
        let rows = if first_time {
            upsert(&mut tx, "ip_hits", &counts).await?
        } else {
            0
        };
        tx.commit().await?;
        conn.del::<_, ()>(fold).await.map_err(redis_err)?;
        Ok(rows)
    }

    /// A whole fold: first any hash a dead worker set aside, then the live one.
    pub async fn fold(&self, pool: &PgPool) -> Result<u64> {
        let mut conn = self.conn.clone();
        let leftovers: Vec<String> = conn.keys(self.fold_pattern()).await.map_err(redis_err)?;
        let mut rows = 0;
        for key in leftovers {
            rows += self.fold_key(pool, &key).await?;
        }
        if let Some(key) = self.take().await? {
            rows += self.fold_key(pool, &key).await?;
        }
        // Fold keys are unique; a week of them is far more than a retry could need.
        sqlx::query("DELETE FROM ip_hit_folds WHERE folded_at < now() - interval '7 days'")
            .execute(pool)
            .await?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_of_one_user_ip_and_day_add_up() {
        let at = DateTime::parse_from_rfc3339("2026-11-23T10:00:00Z")
            .unwrap()
            .to_utc();
        let ip: IpAddr = "203.0.113.1".parse().unwrap();
        let h = |user, secs| Hit {
            partner_id: 7,
            user_id: user,
            ip,
            at: at + chrono::Duration::seconds(secs),
        };
        let m = aggregate(&[h(1, 5), h(1, 0), h(2, 1), h(1, 86_400)]);
        assert_eq!(m.len(), 3);
        let c = m[&(1, ip, crate::infra::ist::day_of(at))];
        assert_eq!(
            (c.hits, c.first, c.last),
            (2, at, at + chrono::Duration::seconds(5))
        );
    }

    #[test]
    fn namespace_is_the_database() {
        assert_eq!(
            namespace("postgres://u@h:5432/kyc_test_ab?sslmode=disable"),
            "kyc:kyc_test_ab"
        );
    }
}
