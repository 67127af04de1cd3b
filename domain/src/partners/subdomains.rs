//! Partner sub-domains: `{name}.{PLATFORM_DOMAIN}`. A name is checked, then claimed in the
//! partner's row (status `pending`) in the same transaction that enqueues the
//! `provision_subdomain` job, which activates it.

use sqlx::PgConnection;

use crate::{
    Error, Result,
    infra::audit::{self, Actor},
};

pub const AVAILABLE: &str = "This username is available.";
pub const NOT_AVAILABLE: &str = "This username is not available.";

/// Names that belong to the platform itself, or that people would mistake for it.
pub const RESERVED: &[&str] = &[
    "www",
    "api",
    "admin",
    "app",
    "mail",
    "superadmin",
    "static",
    "assets",
    "files",
    "cdn",
    "docs",
    "status",
    "help",
    "support",
    "blog",
    "auth",
    "login",
    "signup",
    "dashboard",
    "smtp",
    "imap",
    "pop",
    "ftp",
    "ns1",
    "ns2",
    "mx",
    "webmail",
    "root",
    "localhost",
    "test",
    "dev",
    "staging",
    "demo-admin",
    "billing",
    "payments",
    "partner",
    "partners",
    "console",
    "portal",
    "internal",
    "system",
];

/// Lower-cases the name (the spec lowercases on save) and checks it: 3 to 40 of a-z, 0-9 and
/// hyphens, starting and ending with a letter or digit.
pub fn parse(raw: &str) -> Result<String> {
    let name = raw.trim().to_lowercase();
    let bad = |m: &str| Err(Error::invalid("subdomain", m));
    if name.is_empty() {
        return bad("Sub-domain is required");
    }
    if !(3..=40).contains(&name.len()) {
        return bad("Sub-domain must be 3 to 40 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return bad("Sub-domain may contain only letters, numbers and hyphens");
    }
    // A leading or trailing hyphen is not a valid DNS label; `xx--` is reserved for IDNs.
    if name.starts_with('-') || name.ends_with('-') || name.get(2..4) == Some("--") {
        return bad("Sub-domain must start and end with a letter or number");
    }
    Ok(name)
}

pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// Whether `partner_id` may take `name`: valid, not reserved, and free or already its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Available,
    Invalid(String),
    Unavailable,
}

pub async fn availability(
    conn: &mut PgConnection,
    partner_id: i64,
    raw: &str,
) -> Result<Availability> {
    let name = match parse(raw) {
        Ok(n) => n,
        Err(Error::Invalid { message, .. }) => return Ok(Availability::Invalid(message)),
        Err(e) => return Err(e),
    };
    if is_reserved(&name) {
        return Ok(Availability::Unavailable);
    }
    let owner: Option<i64> = sqlx::query_scalar("SELECT id FROM partners WHERE subdomain = $1")
        .bind(&name)
        .fetch_optional(conn)
        .await?;
    Ok(match owner {
        Some(id) if id != partner_id => Availability::Unavailable,
        _ => Availability::Available,
    })
}

/// Claims `name` for the partner (status `pending` until the job activates it). A change of
/// name frees the old one at once. `Error::Conflict` when another partner holds it.
#[tracing::instrument(skip(conn))]
pub async fn claim(conn: &mut PgConnection, partner_id: i64, name: &str) -> Result<()> {
    claim_as(conn, partner_id, name, Actor::partner(partner_id)).await
}

/// [`claim`] by someone other than the partner (the super admin's Update Domain), audited as
/// `actor`. The old name stops serving the partner's site at once.
#[tracing::instrument(skip(conn))]
pub async fn claim_as(
    conn: &mut PgConnection,
    partner_id: i64,
    name: &str,
    actor: Actor,
) -> Result<()> {
    if is_reserved(name) {
        return Err(taken());
    }
    let before: Option<(Option<String>, String)> = sqlx::query_as(
        "SELECT subdomain::text, subdomain_status FROM partners WHERE id = $1 FOR UPDATE",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (old, old_status) = before.ok_or(Error::NotFound)?;
    // Savepoint: a unique violation must not abort the caller's transaction.
    sqlx::query("SAVEPOINT claim_subdomain")
        .execute(&mut *conn)
        .await?;
    let updated = sqlx::query(
        "UPDATE partners SET subdomain = $2, subdomain_status = 'pending', subdomain_provisioned_at = NULL, updated_at = now()
          WHERE id = $1",
    )
    .bind(partner_id)
    .bind(name)
    .execute(&mut *conn)
    .await;
    match updated {
        Ok(_) => {
            sqlx::query("RELEASE SAVEPOINT claim_subdomain")
                .execute(&mut *conn)
                .await?;
        }
        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
            sqlx::query("ROLLBACK TO SAVEPOINT claim_subdomain")
                .execute(&mut *conn)
                .await?;
            return Err(taken());
        }
        Err(e) => return Err(e.into()),
    }
    audit::record(
        conn,
        &audit::Record {
            actor,
            action: "partner.claim_subdomain",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({ "subdomain": old, "status": old_status })),
            after: Some(serde_json::json!({ "subdomain": name, "status": "pending" })),
        },
    )
    .await?;
    Ok(())
}

fn taken() -> Error {
    Error::conflict_on("subdomain", NOT_AVAILABLE)
}

/// What the provisioning job did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provisioned {
    Activated,
    /// Already active (a retried job): nothing changed.
    AlreadyActive,
    /// The partner is gone or claimed another name since: this job's work is void.
    Stale,
}

/// Activates `name` for the partner if it is still the partner's claimed name. Sites are
/// served by Host header under a wildcard DNS record of `PLATFORM_DOMAIN`, so activating is
/// recording that the name now routes to the partner's branding.
#[tracing::instrument(skip(conn))]
pub async fn activate(
    conn: &mut PgConnection,
    partner_id: i64,
    name: &str,
    site_url: &str,
) -> Result<Provisioned> {
    let row: Option<(Option<String>, String)> = sqlx::query_as(
        "SELECT subdomain::text, subdomain_status FROM partners WHERE id = $1 FOR UPDATE",
    )
    .bind(partner_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((current, status)) = row else {
        return Ok(Provisioned::Stale);
    };
    if current.as_deref() != Some(name) {
        return Ok(Provisioned::Stale);
    }
    if status == "active" {
        return Ok(Provisioned::AlreadyActive);
    }
    sqlx::query(
        "UPDATE partners SET subdomain_status = 'active', subdomain_provisioned_at = now(), updated_at = now() WHERE id = $1",
    )
    .bind(partner_id)
    .execute(&mut *conn)
    .await?;
    audit::record(
        conn,
        &audit::Record {
            actor: Actor::system(),
            action: "partner.subdomain_provisioned",
            entity: "partner",
            entity_id: partner_id.to_string(),
            partner_id: Some(partner_id),
            before: Some(serde_json::json!({ "subdomain": name, "status": status })),
            after: Some(
                serde_json::json!({ "subdomain": name, "status": "active", "url": site_url }),
            ),
        },
    )
    .await?;
    Ok(Provisioned::Activated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(parse(" Acme-KYC ").unwrap(), "acme-kyc");
        assert_eq!(parse("abc").unwrap(), "abc");
        for bad in [
            "",
            "ab",
            "-abc",
            "abc-",
            "a_b_c",
            "ab.cd",
            "xn--abc",
            "ünïcode",
            &"a".repeat(41),
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(is_reserved("www") && is_reserved("superadmin") && !is_reserved("acme"));
    }
}
