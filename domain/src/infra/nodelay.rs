//! TCP_NODELAY on the connections to Postgres.
//!
//! sqlx 0.9.0 leaves Nagle's algorithm on for its TCP connections (sqlx issue 4335; set again
//! upstream by pull request 4336, not in a release yet). A statement sent in more than one
//! segment then holds its last segment until the server acknowledges the first, and Linux delays
//! that acknowledgement by 40 ms: measured here, a charging group of 150 calls took 52 ms
//! instead of 5, which kept the groups that large (a metastable backlog with a p50 of 170 ms at a
//! rate served at 9 ms over a Unix socket). libpq, and sqlx before 0.9, set TCP_NODELAY.
//!
//! sqlx does not hand out its socket, so after each new connection [`apply`] finds the process's
//! TCP sockets whose peer is the database's port and sets the option on each; setting it again on
//! one that has it is harmless. Remove this once a sqlx release sets it.

/// Sets TCP_NODELAY on every TCP socket of this process connected to `port`.
#[cfg(target_os = "linux")]
pub fn apply(port: u16) {
    for fd in sockets(|_, peer| peer == port) {
        let one: libc::c_int = 1;
        // SAFETY: a plain setsockopt on a descriptor number with a valid pointer and length. If
        // the descriptor was closed and reused since it was listed, the call fails (not a
        // socket) or sets TCP_NODELAY on another TCP socket, which only sends its data sooner.
        unsafe {
            libc::setsockopt(
                fd,
                libc::IPPROTO_TCP,
                libc::TCP_NODELAY,
                (&one as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn apply(_port: u16) {}

/// Whether this process's TCP socket bound to `local_port` has TCP_NODELAY (None: no such
/// socket). For checking [`apply`]: the server names a connection's client port
/// (`inet_client_port()`).
#[cfg(target_os = "linux")]
pub fn is_set(local_port: u16) -> Option<bool> {
    let fd = sockets(|local, _| local == local_port).into_iter().next()?;
    let mut value: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt into a local of the size given.
    let ok = unsafe {
        libc::getsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_NODELAY,
            (&mut value as *mut libc::c_int).cast(),
            &mut len,
        )
    } == 0;
    ok.then_some(value != 0)
}

/// The descriptors of this process's IPv4 and IPv6 sockets whose (local port, peer port)
/// `keep` accepts.
#[cfg(target_os = "linux")]
fn sockets(keep: impl Fn(u16, u16) -> bool) -> Vec<libc::c_int> {
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return vec![];
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<libc::c_int>().ok())
        .filter(|&fd| match (port_of(fd, false), port_of(fd, true)) {
            (Some(local), Some(peer)) => keep(local, peer),
            _ => false,
        })
        .collect()
}

/// The local (or, with `peer`, the remote) port of an IPv4 or IPv6 socket.
#[cfg(target_os = "linux")]
fn port_of(fd: libc::c_int, peer: bool) -> Option<u16> {
    // SAFETY: sockaddr_storage is plain data, valid when zeroed.
    let mut addr: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    let name = if peer {
        libc::getpeername
    } else {
        libc::getsockname
    };
    // SAFETY: the address buffer and its length are ours; a descriptor that is not a socket
    // makes the call fail.
    if unsafe {
        name(
            fd,
            (&mut addr as *mut libc::sockaddr_storage).cast(),
            &mut len,
        )
    } != 0
    {
        return None;
    }
    let port = match i32::from(addr.ss_family) {
        // SAFETY: the family says which address the storage holds.
        libc::AF_INET => unsafe {
            (*(&addr as *const libc::sockaddr_storage).cast::<libc::sockaddr_in>()).sin_port
        },
        libc::AF_INET6 => unsafe {
            (*(&addr as *const libc::sockaddr_storage).cast::<libc::sockaddr_in6>()).sin6_port
        },
        _ => return None,
    };
    Some(u16::from_be(port))
}
