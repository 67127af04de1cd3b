//! What an end user sets on each of its keys besides its mode: a name, an expiry chosen at
//! creation, and the lists of addresses it may be used from and of APIs it may call. Parsed here
//! into [`Controls`] (one message per bad field, 422); stored by `api_keys` and enforced by the
//! gateway from its cache (`Caller::key_services`, `Caller::key_ip_refused`).

use std::net::IpAddr;

use chrono::{DateTime, Duration, Utc};
use ipnet::IpNet;
use serde::Deserialize;
use sqlx::PgConnection;

use crate::{Result, error::Violations};

/// Most addresses and networks on one key's list.
pub const MAX_KEY_IPS: usize = 50;
/// Most APIs on one key's list.
pub const MAX_KEY_SERVICES: usize = 200;
/// Longest name of a key.
pub const MAX_NAME_CHARS: usize = 100;
/// How far ahead an expiry may be set: further than this is a typo, not a plan.
pub const MAX_EXPIRY_DAYS: i64 = 5 * 366;

/// A change of a key's name or lists; an absent field is left as it is, an empty list lifts
/// the restriction. The expiry is chosen at creation only (a roll shortens it).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyUpdate {
    pub name: Option<String>,
    pub allowed_ips: Option<Vec<String>>,
    pub allowed_services: Option<Vec<String>>,
}

/// A key's settings, checked: parse, don't validate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Controls {
    pub name: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
    /// Normalised networks (`10.0.0.0/8`, `203.0.113.7/32`).
    pub allowed_ips: Option<Vec<String>>,
    pub allowed_services: Option<Vec<String>>,
}

impl Controls {
    /// Checks everything but whether the services exist (that is [`Controls::check_services`]),
    /// collecting one message per field.
    pub fn parse(
        name: Option<&str>,
        expires_at: Option<&str>,
        allowed_ips: Option<&[String]>,
        allowed_services: Option<&[String]>,
        now: DateTime<Utc>,
        v: &mut Violations,
    ) -> Self {
        let name = name.map(str::trim).map(|n| {
            if n.chars().count() > MAX_NAME_CHARS {
                v.add(
                    "name",
                    format!("A key's name can be at most {MAX_NAME_CHARS} characters"),
                );
            } else if n.chars().any(char::is_control) {
                v.add("name", "A key's name cannot contain control characters");
            }
            n.to_owned()
        });
        let expires_at = expires_at
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .and_then(|e| match DateTime::parse_from_rfc3339(e) {
                Err(_) => {
                    v.add(
                        "expires_at",
                        "Enter the expiry as a date and time (RFC 3339, e.g. 2027-03-31T23:59:59+05:30)",
                    );
                    None
                }
                Ok(at) => {
                    let at = at.with_timezone(&Utc);
                    if at <= now {
                        v.add("expires_at", "The expiry must be in the future");
                    } else if at > now + Duration::days(MAX_EXPIRY_DAYS) {
                        v.add("expires_at", "The expiry can be at most 5 years ahead");
                    }
                    Some(at)
                }
            });
        let allowed_ips = allowed_ips.map(|list| {
            if list.len() > MAX_KEY_IPS {
                v.add(
                    "allowed_ips",
                    format!("A key can list at most {MAX_KEY_IPS} addresses or networks"),
                );
            }
            let mut nets = Vec::new();
            for raw in list {
                match parse_net(raw) {
                    Some(n) => nets.push(n),
                    None => v.add(
                        "allowed_ips",
                        format!(
                            "{:?} is not an IP address or a CIDR network (such as 203.0.113.0/24)",
                            raw.trim()
                        ),
                    ),
                }
            }
            nets.sort();
            nets.dedup();
            nets.iter().map(IpNet::to_string).collect()
        });
        let allowed_services = allowed_services.map(|list| {
            if list.len() > MAX_KEY_SERVICES {
                v.add(
                    "allowed_services",
                    format!("A key can list at most {MAX_KEY_SERVICES} APIs"),
                );
            }
            let mut services: Vec<String> = list.iter().map(|s| s.trim().to_owned()).collect();
            services.sort();
            services.dedup();
            services
        });
        Self {
            name,
            expires_at,
            allowed_ips,
            allowed_services,
        }
    }

    /// Every listed service is in the catalogue: a typo would make a key that can call nothing.
    pub async fn check_services(&self, conn: &mut PgConnection, v: &mut Violations) -> Result<()> {
        let Some(services) = self.allowed_services.as_ref().filter(|s| !s.is_empty()) else {
            return Ok(());
        };
        let known: Vec<String> =
            sqlx::query_scalar("SELECT service FROM api_catalogue WHERE service = ANY($1)")
                .bind(services)
                .fetch_all(&mut *conn)
                .await?;
        if let Some(unknown) = services.iter().find(|s| !known.contains(s)) {
            v.add("allowed_services", format!("There is no API {unknown:?}"));
        }
        Ok(())
    }

    pub(super) async fn checked(
        conn: &mut PgConnection,
        name: Option<&str>,
        expires_at: Option<&str>,
        allowed_ips: Option<&[String]>,
        allowed_services: Option<&[String]>,
    ) -> Result<Self> {
        let mut v = Violations::new();
        let c = Self::parse(
            name,
            expires_at,
            allowed_ips,
            allowed_services,
            Utc::now(),
            &mut v,
        );
        c.check_services(conn, &mut v).await?;
        v.into_result()?;
        Ok(c)
    }
}

/// An address (a network of one) or a CIDR network, with the host bits cleared
/// (`10.1.2.3/8` is `10.0.0.0/8`).
fn parse_net(s: &str) -> Option<IpNet> {
    let s = s.trim();
    s.parse::<IpNet>()
        .ok()
        .or_else(|| s.parse::<IpAddr>().ok().map(IpNet::from))
        .map(|n| n.trunc())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    fn parsed(
        name: Option<&str>,
        expires_at: Option<&str>,
        ips: &[&str],
        services: &[&str],
    ) -> (Controls, Violations) {
        let now = DateTime::parse_from_rfc3339("2026-11-27T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let ips: Vec<String> = ips.iter().map(|s| s.to_string()).collect();
        let services: Vec<String> = services.iter().map(|s| s.to_string()).collect();
        let mut v = Violations::new();
        let c = Controls::parse(
            name,
            expires_at,
            Some(ips.as_slice()),
            Some(services.as_slice()),
            now,
            &mut v,
        );
        (c, v)
    }

    #[test]
    fn controls_are_normalised() {
        let (c, v) = parsed(
            Some("  CI server "),
            Some("2027-03-31T23:59:59+05:30"),
            &["10.1.2.3/8", " 203.0.113.7", "2001:db8::1", "10.0.0.0/8"],
            &["pan_check", "gst_check", "pan_check"],
        );
        assert!(v.is_empty(), "{v:?}");
        assert_eq!(c.name.as_deref(), Some("CI server"));
        assert_eq!(
            c.expires_at.unwrap().to_rfc3339(),
            "2027-03-31T18:29:59+00:00"
        );
        assert_eq!(
            c.allowed_ips.unwrap(),
            ["10.0.0.0/8", "203.0.113.7/32", "2001:db8::1/128"]
        );
        assert_eq!(c.allowed_services.unwrap(), ["gst_check", "pan_check"]);
    }

    #[test]
    fn bad_controls_are_named_field_by_field() {
        let (_, v) = parsed(
            Some(&"x".repeat(101)),
            Some("2026-11-27T09:00:00Z"),
            &["10.0.0.300"],
            &[],
        );
        let Err(Error::Invalid { fields, .. }) = v.into_result() else {
            panic!()
        };
        assert_eq!(
            fields.keys().cloned().collect::<Vec<_>>(),
            ["allowed_ips", "expires_at", "name"]
        );
        assert_eq!(fields["expires_at"], "The expiry must be in the future");
        for bad in ["tomorrow", "2035-01-01T00:00:00Z"] {
            let (_, v) = parsed(None, Some(bad), &[], &[]);
            assert!(!v.is_empty(), "{bad} accepted");
        }
        let too_many: Vec<String> = (0..51).map(|i| format!("10.0.0.{i}")).collect();
        let mut v = Violations::new();
        Controls::parse(
            None,
            None,
            Some(too_many.as_slice()),
            None,
            Utc::now(),
            &mut v,
        );
        assert!(!v.is_empty());
    }
}
