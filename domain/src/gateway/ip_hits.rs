//! The read side of IP hits (the IP Hits screen and User Detail): calls per user and IP,
//! summed over the days kept in `ip_hits` (or one day with the date filter), marked Blocked
//! when the pair is in the partner's blocked IPs. The gateway and `aggregate_ip_hits` write
//! the counters.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, Postgres, QueryBuilder};

use crate::{
    Result,
    gateway::ip_access::Filter,
    infra::paging::{List, Page, PageRequest},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Blocked,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct IpHit {
    pub user_id: i64,
    pub ip: String,
    pub hits: i64,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
    pub status: Status,
    /// The blocked-IP record to delete for Unblock; null while active.
    pub blocked_id: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct Row {
    user_id: i64,
    ip: String,
    hits: i64,
    first_seen: DateTime<Utc>,
    last_seen: DateTime<Utc>,
    blocked_id: Option<i64>,
}

/// The partner's hits, most recently seen first: one row per user and IP (a list of groups,
/// so its total counts the groups).
pub async fn list(
    conn: &mut PgConnection,
    partner_id: i64,
    f: &Filter,
    page: PageRequest,
) -> Result<Page<IpHit>> {
    let ip = f.ip.map(|ip| ip.to_string());
    let rows: Page<Row> = List {
        columns: "h.user_id, host(h.ip) AS ip, sum(h.hits)::bigint AS hits, min(h.first_seen) AS first_seen,
                  max(h.last_seen) AS last_seen, b.id AS blocked_id",
        rows: |q: &mut QueryBuilder<Postgres>| {
            q.push("FROM ip_hits h LEFT JOIN blocked_ips b ON b.user_id = h.user_id AND b.ip = h.ip WHERE h.partner_id = ").push_bind(partner_id);
            if let Some(u) = f.user_id {
                q.push(" AND h.user_id = ").push_bind(u);
            }
            if let Some(ip) = &ip {
                q.push(" AND h.ip = ").push_bind(ip.clone()).push("::inet");
            }
            if let Some(day) = f.date {
                q.push(" AND h.day = ").push_bind(day);
            }
            q.push(" GROUP BY h.user_id, h.ip, b.id");
        },
        order_by: "max(h.last_seen) DESC, h.user_id, h.ip",
    }
    .fetch(conn, page)
    .await?;
    Ok(rows.map(|r| IpHit {
        user_id: r.user_id,
        ip: r.ip,
        hits: r.hits,
        first_seen: r.first_seen,
        last_seen: r.last_seen,
        status: if r.blocked_id.is_some() {
            Status::Blocked
        } else {
            Status::Active
        },
        blocked_id: r.blocked_id,
    }))
}

/// The write side's periodic step (the `aggregate_ip_hits` job): folds every hot counter
/// (`ip_hit_counters`) into `ip_hits` and returns how many rows it folded. Draining and adding
/// are one statement (DELETE … RETURNING feeding the upsert), so a crash either folds a batch
/// completely or not at all: no hit is lost or counted twice.
pub async fn fold_counters(conn: &mut PgConnection) -> Result<u64> {
    Ok(sqlx::query(
        "WITH drained AS (
             DELETE FROM ip_hit_counters RETURNING partner_id, user_id, ip, day, hits, first_seen, last_seen
         )
         INSERT INTO ip_hits (partner_id, user_id, ip, day, hits, first_seen, last_seen)
         SELECT partner_id, user_id, ip, day, hits, first_seen, last_seen FROM drained
         ON CONFLICT (user_id, ip, day) DO UPDATE
            SET hits = ip_hits.hits + EXCLUDED.hits,
                first_seen = LEAST(ip_hits.first_seen, EXCLUDED.first_seen),
                last_seen = GREATEST(ip_hits.last_seen, EXCLUDED.last_seen)",
    )
    .execute(conn)
    .await?
    .rows_affected())
}
