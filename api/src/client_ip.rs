//! The one answer to "who is the client?", used by every rate limit, the gateway, the IP hits
//! and the audit log.
//!
//! The client is the TCP peer, unless the peer is one of `TRUSTED_PROXIES`. Then the proxy's
//! `X-Forwarded-For` is read from the right: each proxy appends the address it saw, so the
//! right-most hop that is not itself a trusted proxy is the first address nobody we trust could
//! have been lied to about. Everything to its left was written by the client and is ignored
//! (reading the *first* hop let a client name a fresh address per request).
//!
//! `TRUSTED_PROXIES` is empty by default: `scripts/run` and the end-to-end run serve browsers
//! directly on loopback, and a header from a direct client is never believed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::request::Parts,
};
use ipnet::IpNet;

use crate::AppState;

/// The client's address, as the module doc explains. Take it as a handler argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The key of per-client limits: the address, or for IPv6 its /64, since one subscriber
    /// usually holds a whole /64 and could otherwise rotate through 2^64 addresses.
    pub fn limit_key(self) -> IpAddr {
        limit_key(self.0)
    }
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(client_ip(parts, &state.config.trusted_proxies)))
    }
}

/// The client of a request (see the module doc). Without a socket address (a request built in
/// a test and sent through `oneshot`) it is 0.0.0.0.
pub fn client_ip(parts: &Parts, trusted: &[IpNet]) -> IpAddr {
    let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
        return IpAddr::V4(Ipv4Addr::UNSPECIFIED);
    };
    // Several X-Forwarded-For headers are one list, in order (RFC 9110 field combination).
    let hops: Vec<&str> = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    resolve(peer.ip(), &hops, trusted)
}

/// The rule itself, apart from HTTP: `hops` are X-Forwarded-For's entries, left to right.
pub fn resolve(peer: IpAddr, hops: &[&str], trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|n| n.contains(ip));
    let mut client = canonical(peer);
    for hop in hops.iter().rev() {
        if !is_trusted(&client) {
            break;
        }
        // A trusted proxy wrote this hop. If it is not an address, nothing further left can be
        // believed either: the proxy itself stays the client (one shared budget, never a free one).
        match parse_hop(hop) {
            Some(ip) => client = ip,
            None => break,
        }
    }
    client
}

/// A hop as proxies write it: `203.0.113.7`, `2001:db8::1`, `203.0.113.7:4711` or `[2001:db8::1]:4711`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|s| s.ip()))
        .or_else(|_| {
            hop.trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
        })
        .ok()
        .map(canonical)
}

/// `::ffff:203.0.113.7` (a dual-stack socket's view of an IPv4 client) is `203.0.113.7`.
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// See [`ClientIp::limit_key`].
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn nets(s: &str) -> Vec<IpNet> {
        domain::infra::config::trusted_proxies(s).unwrap()
    }

    fn parts(peer: &str, xff: &[&str]) -> Parts {
        let mut req = http::Request::builder().uri("/");
        for x in xff {
            req = req.header("x-forwarded-for", *x);
        }
        let (mut parts, _) = req.body(()).unwrap().into_parts();
        parts
            .extensions
            .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        parts
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client() {
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["198.51.100.7"]), &[]),
            ip("127.0.0.1")
        );
        assert_eq!(
            client_ip(&parts("203.0.113.9:5000", &["198.51.100.7"]), &[]),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn header_from_an_untrusted_peer_is_ignored() {
        let t = nets("127.0.0.1");
        assert_eq!(
            client_ip(&parts("203.0.113.9:5000", &["198.51.100.7"]), &t),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_right_most_untrusted_hop_wins_not_the_first() {
        // A same-host proxy appended the real client (203.0.113.7) to what the client sent.
        let t = nets("127.0.0.1");
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["198.51.100.1, 203.0.113.7"]), &t),
            ip("203.0.113.7")
        );
        // Two proxies: a balancer in 10.0.0.0/8, then the local one.
        let t = nets("127.0.0.1, 10.0.0.0/8");
        assert_eq!(
            client_ip(
                &parts("127.0.0.1:5000", &["6.6.6.6, 203.0.113.7, 10.1.2.3"]),
                &t
            ),
            ip("203.0.113.7")
        );
        // Headers repeated are one list.
        assert_eq!(
            client_ip(
                &parts("127.0.0.1:5000", &["6.6.6.6", "203.0.113.7", "10.1.2.3"]),
                &t
            ),
            ip("203.0.113.7")
        );
        // Every hop trusted: the left-most.
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["10.9.9.9, 10.1.2.3"]), &t),
            ip("10.9.9.9")
        );
        // No header: the proxy.
        assert_eq!(client_ip(&parts("10.1.2.3:5000", &[]), &t), ip("10.1.2.3"));
    }

    #[test]
    fn garbage_stops_the_walk_at_the_proxy() {
        let t = nets("127.0.0.1");
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["garbage"]), &t),
            ip("127.0.0.1")
        );
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["198.51.100.1, nope"]), &t),
            ip("127.0.0.1")
        );
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &[""]), &t),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn ports_brackets_and_mapped_addresses() {
        let t = nets("127.0.0.1, ::1");
        assert_eq!(
            client_ip(&parts("127.0.0.1:5000", &["203.0.113.7:4711"]), &t),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(&parts("[::1]:5000", &["[2001:db8::1]:4711"]), &t),
            ip("2001:db8::1")
        );
        assert_eq!(
            client_ip(&parts("[::1]:5000", &["2001:db8::1"]), &t),
            ip("2001:db8::1")
        );
        assert_eq!(
            client_ip(
                &parts("[::ffff:127.0.0.1]:5000", &["::ffff:203.0.113.7"]),
                &t
            ),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn ipv6_clients_share_their_64() {
        assert_eq!(
            limit_key(ip("2001:db8:1:2:aaaa::1")),
            limit_key(ip("2001:db8:1:2:bbbb::2"))
        );
        assert_ne!(
            limit_key(ip("2001:db8:1:2::1")),
            limit_key(ip("2001:db8:1:3::1"))
        );
        assert_eq!(limit_key(ip("203.0.113.7")), ip("203.0.113.7"));
        assert_ne!(limit_key(ip("203.0.113.7")), limit_key(ip("203.0.113.8")));
    }

    #[test]
    fn the_setting_parses_addresses_and_cidrs() {
        assert_eq!(nets(""), vec![]);
        assert_eq!(
            nets(" 127.0.0.1 , 10.0.0.0/8,::1 "),
            vec![
                "127.0.0.1/32".parse().unwrap(),
                "10.0.0.0/8".parse().unwrap(),
                "::1/128".parse().unwrap()
            ]
        );
        for bad in ["localhost", "10.0.0.0/33", "10.0.0.1/8", "1.2.3"] {
            let e = domain::infra::config::trusted_proxies(bad).unwrap_err();
            assert_eq!(e.var, "TRUSTED_PROXIES", "{bad}");
        }
    }
}
