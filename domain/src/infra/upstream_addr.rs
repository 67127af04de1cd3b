//! Where the gateway may send a call. A client's API base URL is the super admin's say-so,
//! typed into a form: left unchecked it points live, charged calls at the platform itself
//! (`http://127.0.0.1:8181/metrics?x=` returned the metrics to an end user), the private network
//! or a cloud metadata service. The rule is the partner SMTP host's (`public_addr`): every
//! address the host resolves to must be public, unless `UPSTREAM_ALLOW_PRIVATE` (labs, tests).
//! `UPSTREAM_BASE_URL` is the operator's own setting and always trusted.
//!
//! The check runs when the URL is saved ([`check_saved`]) and again for each call: an address
//! literal before the request ([`precheck`]), a name inside the upstream client's resolver
//! ([`CheckedResolver`]), so the connection goes to exactly the addresses that were checked
//! (no second lookup a DNS rebinding could answer differently). Answers are remembered for
//! [`ADDRESS_TTL`], so a busy upstream costs no lookup per call (pooled connections cost none
//! at all).

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use super::{config::Config, public_addr};

/// How long a checked answer is reused before the name is resolved (and checked) again.
pub const ADDRESS_TTL: Duration = Duration::from_secs(30);
/// How long a lookup may take when the URL is saved, and before a call.
const SAVE_LOOKUP: Duration = Duration::from_secs(3);
const CALL_LOOKUP: Duration = Duration::from_secs(5);

pub const PRIVATE_BASE_URL: &str =
    "Base URL must be a public server, not a local or private address";

/// (scheme, host, port) of a URL, the unit of trust.
type Origin = (String, String, u16);

fn origin(url: &reqwest::Url) -> Option<Origin> {
    Some((
        url.scheme().to_owned(),
        url.host_str()?.to_ascii_lowercase(),
        url.port_or_known_default()?,
    ))
}

/// What the platform trusts and allows, taken from the configuration once.
#[derive(Clone, Debug)]
pub struct Policy {
    allow_private: bool,
    trusted: Option<Origin>,
}

impl Policy {
    pub fn new(config: &Config) -> Self {
        Self {
            allow_private: config.upstream_allow_private,
            trusted: reqwest::Url::parse(&config.upstream_base_url)
                .ok()
                .as_ref()
                .and_then(origin),
        }
    }

    fn trusted_host(&self) -> Option<&str> {
        self.trusted.as_ref().map(|(_, h, _)| h.as_str())
    }
}

/// Why a URL is refused, for the log (never shown to the end user, who sees the gateway's
/// `upstream_unreachable`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// The check that needs no lookup, before every call to `url`: an address literal must be
/// public; a name goes on to the resolver. A name that is the trusted upstream's own host on
/// another port or scheme is refused, since the resolver trusts that name.
pub fn precheck(url: &str, policy: &Policy) -> Result<(), Refused> {
    let parsed = reqwest::Url::parse(url).map_err(|_| Refused(format!("{url} is not a URL")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Refused(format!("{url} is not http(s)")));
    }
    let o = origin(&parsed).ok_or_else(|| Refused(format!("{url} has no host")))?;
    if policy.trusted.as_ref() == Some(&o) || policy.allow_private {
        return Ok(());
    }
    match literal(&o.1) {
        Some(ip) => check_ips(&o.1, &[ip]),
        None if policy.trusted_host() == Some(o.1.as_str()) => Err(Refused(format!(
            "{url} uses the platform upstream's host on another port or scheme"
        ))),
        None => Ok(()),
    }
}

/// The address a URL's host spells out, if it is one (`[::1]` included).
fn literal(host: &str) -> Option<IpAddr> {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

fn check_ips(host: &str, ips: &[IpAddr]) -> Result<(), Refused> {
    match ips.iter().find(|ip| !public_addr::is_public(**ip)) {
        Some(ip) => Err(Refused(format!(
            "{host} resolves to {ip}, a local or private address: refused"
        ))),
        None => Ok(()),
    }
}

/// The save-time check of a base URL: 422-worthy when it is an address literal or a name that
/// resolves to a non-public address. A name that does not resolve yet is accepted (every call
/// checks again).
pub async fn check_saved(url: &str, policy: &Policy) -> Result<(), Refused> {
    precheck(url, policy)?;
    if policy.allow_private {
        return Ok(());
    }
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return Ok(());
    };
    let Some(o) = origin(&parsed) else {
        return Ok(());
    };
    if policy.trusted.as_ref() == Some(&o) || literal(&o.1).is_some() {
        return Ok(());
    }
    match public_addr::resolve(&o.1, o.2, SAVE_LOOKUP).await {
        Some(addrs) => check_ips(&o.1, &addrs.iter().map(SocketAddr::ip).collect::<Vec<_>>()),
        None => Ok(()),
    }
}

/// The upstream client's resolver: resolves a name, refuses it when any of its addresses is
/// not public (unless allowed, or the trusted upstream's host), and remembers the answer for
/// [`ADDRESS_TTL`].
#[derive(Clone)]
pub struct CheckedResolver {
    policy: Policy,
    cache: Arc<Mutex<HashMap<String, Checked>>>,
}

/// A name's checked answer and when it was looked up.
type Checked = (Instant, Result<Arc<[IpAddr]>, Refused>);

impl CheckedResolver {
    pub fn new(policy: Policy) -> Self {
        Self {
            policy,
            cache: Default::default(),
        }
    }

    /// The checked addresses of `host` (cached).
    pub async fn lookup(&self, host: &str) -> Result<Arc<[IpAddr]>, Refused> {
        let host = host.to_ascii_lowercase();
        if let Some((at, answer)) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&host)
            && at.elapsed() < ADDRESS_TTL
        {
            return answer.clone();
        }
        let addrs = public_addr::resolve(&host, 0, CALL_LOOKUP)
            .await
            .ok_or_else(|| Refused(format!("{host} could not be resolved")))?;
        let ips: Arc<[IpAddr]> = addrs.iter().map(SocketAddr::ip).collect();
        let answer = if self.policy.allow_private || self.policy.trusted_host() == Some(&host) {
            Ok(ips)
        } else {
            check_ips(&host, &ips).map(|()| ips)
        };
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        // Names come from a handful of partners' settings; a bound keeps a misbehaving
        // configuration from growing the map for ever.
        if cache.len() > 10_000 {
            cache.clear();
        }
        cache.insert(host, (Instant::now(), answer.clone()));
        answer
    }
}

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let this = self.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let ips = this.lookup(&host).await?;
            let addrs: Vec<SocketAddr> = ips.iter().map(|ip| SocketAddr::new(*ip, 0)).collect();
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// Redirects are followed only to where a call could go directly: an address literal is
/// checked here, a name by the resolver.
pub fn redirect_policy(policy: Policy) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() >= 5 {
            return attempt.stop();
        }
        match precheck(attempt.url().as_str(), &policy) {
            Ok(()) => attempt.follow(),
            Err(e) => attempt.error(e),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allow_private: bool) -> Policy {
        Policy {
            allow_private,
            trusted: Some(("http".into(), "127.0.0.1".into(), 9090)),
        }
    }

    #[test]
    fn address_literals_must_be_public() {
        let p = policy(false);
        for bad in [
            "http://127.0.0.1:8181/metrics?x=",
            "http://169.254.169.254/latest",
            "http://10.0.0.1",
            "http://[::1]:8080",
            "http://[fd00:ec2::254]/",
            "http://0.0.0.0/",
            "http://127.0.0.1:9091/",
            "https://127.0.0.1:9090/",
            "ftp://8.8.8.8/",
        ] {
            assert!(precheck(bad, &p).is_err(), "{bad} passed");
        }
        for good in [
            "http://127.0.0.1:9090/v2",
            "https://8.8.8.8/api",
            "https://api.example.com/v1",
        ] {
            assert_eq!(precheck(good, &p), Ok(()), "{good}");
        }
        assert_eq!(precheck("http://10.0.0.1", &policy(true)), Ok(()));
    }

    #[test]
    fn the_trusted_hosts_name_on_another_port_is_refused() {
        let p = Policy {
            allow_private: false,
            trusted: Some(("https".into(), "upstream.internal".into(), 443)),
        };
        assert_eq!(precheck("https://upstream.internal/v2", &p), Ok(()));
        assert!(precheck("http://upstream.internal:8181/", &p).is_err());
    }

    #[tokio::test]
    async fn names_are_resolved_checked_and_remembered() {
        let r = CheckedResolver::new(policy(false));
        let refused = r.lookup("localhost").await.unwrap_err();
        assert!(refused.0.contains("local or private"), "{refused}");
        // The refusal is remembered: the same answer without a lookup.
        assert!(r.cache.lock().unwrap().contains_key("localhost"));
        assert_eq!(r.lookup("LOCALHOST").await.unwrap_err(), refused);
        let lab = CheckedResolver::new(policy(true));
        assert!(lab.lookup("localhost").await.is_ok());
        assert!(
            check_saved("http://localhost:8181/", &policy(false))
                .await
                .is_err()
        );
        assert!(
            check_saved("http://no-such-host.invalid/", &policy(false))
                .await
                .is_ok()
        );
    }
}
