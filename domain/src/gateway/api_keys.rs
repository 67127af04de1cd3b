//! End users' gateway keys. A key is `kyc_live_` or `kyc_test_` (sandbox) and 32 random base62
//! characters; only its SHA-256 is stored (a 190-bit random secret needs no slow hash), and the
//! clear key is answered once, by [`create`]. Lists show the first 16 characters.
//!
//! A key is usable while `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`.
//! A user without full access (`end_users.full_access = false`) may call with sandbox keys
//! only; a live key may still be created for them, so an upgrade needs no new key.
//!
//! Each key has a name, an optional expiry chosen at creation, and optional lists of the IP
//! addresses or networks it may be used from and of the APIs it may call ([`Controls`]); the
//! gateway enforces them from its cache (`gateway::cache`), which a change reaches within a
//! second through the `api_keys` triggers.

use chrono::{DateTime, Utc};
use rand::{Rng, distr::Alphanumeric};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

pub use super::key_controls::{Controls, KeyUpdate};
use crate::{
    Error, Result,
    infra::audit::{self, Actor},
};

/// Active keys a user may hold at once: enough for key rolls across a few servers, few enough
/// that a leaked partner session cannot mint keys without bound.
pub const MAX_ACTIVE_KEYS: i64 = 20;
/// Characters of a key shown in lists (the mode part and 7 random characters).
pub const PREFIX_LEN: usize = 16;
const RANDOM_LEN: usize = 32;

/// A key creation as the portal and the partner console send it; all but `mode` optional.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewKeyRequest {
    pub mode: Mode,
    /// At most 100 characters.
    pub name: Option<String>,
    /// RFC 3339, in the future (at most 5 years): the gateway refuses the key from then on.
    pub expires_at: Option<String>,
    /// IPv4 or IPv6 addresses or CIDR networks, at most 50; absent or empty: anywhere.
    pub allowed_ips: Option<Vec<String>>,
    /// Catalogue services, at most 200; absent or empty: every API the user may call.
    pub allowed_services: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Live,
    Sandbox,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Live => "live",
            Mode::Sandbox => "sandbox",
        }
    }

    fn key_prefix(self) -> &'static str {
        match self {
            Mode::Live => "kyc_live_",
            Mode::Sandbox => "kyc_test_",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "live" => Ok(Mode::Live),
            "sandbox" => Ok(Mode::Sandbox),
            other => Err(Error::Other(anyhow::anyhow!(
                "api_keys.mode holds {other:?}"
            ))),
        }
    }
}

/// A freshly generated key. `Debug` hides the key: it must never reach a log.
pub struct NewKey {
    pub key: String,
    pub prefix: String,
    pub hash: [u8; 32],
}

impl std::fmt::Debug for NewKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewKey")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// SHA-256 of the whole key, as stored in `api_keys.key_hash`.
pub fn hash(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// A new random key of `mode` (the thread RNG is a CSPRNG).
pub fn generate(mode: Mode) -> NewKey {
    let random: String = rand::rng()
        .sample_iter(&Alphanumeric)
        .take(RANDOM_LEN)
        .map(char::from)
        .collect();
    let key = format!("{}{random}", mode.key_prefix());
    NewKey {
        prefix: key[..PREFIX_LEN].to_owned(),
        hash: hash(&key),
        key,
    }
}

/// The answer of [`create`]: the only time the clear key leaves the server.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CreatedKey {
    pub id: i64,
    pub key: String,
    pub prefix: String,
    pub mode: Mode,
}

impl std::fmt::Debug for CreatedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreatedKey")
            .field("id", &self.id)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Revoked,
    Expired,
}

/// A key as lists show it: never the key itself.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct KeyInfo {
    pub id: i64,
    pub name: String,
    pub prefix: String,
    pub mode: Mode,
    pub status: Status,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    /// Addresses and networks the key may be used from (`203.0.113.7`, `10.0.0.0/8`); empty:
    /// anywhere.
    pub allowed_ips: Vec<String>,
    /// Services the key may call; empty: every API the user may call.
    pub allowed_services: Vec<String>,
    /// The key's metered calls over the last 30 IST days (the dashboard's window).
    pub usage: KeyUsage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct KeyUsage {
    /// Calls that passed the gateway's checks (charged, then kept or refunded).
    pub calls: i64,
    /// What the user paid for the successful ones.
    pub spend_paise: i64,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    prefix: String,
    mode: String,
    status: String,
    created_at: DateTime<Utc>,
    last_used_at: Option<DateTime<Utc>>,
    expires_at: Option<DateTime<Utc>>,
    allowed_ips: Vec<String>,
    allowed_services: Vec<String>,
    calls: i64,
    spend_paise: i64,
}

impl TryFrom<Row> for KeyInfo {
    type Error = Error;
    fn try_from(r: Row) -> Result<Self> {
        let status = match r.status.as_str() {
            "revoked" => Status::Revoked,
            "expired" => Status::Expired,
            _ => Status::Active,
        };
        Ok(Self {
            id: r.id,
            name: r.name,
            prefix: r.prefix,
            mode: Mode::parse(&r.mode)?,
            status,
            created_at: r.created_at,
            last_used_at: r.last_used_at,
            expires_at: r.expires_at,
            allowed_ips: r.allowed_ips,
            allowed_services: r.allowed_services,
            usage: KeyUsage {
                calls: r.calls,
                spend_paise: r.spend_paise,
            },
        })
    }
}

const STATUS: &str = "CASE WHEN revoked_at IS NOT NULL THEN 'revoked'
                           WHEN expires_at IS NOT NULL AND expires_at <= now() THEN 'expired' ELSE 'active' END";

/// Creates a key for the partner's user. The user row is locked so that concurrent creations
/// cannot pass the limit together.
#[tracing::instrument(skip(conn, req))]
pub async fn create(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    req: &NewKeyRequest,
    actor: Actor,
) -> Result<CreatedKey> {
    let controls = Controls::checked(
        conn,
        req.name.as_deref(),
        req.expires_at.as_deref(),
        req.allowed_ips.as_deref(),
        req.allowed_services.as_deref(),
    )
    .await?;
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM end_users WHERE id = $1 AND partner_id = $2 FOR UPDATE")
            .bind(user_id)
            .bind(partner_id)
            .fetch_optional(&mut *conn)
            .await?;
    found.ok_or(Error::NotFound)?;
    let active: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM api_keys WHERE user_id = $1 AND {STATUS} = 'active'"
    )))
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if active >= MAX_ACTIVE_KEYS {
        return Err(Error::conflict(format!(
            "A user can have at most {MAX_ACTIVE_KEYS} active API keys. Revoke one first."
        )));
    }
    let created = insert(conn, partner_id, user_id, req.mode, &controls).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api_key.create",
            entity: "api_key",
            entity_id: created.id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({
                "user_id": user_id, "prefix": created.prefix, "mode": req.mode.as_str(),
                "name": controls.name, "expires_at": controls.expires_at,
                "allowed_ips": controls.allowed_ips, "allowed_services": controls.allowed_services,
            })),
        },
    )
    .await?;
    Ok(created)
}

/// A new key of the user's, stored by its hash; the key itself is in the answer only. Both
/// a creation and a roll make their key here.
async fn insert(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    mode: Mode,
    controls: &Controls,
) -> Result<CreatedKey> {
    let new = generate(mode);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO api_keys (partner_id, user_id, prefix, key_hash, mode, name, expires_at, allowed_ips, allowed_services)
         VALUES ($1, $2, $3, $4, $5, COALESCE($6, ''), $7, COALESCE($8::text[], '{}')::inet[], COALESCE($9, '{}'))
         RETURNING id",
    )
    .bind(partner_id)
    .bind(user_id)
    .bind(&new.prefix)
    .bind(&new.hash[..])
    .bind(mode.as_str())
    .bind(&controls.name)
    .bind(controls.expires_at)
    .bind(&controls.allowed_ips)
    .bind(&controls.allowed_services)
    .fetch_one(&mut *conn)
    .await?;
    Ok(CreatedKey {
        id,
        key: new.key,
        prefix: new.prefix,
        mode,
    })
}

/// Changes a key's name or lists. The gateway's cache drops the key's caller when the update
/// commits (the `api_keys` trigger), so every api process enforces the new lists within a
/// second. Another user's or partner's key: `NotFound`.
#[tracing::instrument(skip(conn, req))]
pub async fn update(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    key_id: i64,
    req: &KeyUpdate,
    actor: Actor,
) -> Result<KeyInfo> {
    let controls = Controls::checked(
        conn,
        req.name.as_deref(),
        None,
        req.allowed_ips.as_deref(),
        req.allowed_services.as_deref(),
    )
    .await?;
    let before: Option<serde_json::Value> = sqlx::query_scalar(
        "UPDATE api_keys k
            SET name = COALESCE($4, k.name),
                allowed_ips = COALESCE($5::text[]::inet[], k.allowed_ips),
                allowed_services = COALESCE($6, k.allowed_services)
           FROM api_keys old
          WHERE old.id = k.id AND k.id = $1 AND k.user_id = $2 AND k.partner_id = $3
      RETURNING jsonb_build_object('name', old.name, 'allowed_ips', old.allowed_ips, 'allowed_services', old.allowed_services)",
    )
    .bind(key_id)
    .bind(user_id)
    .bind(partner_id)
    .bind(&controls.name)
    .bind(&controls.allowed_ips)
    .bind(&controls.allowed_services)
    .fetch_optional(&mut *conn)
    .await?;
    let before = before.ok_or(Error::NotFound)?;
    let key = one(conn, partner_id, user_id, key_id).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api_key.update",
            entity: "api_key",
            entity_id: key_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(before),
            after: Some(serde_json::json!({
                "user_id": user_id, "name": key.name,
                "allowed_ips": key.allowed_ips, "allowed_services": key.allowed_services,
            })),
        },
    )
    .await?;
    Ok(key)
}

/// Longest grace a roll gives the old key: a week.
pub const MAX_ROLL_GRACE_MINUTES: i64 = 7 * 24 * 60;

/// Rolls a key: a new key of the same mode, and the old one expiring `grace_minutes` from now
/// (0: at once; an earlier expiry it already had is kept). The old key must be the user's and
/// still usable (`NotFound` otherwise). The new key does not count against
/// [`MAX_ACTIVE_KEYS`]: it replaces one.
#[tracing::instrument(skip(conn))]
pub async fn roll(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    key_id: i64,
    grace_minutes: i64,
    actor: Actor,
) -> Result<CreatedKey> {
    if !(0..=MAX_ROLL_GRACE_MINUTES).contains(&grace_minutes) {
        return Err(Error::invalid(
            "grace_minutes",
            format!("Grace period must be between 0 and {MAX_ROLL_GRACE_MINUTES} minutes"),
        ));
    }
    // The old key's settings go to the new one: a roll replaces the secret, not the policy. Its
    // expiry before this roll, too (the new one lives as long as the old one was meant to).
    let old: Option<Rolled> = sqlx::query_as(
        "UPDATE api_keys k SET expires_at = LEAST(COALESCE(k.expires_at, 'infinity'), now() + make_interval(mins => $4::int))
           FROM api_keys old
          WHERE old.id = k.id AND k.id = $1 AND k.user_id = $2 AND k.partner_id = $3
            AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
         RETURNING k.mode, k.expires_at, old.expires_at AS meant_to_expire, k.name,
                   k.allowed_ips::text[] AS allowed_ips,
                   k.allowed_services",
    )
    .bind(key_id)
    .bind(user_id)
    .bind(partner_id)
    .bind(i32::try_from(grace_minutes).unwrap_or(i32::MAX))
    .fetch_optional(&mut *conn)
    .await?;
    let old = old.ok_or(Error::NotFound)?;
    let mode = Mode::parse(&old.mode)?;
    let controls = Controls {
        name: Some(old.name),
        expires_at: old.meant_to_expire,
        allowed_ips: Some(old.allowed_ips),
        allowed_services: Some(old.allowed_services),
    };
    let created = insert(conn, partner_id, user_id, mode, &controls).await?;
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api_key.roll",
            entity: "api_key",
            entity_id: key_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({"user_id": user_id, "old_expires_at": old.expires_at, "new_key_id": created.id, "prefix": created.prefix})),
        },
    )
    .await?;
    Ok(created)
}

#[derive(sqlx::FromRow)]
struct Rolled {
    mode: String,
    expires_at: Option<DateTime<Utc>>,
    meant_to_expire: Option<DateTime<Utc>>,
    name: String,
    allowed_ips: Vec<String>,
    allowed_services: Vec<String>,
}

/// How stale a key's `last_used_at` may get: a key in use is written at most once per this
/// interval, so a busy key costs no row write per call.
pub const LAST_USE_RESOLUTION_SECS: i64 = 60;

/// Records that the gateway saw these keys now (the lists' "last used"). Rows written less than
/// [`LAST_USE_RESOLUTION_SECS`] ago are left alone.
#[tracing::instrument(skip_all)]
pub async fn mark_used(conn: &mut PgConnection, key_ids: &[i64]) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE api_keys SET last_used_at = now()
          WHERE id = ANY($1) AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))",
    )
    .bind(key_ids)
    .bind(LAST_USE_RESOLUTION_SECS as f64)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// A key's columns as lists show them, with its usage over the dashboard's window (the last
/// 30 IST days, today included; `api_transactions_key_idx`).
const SELECT: &str = "SELECT k.id, k.name, k.prefix, k.mode, {STATUS} AS status, k.created_at, k.last_used_at, k.expires_at,
            ARRAY(SELECT abbrev(a) FROM unnest(k.allowed_ips) a) AS allowed_ips, k.allowed_services,
            COALESCE(u.calls, 0) AS calls, COALESCE(u.spend_paise, 0) AS spend_paise
       FROM api_keys k
       LEFT JOIN LATERAL (
            SELECT count(*) AS calls,
                   COALESCE(sum(t.user_amount_paise) FILTER (WHERE t.status = 'success'), 0)::bigint AS spend_paise
              FROM api_transactions t
             WHERE t.key_id = k.id
               AND t.created_at >= ((((now() AT TIME ZONE 'Asia/Kolkata')::date - 29)::timestamp) AT TIME ZONE 'Asia/Kolkata')
       ) u ON true
      WHERE k.user_id = $1 AND k.partner_id = $2";

/// [`SELECT`] with the status (its columns are unambiguous there: `u` has only the usage) and
/// `filter` after it.
fn select(filter: &str) -> String {
    format!("{} {filter}", SELECT.replace("{STATUS}", STATUS))
}

/// The user's keys, newest first. Another partner's user: `NotFound`.
pub async fn list(conn: &mut PgConnection, partner_id: i64, user_id: i64) -> Result<Vec<KeyInfo>> {
    crate::partners::tenancy::user_of_partner(conn, partner_id, user_id).await?;
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(select(
        "ORDER BY k.created_at DESC, k.id DESC",
    )))
    .bind(user_id)
    .bind(partner_id)
    .fetch_all(conn)
    .await?;
    rows.into_iter().map(KeyInfo::try_from).collect()
}

/// One of the user's keys; another's: `NotFound`.
pub async fn one(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    key_id: i64,
) -> Result<KeyInfo> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(select("AND k.id = $3")))
        .bind(user_id)
        .bind(partner_id)
        .bind(key_id)
        .fetch_optional(conn)
        .await?;
    row.ok_or(Error::NotFound)?.try_into()
}

/// Revokes a key at once for every api process (they look keys up in Postgres). Revoking a
/// revoked key changes nothing and succeeds; a key of another user or partner is `NotFound`.
#[tracing::instrument(skip(conn))]
pub async fn revoke(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    key_id: i64,
    actor: Actor,
) -> Result<()> {
    let newly: Option<bool> = sqlx::query_scalar(
        "UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, now())
           FROM api_keys old WHERE old.id = k.id AND k.id = $1 AND k.user_id = $2 AND k.partner_id = $3
         RETURNING old.revoked_at IS NULL",
    )
    .bind(key_id)
    .bind(user_id)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    if !newly.ok_or(Error::NotFound)? {
        return Ok(());
    }
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "api_key.revoke",
            entity: "api_key",
            entity_id: key_id.to_string(),
            partner_id: Some(partner_id),
            before: None,
            after: Some(serde_json::json!({"user_id": user_id})),
        },
    )
    .await?;
    Ok(())
}

/// The owner of a usable key, as the gateway needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyOwner {
    pub key_id: i64,
    pub partner_id: i64,
    pub user_id: i64,
    pub mode: Mode,
}

/// Finds the usable key whose hash is `hash(key)`; revoked, expired or unknown keys: `None`.
pub async fn find_usable(conn: &mut PgConnection, key: &str) -> Result<Option<KeyOwner>> {
    let row: Option<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT id, partner_id, user_id, mode FROM api_keys
          WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())",
    )
    .bind(&hash(key)[..])
    .fetch_optional(conn)
    .await?;
    row.map(|(key_id, partner_id, user_id, mode)| {
        Ok(KeyOwner {
            key_id,
            partner_id,
            user_id,
            mode: Mode::parse(&mode)?,
        })
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_the_agreed_shape() {
        let k = generate(Mode::Live);
        assert!(k.key.starts_with("kyc_live_"));
        assert_eq!(k.key.len(), 9 + RANDOM_LEN);
        assert!(k.key[9..].chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(k.prefix, &k.key[..PREFIX_LEN]);
        assert_eq!(k.hash, hash(&k.key));
        let s = generate(Mode::Sandbox);
        assert!(s.key.starts_with("kyc_test_"));
        assert_ne!(generate(Mode::Live).key, k.key);
        assert!(
            !format!("{k:?}").contains(&k.key),
            "Debug must not show the key"
        );
    }
}
