//! The metered gateway's checks (design.md, "The metered gateway"), in their order:
//!
//! 1. the API key is valid (401): known by its SHA-256, not revoked, not expired;
//! 2. the user and its partner are active (403);
//! 3. the client IP is not blocked for this user, and is allow-listed for this user while the
//!    partner's Server Security is on (403), and is on the key's own IP list when it has one
//!    (403 `key_ip_not_allowed`);
//! 4. the API exists (404), is on the key's API list when it has one (403
//!    `key_api_not_allowed`), is visible for this user, its category and the partner, the partner
//!    is not under 'Restrict ALL APIs', and the call is allowed for the user's access (403):
//!    a partial-access user makes sandbox calls only, and a sandbox key calls only the sandbox
//!    list;
//! 5. the required fields are present (422, naming them).
//!
//! Rate limit (429) and money (402) follow in the api and `wallets::charge`. The price comes
//! from `pricing::resolve`, the same resolution every screen shows.
//!
//! A call is a *sandbox call* (the catalogue's sample answer, no upstream call) when the key is
//! a sandbox key or the partner is in Test api mode (`partners.sandbox_enabled`, the super
//! admin's 'Test api'); otherwise it is *live*. A sandbox call is charged like a live one so
//! that the whole money flow can be rehearsed.

pub mod api_keys;
pub mod batches;
pub mod idempotency;
pub mod ip_access;
pub mod ip_hits;
pub mod key_controls;
pub mod logs;
pub mod results;
pub mod visibility;

pub mod call;
pub mod hits;

use std::{net::IpAddr, sync::LazyLock};

use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

use crate::{Error, Result, catalogue::pricing};

/// Who is calling, as one query over the key, its user and partner, and the IP lists.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Caller {
    pub key_id: i64,
    pub partner_id: i64,
    pub user_id: i64,
    /// `live` or `sandbox`.
    pub key_mode: String,
    pub user_active: bool,
    pub full_access: bool,
    pub partner_active: bool,
    pub server_security: bool,
    pub restrict_all_apis: bool,
    /// Test api mode: every call of the partner is a sandbox call.
    pub test_mode: bool,
    /// The super admin's Batch Processing for the partner: batches may be submitted.
    pub batch_processing: bool,
    /// The partner charges its sandbox calls (off: they are free).
    pub charge_sandbox: bool,
    /// The partner's own API base URL, when set and switched on.
    pub base_url: Option<String>,
    pub ip_blocked: bool,
    pub ip_listed: bool,
    pub user_wallet_id: Option<i64>,
    pub partner_wallet_id: Option<i64>,
    /// When the key stops working (a roll's grace, or the expiry chosen at creation). Callers
    /// are answered only for usable keys ([`check_expiry`]); `None` for the console's session caller.
    pub key_expires_at: Option<DateTime<Utc>>,
    /// The key's own IP allow-list refuses this client address (an empty list allows any).
    pub key_ip_refused: bool,
    /// The services the key may call; empty: any the user may call.
    pub key_services: Vec<String>,
}

impl Caller {
    pub fn sandbox(&self) -> bool {
        self.key_mode == "sandbox" || self.test_mode
    }

    /// The key's API list lets it call `service`.
    pub fn key_allows(&self, service: &str) -> bool {
        self.key_services.is_empty() || self.key_services.iter().any(|s| s == service)
    }
}

/// The refusal of a key past its expiry: 401 as for any unusable key, but saying why, since the
/// client holds the key and a bare "invalid" sends people looking for typos.
pub fn expired(at: DateTime<Utc>) -> Error {
    Error::Unauthorized(format!(
        "This API key expired at {}",
        at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    ))
}

/// Check 1's last part on a caller read with its key: an expired key is refused.
pub fn check_expiry(c: &Caller) -> Result<()> {
    match c.key_expires_at {
        Some(at) if at <= Utc::now() => Err(expired(at)),
        _ => Ok(()),
    }
}

fn usable(c: Caller) -> Result<Caller> {
    check_expiry(&c)?;
    Ok(c)
}

/// SHA-256 of a key, as `api_keys.key_hash` stores it.
pub fn key_hash(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// `kyc_live_` or `kyc_test_` and 32 base62 characters: anything else is refused before the
/// database is asked.
pub fn well_formed(key: &str) -> bool {
    let rest = key
        .strip_prefix("kyc_live_")
        .or_else(|| key.strip_prefix("kyc_test_"));
    rest.is_some_and(|r| r.len() == 32 && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// What checks 2 to 5 need of the user, its partner and the IP lists; `{key}` is the key's
/// columns and `{from}` where the user comes from. The key's columns include its expiry (checked
/// by [`check_expiry`] after the read, so an expired key is told why) and its own lists.
/// `{ip}` (optional) replaces the two IP columns: the gateway's cache reads the user's lists
/// instead, to answer any IP from memory.
macro_rules! caller_sql {
    ($key:literal, $from:literal, $where:literal) => {
        caller_sql!(
            $key,
            $from,
            $where,
            "EXISTS (SELECT 1 FROM blocked_ips b WHERE b.user_id = u.id AND b.ip >>= $2::inet) AS ip_blocked,
             EXISTS (SELECT 1 FROM ip_whitelist w WHERE w.user_id = u.id AND w.ip >>= $2::inet) AS ip_listed"
        )
    };
    ($key:literal, $from:literal, $where:literal, $ip:literal) => {
        concat!(
            "SELECT ", $key, ", u.partner_id, u.id AS user_id,
                    u.is_active AS user_active, u.full_access, p.is_active AS partner_active,
                    p.server_security, p.restrict_all_apis, p.sandbox_enabled AS test_mode, p.batch_processing,
                    p.charge_sandbox,
                    CASE WHEN p.base_url_status THEN NULLIF(p.api_base_url, '') END AS base_url, ", $ip, ",
                    (SELECT id FROM wallets WHERE user_id = u.id AND kind = 'api') AS user_wallet_id,
                    (SELECT id FROM wallets WHERE partner_id = u.partner_id AND user_id IS NULL AND kind = 'api') AS partner_wallet_id
               FROM ", $from, "
               JOIN partners p ON p.id = u.partner_id
              WHERE ", $where
        )
    };
}

// After `caller_sql!`, which it uses.
pub mod cache;

/// Check 1's refusal of a key that is malformed, unknown or revoked (an expired one is told when
/// it expired, `check_expiry`).
fn unknown_key() -> Error {
    Error::Unauthorized("Invalid or revoked API key".into())
}

/// Check 1: the key, with what checks 2 to 5 need.
#[tracing::instrument(skip_all)]
pub async fn caller(conn: &mut PgConnection, key: &str, ip: IpAddr) -> Result<Caller> {
    if !well_formed(key) {
        return Err(unknown_key());
    }
    let caller: Option<Caller> = sqlx::query_as(caller_sql!(
        "k.id AS key_id, k.mode AS key_mode, k.expires_at AS key_expires_at, k.allowed_services AS key_services,
         (cardinality(k.allowed_ips) > 0 AND NOT ($2::inet <<= ANY (k.allowed_ips))) AS key_ip_refused",
        "api_keys k JOIN end_users u ON u.id = k.user_id AND u.partner_id = k.partner_id",
        "k.key_hash = $1 AND k.revoked_at IS NULL"
    ))
    .bind(key_hash(key).as_slice())
    .bind(ip.to_string())
    .fetch_optional(&mut *conn)
    .await?;
    usable(caller.ok_or_else(unknown_key)?)
}

/// The caller of a batch submitted with the key `key_id`, as the key is now: a key revoked or
/// expired since is `Unauthorized`, as at the gateway.
#[tracing::instrument(skip(conn))]
pub async fn key_caller(conn: &mut PgConnection, key_id: i64, ip: IpAddr) -> Result<Caller> {
    let caller: Option<Caller> = sqlx::query_as(caller_sql!(
        "k.id AS key_id, k.mode AS key_mode, k.expires_at AS key_expires_at, k.allowed_services AS key_services,
         (cardinality(k.allowed_ips) > 0 AND NOT ($2::inet <<= ANY (k.allowed_ips))) AS key_ip_refused",
        "api_keys k JOIN end_users u ON u.id = k.user_id AND u.partner_id = k.partner_id",
        "k.id = $1 AND k.revoked_at IS NULL"
    ))
    .bind(key_id)
    .bind(ip.to_string())
    .fetch_optional(&mut *conn)
    .await?;
    usable(caller.ok_or_else(unknown_key)?)
}

/// The portal's signed-in user as a caller without a key (its Try-it console and its APIs
/// page): a sandbox caller when `sandbox`, else as with a live key. Check 1 is the session's.
/// Its `key_id` is the user's id negated, so the per-key rate limit gives the console a budget
/// of its own that no real key shares.
#[tracing::instrument(skip_all)]
pub async fn session_caller(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    ip: IpAddr,
    sandbox: bool,
) -> Result<Caller> {
    let caller: Option<Caller> = sqlx::query_as(caller_sql!(
        "-u.id AS key_id, CASE WHEN $3 THEN 'sandbox' ELSE 'live' END AS key_mode,
         NULL::timestamptz AS key_expires_at, '{}'::text[] AS key_services, false AS key_ip_refused",
        "end_users u",
        "u.id = $1 AND u.partner_id = $4"
    ))
    .bind(user_id)
    .bind(ip.to_string())
    .bind(sandbox)
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    caller.ok_or(Error::NotFound)
}

/// Checks 2 and 3 on a known caller (apart from check 1, so that refused calls of a known user
/// still count as IP hits).
pub fn admit(c: &Caller) -> Result<()> {
    if !c.partner_active {
        return Err(Error::Forbidden("This account is inactive".into()));
    }
    if !c.user_active {
        return Err(Error::Forbidden("This user is inactive".into()));
    }
    if c.ip_blocked {
        return Err(Error::Forbidden("This IP address is blocked".into()));
    }
    if c.server_security && !c.ip_listed {
        return Err(Error::Forbidden(
            "This IP address is not allow-listed".into(),
        ));
    }
    if c.key_ip_refused {
        return Err(Error::Denied {
            code: "key_ip_not_allowed",
            message: "This API key may not be used from this IP address".into(),
        });
    }
    Ok(())
}

/// What the gateway needs of a catalogue entry to call its upstream.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Endpoint {
    /// `get` or `post`.
    pub method: String,
    pub endpoint: String,
    /// Comma-separated input fields forwarded upstream (empty: all of them).
    pub param_name: String,
    /// Comma-separated headers forwarded upstream, from the request's headers or its fields.
    pub header_param_name: String,
    pub required_fields: Vec<String>,
    /// The sample answer, returned by sandbox calls.
    pub response_code: serde_json::Value,
    pub in_sandbox_list: bool,
}

impl Endpoint {
    pub fn params(&self) -> Vec<&str> {
        split_names(&self.param_name)
    }
    pub fn headers(&self) -> Vec<&str> {
        split_names(&self.header_param_name)
    }
}

fn split_names(s: &str) -> Vec<&str> {
    s.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect()
}

/// An authorised call: its price and its upstream.
#[derive(Debug, Clone)]
pub struct Call {
    pub price: pricing::Price,
    pub endpoint: Endpoint,
    pub sandbox: bool,
}

/// The price and the endpoint in one round trip: this runs on every call.
static AUTHORIZE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT pr.*, c.method, c.endpoint, c.param_name, c.header_param_name, c.required_fields, c.response_code,
                EXISTS (SELECT 1 FROM sandbox_apis s WHERE s.api_id = c.id) AS in_sandbox_list
           FROM ({}) pr JOIN api_catalogue c ON c.id = pr.api_id",
        *pricing::PRICE_OF_ONE
    )
});

/// A service's price for one user with its catalogue entry, as check 4 reads them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Priced {
    #[sqlx(flatten)]
    pub price: pricing::Price,
    #[sqlx(flatten)]
    pub endpoint: Endpoint,
}

/// Checks 4 and 5 for `caller` calling `service` with `input` (the request's JSON object).
#[tracing::instrument(skip(conn, caller, input))]
pub async fn authorize(
    conn: &mut PgConnection,
    caller: &Caller,
    service: &str,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Result<Call> {
    let call = authorize_service(conn, caller, service).await?;
    missing_fields(&call.endpoint.required_fields, input)?;
    Ok(call)
}

/// Check 4 alone: what a batch is checked against before its rows are read.
pub async fn authorize_service(
    conn: &mut PgConnection,
    caller: &Caller,
    service: &str,
) -> Result<Call> {
    let priced = priced(conn, caller.partner_id, caller.user_id, service).await?;
    check_service(caller, priced.ok_or(Error::NotFound)?)
}

/// The price and the endpoint of `service` for a user (`None`: no such service).
pub async fn priced(
    conn: &mut PgConnection,
    partner_id: i64,
    user_id: i64,
    service: &str,
) -> Result<Option<Priced>> {
    Ok(sqlx::query_as(AUTHORIZE.as_str())
        .bind(partner_id)
        .bind(user_id)
        .bind(service)
        .fetch_optional(&mut *conn)
        .await?)
}

/// Check 4 on a service's price and entry: visibility, Restrict ALL APIs, access and sandbox.
pub fn check_service(caller: &Caller, Priced { price, endpoint }: Priced) -> Result<Call> {
    let sandbox = caller.sandbox();
    if !caller.key_allows(&price.service) {
        return Err(Error::Denied {
            code: "key_api_not_allowed",
            message: format!("This API key may not call {}", price.service),
        });
    }
    if !price.visible {
        return Err(Error::Forbidden("This API is not available to you".into()));
    }
    if caller.restrict_all_apis {
        return Err(Error::Forbidden(
            "API access is restricted for this account".into(),
        ));
    }
    if !sandbox && !caller.full_access {
        return Err(Error::Forbidden(
            "Partial access allows sandbox calls only".into(),
        ));
    }
    if caller.key_mode == "sandbox" && !endpoint.in_sandbox_list {
        return Err(Error::Forbidden(
            "This API is not available in the sandbox".into(),
        ));
    }
    Ok(Call {
        price,
        endpoint,
        sandbox,
    })
}

/// 422 naming every required field that is absent, null or blank.
pub fn missing_fields(
    required: &[String],
    input: &serde_json::Map<String, serde_json::Value>,
) -> Result<()> {
    let mut v = crate::error::Violations::new();
    for f in required {
        let present = match input.get(f) {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::String(s)) => !s.trim().is_empty(),
            Some(_) => true,
        };
        v.check(present, f, &format!("{f} is required"));
    }
    v.into_result()
}

/// One entry of `GET /verify`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Offer {
    pub service: String,
    pub name: String,
    pub category: String,
    /// What this user pays per call, live or sandbox.
    pub price_paise: i64,
    pub required_fields: Vec<String>,
    /// On the sandbox list: a sandbox key (and the portal's Try-it console) may call it.
    pub sandbox: bool,
    /// The catalogue's description, for the API's documentation page.
    pub description: String,
    /// The catalogue's sample answer (what a sandbox call answers).
    #[schema(value_type = Object)]
    pub sample_response: serde_json::Value,
}

/// What `caller` may call: every API that passes check 4.
pub async fn offers(conn: &mut PgConnection, caller: &Caller) -> Result<Vec<Offer>> {
    if caller.restrict_all_apis || (!caller.sandbox() && !caller.full_access) {
        return Ok(Vec::new());
    }
    let prices = pricing::prices(conn, caller.partner_id, Some(caller.user_id), None).await?;
    type Meta = (Vec<String>, bool, String, serde_json::Value);
    let rows: Vec<(i64, Vec<String>, bool, String, serde_json::Value)> = sqlx::query_as(
        "SELECT c.id, c.required_fields, EXISTS (SELECT 1 FROM sandbox_apis s WHERE s.api_id = c.id),
                c.description, c.response_code
           FROM api_catalogue c",
    )
    .fetch_all(&mut *conn)
    .await?;
    let meta: std::collections::HashMap<i64, Meta> = rows
        .into_iter()
        .map(|(id, f, s, d, r)| (id, (f, s, d, r)))
        .collect();
    let sandbox_key = caller.key_mode == "sandbox";
    Ok(prices
        .into_iter()
        .filter(|p| p.visible && caller.key_allows(&p.service))
        .filter_map(|p| {
            let (required_fields, in_sandbox, description, sample_response) =
                meta.get(&p.api_id).cloned().unwrap_or_default();
            if sandbox_key && !in_sandbox {
                return None;
            }
            Some(Offer {
                service: p.service,
                name: p.name,
                category: p.category,
                price_paise: p.user_amount_paise,
                required_fields,
                sandbox: in_sandbox,
                description,
                sample_response,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_format() {
        assert!(well_formed("kyc_live_0123456789abcdefghijABCDEFGHIJ01"));
        assert!(well_formed("kyc_test_0123456789abcdefghijABCDEFGHIJ01"));
        assert!(!well_formed("kyc_live_0123456789abcdefghijABCDEFGHIJ0"));
        assert!(!well_formed("kyc_prod_0123456789abcdefghijABCDEFGHIJ01"));
        assert!(!well_formed("kyc_live_0123456789abcdefghijABCDEFGHI-01"));
        assert!(!well_formed(""));
    }

    #[test]
    fn missing_fields_named() {
        let input = serde_json::json!({"a": "x", "b": " ", "c": null, "e": 0});
        let err = missing_fields(
            &["a".into(), "b".into(), "c".into(), "d".into(), "e".into()],
            input.as_object().unwrap(),
        )
        .unwrap_err();
        let Error::Invalid { fields, .. } = err else {
            panic!()
        };
        assert_eq!(fields.keys().cloned().collect::<Vec<_>>(), ["b", "c", "d"]);
    }
}
