//! Webhook endpoints of an owner: URL, events, enabled, and the signing secret, sealed at rest
//! with `ENCRYPTION_KEY` (it is needed in clear to sign) and shown once, at creation and at a
//! roll. A roll keeps the old secret signing for [`ROLL_OVERLAP`] so receivers can switch.
//!
//! A URL must lead to a public address, as a partner's SMTP host must (`infra::public_addr`):
//! checked when saved and again by the job right before each connection (`sender`), unless
//! `WEBHOOK_ALLOW_PRIVATE`.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use super::{Owner, signing};
use crate::{Error, Result, error::Violations, infra::crypto::SecretBox, infra::public_addr};

/// How long a rolled secret keeps signing beside the new one.
pub const ROLL_OVERLAP: Duration = Duration::from_secs(24 * 3600);

/// Endpoints per owner: enough for any integration, few enough that one event stays cheap.
pub const MAX_PER_OWNER: i64 = 20;

pub const PRIVATE_URL: &str = "URL must lead to a public address, not a local or private one";

/// An endpoint as its owner sees it (never its secret).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Endpoint {
    pub id: i64,
    pub url: String,
    pub events: Vec<String>,
    pub enabled: bool,
    /// Why the platform disabled it (every attempt failed for 5 days), while it is disabled.
    pub disabled_reason: Option<String>,
    /// Until when the secret before the last roll still signs too.
    pub previous_secret_until: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// A new endpoint with its secret, shown in this answer only.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CreatedEndpoint {
    #[serde(flatten)]
    pub endpoint: Endpoint,
    /// `whsec_…`: verify the deliveries' signatures with it. Shown once.
    pub secret: String,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEndpoint {
    pub url: String,
    pub events: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointPatch {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub enabled: Option<bool>,
}

const COLUMNS: &str =
    "id, url, events, enabled, disabled_reason, previous_secret_until, created_at";

/// `url` trimmed, if it is an http(s) URL with a host and no credentials; else the message.
pub fn parse_url(url: &str) -> std::result::Result<String, &'static str> {
    let url = url.trim();
    if url.is_empty() {
        return Err("URL is required");
    }
    if url.len() > 2000 {
        return Err("URL is too long");
    }
    let parsed = reqwest::Url::parse(url).map_err(|_| "URL must be an http or https URL")?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err("URL must be an http or https URL");
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("URL must not carry a user name or password");
    }
    Ok(url.to_owned())
}

/// The events, each one the owner may subscribe to, without repeats; at least one.
pub fn parse_events(owner: Owner, events: &[String]) -> std::result::Result<Vec<String>, String> {
    if events.is_empty() {
        return Err("Choose at least one event".into());
    }
    let mut out: Vec<String> = Vec::new();
    for e in events {
        let e = e.trim();
        if !owner.event_types().contains(&e) {
            return Err(format!(
                "Unknown event {e:?}: one of {}",
                owner.event_types().join(", ")
            ));
        }
        if !out.iter().any(|x| x == e) {
            out.push(e.to_owned());
        }
    }
    Ok(out)
}

/// The save-time check of a URL's host: 422 when it resolves to a non-public address. A name
/// that does not resolve now is accepted: the job checks again before each connection.
pub async fn check_url(url: &str, allow_private: bool) -> Result<()> {
    if allow_private {
        return Ok(());
    }
    let parsed = reqwest::Url::parse(url).map_err(|_| Error::invalid("url", PRIVATE_URL))?;
    let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
        return Err(Error::invalid("url", PRIVATE_URL));
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match public_addr::resolve(host, port, Duration::from_secs(3)).await {
        Some(addrs) if public_addr::first_non_public(&addrs).is_some() => {
            Err(Error::invalid("url", PRIVATE_URL))
        }
        _ => Ok(()),
    }
}

fn checked(
    owner: Owner,
    url: Option<&str>,
    events: Option<&[String]>,
) -> Result<(Option<String>, Option<Vec<String>>)> {
    let mut v = Violations::new();
    let url = url.and_then(|u| parse_url(u).map_err(|m| v.add("url", m)).ok());
    let events = events.and_then(|e| parse_events(owner, e).map_err(|m| v.add("events", m)).ok());
    v.into_result()?;
    Ok((url, events))
}

/// Creates an endpoint; the caller checked the URL's address ([`check_url`]) before opening
/// its transaction. 422 past [`MAX_PER_OWNER`].
pub async fn create(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    owner: Owner,
    req: &NewEndpoint,
) -> Result<CreatedEndpoint> {
    let (url, events) = checked(owner, Some(&req.url), Some(&req.events))?;
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM webhook_endpoints WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2",
    )
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .fetch_one(&mut *conn)
    .await?;
    if count >= MAX_PER_OWNER {
        return Err(Error::invalid(
            "url",
            format!("At most {MAX_PER_OWNER} endpoints: delete one first"),
        ));
    }
    let secret = signing::new_secret();
    let endpoint: Endpoint = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO webhook_endpoints (partner_id, user_id, url, events, secret_enc)
         VALUES ($1, $2, $3, $4, $5) RETURNING {COLUMNS}"
    )))
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .bind(url)
    .bind(events)
    .bind(secrets.seal(&secret))
    .fetch_one(&mut *conn)
    .await?;
    Ok(CreatedEndpoint { endpoint, secret })
}

/// The owner's endpoints, oldest first.
pub async fn list(conn: &mut PgConnection, owner: Owner) -> Result<Vec<Endpoint>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM webhook_endpoints
          WHERE partner_id = $1 AND user_id IS NOT DISTINCT FROM $2 ORDER BY id"
    )))
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .fetch_all(conn)
    .await?)
}

/// One of the owner's endpoints; anyone else's is `NotFound`.
pub async fn get(conn: &mut PgConnection, owner: Owner, id: i64) -> Result<Endpoint> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM webhook_endpoints
          WHERE id = $1 AND partner_id = $2 AND user_id IS NOT DISTINCT FROM $3"
    )))
    .bind(id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Sets what `patch` names. Enabling again forgets the failures that disabled it. A new URL
/// must have passed [`check_url`].
pub async fn update(
    conn: &mut PgConnection,
    owner: Owner,
    id: i64,
    patch: &EndpointPatch,
) -> Result<Endpoint> {
    let (url, events) = checked(owner, patch.url.as_deref(), patch.events.as_deref())?;
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE webhook_endpoints
            SET url = COALESCE($4, url), events = COALESCE($5, events), enabled = COALESCE($6, enabled),
                failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
                disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END,
                updated_at = now()
          WHERE id = $1 AND partner_id = $2 AND user_id IS NOT DISTINCT FROM $3
      RETURNING {COLUMNS}"
    )))
    .bind(id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .bind(url)
    .bind(events)
    .bind(patch.enabled)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// Deletes the endpoint with its deliveries.
pub async fn delete(conn: &mut PgConnection, owner: Owner, id: i64) -> Result<()> {
    let n = sqlx::query(
        "DELETE FROM webhook_endpoints WHERE id = $1 AND partner_id = $2 AND user_id IS NOT DISTINCT FROM $3",
    )
    .bind(id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .execute(conn)
    .await?
    .rows_affected();
    if n == 0 {
        return Err(Error::NotFound);
    }
    Ok(())
}

/// A new secret, returned once; the current one keeps signing for [`ROLL_OVERLAP`]. A second
/// roll within that time drops the oldest.
pub async fn roll_secret(
    conn: &mut PgConnection,
    secrets: &SecretBox,
    owner: Owner,
    id: i64,
) -> Result<String> {
    let secret = signing::new_secret();
    let n = sqlx::query(
        "UPDATE webhook_endpoints
            SET previous_secret_enc = secret_enc, previous_secret_until = now() + $4 * interval '1 second',
                secret_enc = $5, updated_at = now()
          WHERE id = $1 AND partner_id = $2 AND user_id IS NOT DISTINCT FROM $3",
    )
    .bind(id)
    .bind(owner.partner_id)
    .bind(owner.user_id)
    .bind(ROLL_OVERLAP.as_secs_f64())
    .bind(secrets.seal(&secret))
    .execute(conn)
    .await?
    .rows_affected();
    if n == 0 {
        return Err(Error::NotFound);
    }
    Ok(secret)
}

/// Who to tell that endpoint `id` was disabled: the owner's address, its partner (mail to an
/// end user goes out under the partner's name) and the URL. `None` when it is gone.
pub async fn disabled_notice(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Option<(String, Option<i64>, String)>> {
    Ok(sqlx::query_as(
        "SELECT COALESCE(u.email::text, p.email::text), CASE WHEN w.user_id IS NULL THEN NULL ELSE w.partner_id END, w.url
           FROM webhook_endpoints w
           JOIN partners p ON p.id = w.partner_id
      LEFT JOIN end_users u ON u.id = w.user_id
          WHERE w.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            parse_url(" https://a.example/hook ").unwrap(),
            "https://a.example/hook"
        );
        assert!(
            parse_url("http://127.0.0.1:9/x").is_ok(),
            "the address is checked apart"
        );
        for bad in [
            "",
            "ftp://a.example/",
            "a.example/hook",
            "https://u:p@a.example/",
            "javascript:alert(1)",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn events_by_owner() {
        let user = Owner::user(1, 2);
        assert_eq!(
            parse_events(user, &["batch.completed".into(), "batch.completed".into()]).unwrap(),
            ["batch.completed"]
        );
        assert!(parse_events(user, &["user.signed_up".into()]).is_err());
        assert!(parse_events(Owner::partner(1), &["user.signed_up".into()]).is_ok());
        assert!(parse_events(user, &[]).is_err());
    }

    #[tokio::test]
    async fn private_and_metadata_urls_are_refused_unless_allowed() {
        for url in [
            "http://127.0.0.1:8080/hook",
            "http://localhost/hook",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/hook",
            "http://10.0.0.7/hook",
            "http://[fd00:ec2::254]/",
        ] {
            assert!(check_url(url, false).await.is_err(), "{url} accepted");
            assert!(
                check_url(url, true).await.is_ok(),
                "{url} refused when allowed"
            );
        }
        assert!(check_url("https://8.8.8.8/hook", false).await.is_ok());
    }
}
