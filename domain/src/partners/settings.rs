//! The settings the gateway honours, with the screens that set them: the partner's own (My
//! Account: Server Security, Landing page, the documentation link) and the super admin's per
//! client (client details: Test api, Batch Processing, User Status, Restrict ALL APIs, the API
//! base URL with its status, the documentation link). Both live on the `partners` row.
//!
//! Deactivating a client (`is_active = false`) refuses its sign-in and every request of its
//! sessions (the partner extractor reads `is_active` on each request).

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Error, Result,
    error::Violations,
    infra::audit::{self, Actor},
};

/// The spec's text for a documentation link or base URL that does not parse.
pub const INVALID_URL: &str = "Invalid URL";
const MAX_URL_LEN: usize = 2000;

/// My Account → Settings and Basic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct PartnerSettings {
    pub server_security: bool,
    pub landing_page: bool,
    pub documentation_link: Option<String>,
    /// Sandbox calls are charged at the live prices (to rehearse the money flow); off, they are
    /// free (recorded at ₹0).
    pub charge_sandbox: bool,
}

/// A PATCH: absent fields stay; `documentation_link: ""` clears the link.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PartnerSettingsPatch {
    pub server_security: Option<bool>,
    pub landing_page: Option<bool>,
    pub documentation_link: Option<String>,
    pub charge_sandbox: Option<bool>,
}

/// Client details → Settings and Documentation, as the super admin sets them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ClientSettings {
    /// Test api: every call of the client's users answers the sample response.
    pub test_api: bool,
    pub batch_processing: bool,
    /// User Status: false refuses the client's sign-in, sessions and gateway calls.
    pub is_active: bool,
    /// Restrict ALL APIs: the gateway refuses every API of the client (403).
    pub restrict_all_apis: bool,
    /// The upstream the gateway calls for this client: base URL + the catalogue endpoint.
    pub base_url: Option<String>,
    /// The base URL before the last change.
    pub old_base_url: Option<String>,
    /// Whether `base_url` is used (when false the gateway uses the platform's upstream).
    pub base_url_active: bool,
    pub documentation_link: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientSettingsPatch {
    pub test_api: Option<bool>,
    pub batch_processing: Option<bool>,
    pub is_active: Option<bool>,
    pub restrict_all_apis: Option<bool>,
    pub base_url: Option<String>,
    pub base_url_active: Option<bool>,
    pub documentation_link: Option<String>,
}

/// A URL with one of `schemes`, a host that is a domain with a dot, `localhost` or an IP, an
/// optional port, path, query and fragment; no credentials, no spaces.
pub fn valid_url(s: &str, schemes: &[&str]) -> bool {
    if s.len() > MAX_URL_LEN || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Ok(u) = reqwest::Url::parse(s) else {
        return false;
    };
    if !schemes.contains(&u.scheme()) || !u.username().is_empty() || u.password().is_some() {
        return false;
    }
    let Some(host) = u.host_str() else {
        return false;
    };
    if host.starts_with('[') || host.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    host == "localhost"
        || (host.contains('.')
            && host.split('.').all(|l| {
                !l.is_empty() && l.len() <= 63 && !l.starts_with('-') && !l.ends_with('-')
            })
            && host
                .rsplit('.')
                .next()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())))
}

/// A documentation link: https only; empty clears it.
fn documentation_link(v: &mut Violations, raw: &Option<String>) -> Option<Option<String>> {
    let s = raw.as_deref()?.trim();
    if s.is_empty() {
        return Some(None);
    }
    v.check(valid_url(s, &["https"]), "documentation_link", INVALID_URL);
    Some(Some(s.to_owned()))
}

pub async fn partner(conn: &mut PgConnection, partner_id: i64) -> Result<PartnerSettings> {
    sqlx::query_as(
        "SELECT server_security, landing_page, documentation_link, charge_sandbox FROM partners WHERE id = $1",
    )
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

pub async fn update_partner(
    conn: &mut PgConnection,
    partner_id: i64,
    p: &PartnerSettingsPatch,
    actor: Actor,
) -> Result<PartnerSettings> {
    let mut v = Violations::new();
    let link = documentation_link(&mut v, &p.documentation_link);
    v.into_result()?;
    let before = partner(conn, partner_id).await?;
    let after: PartnerSettings = sqlx::query_as(
        "UPDATE partners SET server_security = COALESCE($2, server_security), landing_page = COALESCE($3, landing_page),
                documentation_link = CASE WHEN $4 THEN $5 ELSE documentation_link END,
                charge_sandbox = COALESCE($6, charge_sandbox), updated_at = now()
          WHERE id = $1 RETURNING server_security, landing_page, documentation_link, charge_sandbox",
    )
    .bind(partner_id)
    .bind(p.server_security)
    .bind(p.landing_page)
    .bind(link.is_some())
    .bind(link.flatten())
    .bind(p.charge_sandbox)
    .fetch_one(&mut *conn)
    .await?;
    audit_change(conn, actor, "partner.settings", partner_id, &before, &after).await?;
    Ok(after)
}

const CLIENT_COLUMNS: &str = "sandbox_enabled AS test_api, batch_processing, is_active, restrict_all_apis, api_base_url AS base_url,
                              old_base_url, base_url_status AS base_url_active, documentation_link";

pub async fn client(conn: &mut PgConnection, partner_id: i64) -> Result<ClientSettings> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CLIENT_COLUMNS} FROM partners WHERE id = $1"
    )))
    .bind(partner_id)
    .fetch_optional(conn)
    .await?
    .ok_or(Error::NotFound)
}

/// The address check of a new base URL (`infra::upstream_addr`: public addresses only, unless
/// `UPSTREAM_ALLOW_PRIVATE`), 422 on `base_url`. Run before the transaction: it may wait for
/// DNS. The gateway checks again before every call.
pub async fn check_base_url(
    p: &ClientSettingsPatch,
    config: &crate::infra::config::Config,
) -> Result<()> {
    let Some(b) = p.base_url.as_deref().map(str::trim) else {
        return Ok(());
    };
    if b.is_empty() || !valid_url(b, &["http", "https"]) {
        return Ok(());
    }
    let policy = crate::infra::upstream_addr::Policy::new(config);
    crate::infra::upstream_addr::check_saved(b.trim_end_matches('/'), &policy)
        .await
        .map_err(|_| Error::invalid("base_url", crate::infra::upstream_addr::PRIVATE_BASE_URL))
}

/// The super admin's PATCH. A new base URL keeps the previous one in `old_base_url`; turning
/// the base URL on needs one.
pub async fn update_client(
    conn: &mut PgConnection,
    partner_id: i64,
    p: &ClientSettingsPatch,
    actor: Actor,
) -> Result<ClientSettings> {
    let before = client(conn, partner_id).await?;
    let mut v = Violations::new();
    let link = documentation_link(&mut v, &p.documentation_link);
    let base_url = p.base_url.as_deref().map(str::trim);
    if let Some(b) = base_url {
        v.check(!b.is_empty(), "base_url", "Base URL is required");
        v.check(
            b.is_empty() || valid_url(b, &["http", "https"]),
            "base_url",
            INVALID_URL,
        );
    }
    let will_have_url = base_url.is_some() || before.base_url.is_some();
    v.check(
        p.base_url_active != Some(true) || will_have_url,
        "base_url",
        "Base URL is required",
    );
    v.into_result()?;
    let base_url = base_url.map(|b| b.trim_end_matches('/').to_owned());
    let after: ClientSettings = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE partners SET sandbox_enabled = COALESCE($2, sandbox_enabled), batch_processing = COALESCE($3, batch_processing),
                is_active = COALESCE($4, is_active), restrict_all_apis = COALESCE($5, restrict_all_apis),
                old_base_url = CASE WHEN $6::text IS NOT NULL AND $6 IS DISTINCT FROM api_base_url THEN api_base_url ELSE old_base_url END,
                api_base_url = COALESCE($6, api_base_url), base_url_status = COALESCE($7, base_url_status),
                documentation_link = CASE WHEN $8 THEN $9 ELSE documentation_link END, updated_at = now()
          WHERE id = $1 RETURNING {CLIENT_COLUMNS}"
    )))
    .bind(partner_id)
    .bind(p.test_api)
    .bind(p.batch_processing)
    .bind(p.is_active)
    .bind(p.restrict_all_apis)
    .bind(base_url)
    .bind(p.base_url_active)
    .bind(link.is_some())
    .bind(link.flatten())
    .fetch_one(&mut *conn)
    .await?;
    audit_change(conn, actor, "client.settings", partner_id, &before, &after).await?;
    Ok(after)
}

async fn audit_change<T: Serialize + PartialEq>(
    conn: &mut PgConnection,
    actor: Actor,
    action: &str,
    partner_id: i64,
    before: &T,
    after: &T,
) -> Result<()> {
    if before == after {
        return Ok(());
    }
    audit::record(
        conn,
        &audit::Record {
            actor,
            action,
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::to_value(before).map_err(anyhow::Error::from)?),
            after: Some(serde_json::to_value(after).map_err(anyhow::Error::from)?),
        },
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::valid_url;

    #[test]
    fn documentation_links_are_https_urls() {
        for ok in [
            "https://docs.example.com",
            "https://localhost:8443/a?b=c#d",
            "https://10.0.0.1/x",
            "https://a.b.co.in/path",
        ] {
            assert!(valid_url(ok, &["https"]), "{ok}");
        }
        for bad in [
            "http://docs.example.com",
            "docs.example.com",
            "https://",
            "https://nodot",
            "https://a b.com",
            "https://u:p@x.com",
            "javascript:alert(1)",
            "https://x.c0m",
            "ftp://x.com",
            "",
        ] {
            assert!(!valid_url(bad, &["https"]), "{bad}");
        }
        assert!(valid_url(
            "http://upstream.example:8080/v1",
            &["http", "https"]
        ));
    }
}
