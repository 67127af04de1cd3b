//! Which addresses a server of ours may connect to on a partner's say-so. A partner names its
//! own SMTP host; without this check it could point the worker at loopback, the private
//! network or a cloud metadata service (169.254.169.254, fd00:ec2::254) and make the worker
//! talk, with a stored password, to something only the platform can reach.

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    time::Duration,
};

/// True for an address on the public internet: not loopback, private (RFC 1918, unique-local),
/// shared (CGNAT 100.64/10), link-local (metadata services live there), multicast, broadcast,
/// documentation, benchmarking or reserved. IPv6 forms that carry an IPv4 address (mapped,
/// compatible, NAT64, 6to4) are judged by that address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0                                    // "this network"
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b)) // CGNAT
        || (a == 169 && b == 254)               // link-local, cloud metadata
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0)       // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2)       // TEST-NET-1
        || (a == 192 && b == 88 && c == 99)     // 6to4 relay anycast
        || (a == 192 && b == 168)
        || (a == 198 && (18..20).contains(&b))  // benchmarking
        || (a == 198 && b == 51 && c == 100)    // TEST-NET-2
        || (a == 203 && b == 0 && c == 113)     // TEST-NET-3
        || a >= 224) // multicast, reserved, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    // ::a.b.c.d (deprecated IPv4-compatible), also :: and ::1.
    if s[..6] == [0; 6] {
        return s[6] != 0
            && is_public_v4(Ipv4Addr::new(
                (s[6] >> 8) as u8,
                s[6] as u8,
                (s[7] >> 8) as u8,
                s[7] as u8,
            ));
    }
    // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) reaches the embedded IPv4 address.
    if s[0] == 0x64 && s[1] == 0xff9b {
        return s[2] == 0
            && is_public_v4(Ipv4Addr::new(
                (s[6] >> 8) as u8,
                s[6] as u8,
                (s[7] >> 8) as u8,
                s[7] as u8,
            ));
    }
    // 6to4 carries its IPv4 address in the second and third groups.
    if s[0] == 0x2002 {
        return is_public_v4(Ipv4Addr::new(
            (s[1] >> 8) as u8,
            s[1] as u8,
            (s[2] >> 8) as u8,
            s[2] as u8,
        ));
    }
    !((s[0] & 0xfe00) == 0xfc00                 // unique-local fc00::/7 (fd00:ec2::254 too)
        || (s[0] & 0xffc0) == 0xfe80            // link-local
        || (s[0] & 0xffc0) == 0xfec0            // old site-local
        || (s[0] & 0xff00) == 0xff00            // multicast
        || (s[0] == 0x2001 && s[1] == 0x0db8)   // documentation
        || (s[0] == 0x0100 && s[1..4] == [0; 3]) // discard-only
        || (s[0] == 0x2001 && s[1] < 0x0200)) // IETF protocol assignments (Teredo, ORCHID, …)
}

/// Resolves `host:port` within `timeout`. An empty answer, an error and a timeout are all
/// `None`: the name does not lead anywhere now.
pub async fn resolve(host: &str, port: u16, timeout: Duration) -> Option<Vec<SocketAddr>> {
    match tokio::time::timeout(timeout, tokio::net::lookup_host((host, port))).await {
        Ok(Ok(addrs)) => {
            let addrs: Vec<_> = addrs.collect();
            (!addrs.is_empty()).then_some(addrs)
        }
        _ => None,
    }
}

/// The first address in `addrs` that is not public. One is enough to refuse a host: which of
/// its addresses a client picks is not ours to decide.
pub fn first_non_public(addrs: &[SocketAddr]) -> Option<IpAddr> {
    addrs.iter().map(SocketAddr::ip).find(|ip| !is_public(*ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_local_and_metadata_addresses_are_not_public() {
        for bad in [
            "127.0.0.1",
            "127.8.9.10",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.254",
            "224.0.0.1",
            "239.1.1.1",
            "255.255.255.255",
            "240.0.0.1",
            "192.0.2.5",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "::",
            "::1",
            "fd00:ec2::254",
            "fc00::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "2001:db8::1",
            "100::1",
        ] {
            assert!(!is_public(bad.parse().unwrap()), "{bad} counted as public");
        }
        for good in [
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "192.0.3.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert!(
                is_public(good.parse().unwrap()),
                "{good} counted as private"
            );
        }
    }

    #[tokio::test]
    async fn loopback_names_resolve_to_non_public_addresses() {
        let addrs = resolve("localhost", 25, Duration::from_secs(5))
            .await
            .expect("localhost resolves");
        assert!(first_non_public(&addrs).is_some());
        let addrs = resolve("127.0.0.1", 25, Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(first_non_public(&addrs), Some("127.0.0.1".parse().unwrap()));
        assert_eq!(
            resolve("no-such-host.invalid", 25, Duration::from_secs(5)).await,
            None
        );
    }
}
