//! Channels between the two parties: TCP with TLS between machines, plain
//! TCP on one machine, and in-process pairs (memory or loopback TCP) for
//! tests and demos.
//!
//! A [`Channel`] counts bytes and rounds, so every run's report shows the
//! traffic of each phase (protocol bytes: TLS's own bytes are not counted).
//! Reads time out after [`NetOptions::read_timeout`] with `Error::Timeout`.
//!
//! Between two machines use [`connect_tls`] and [`accept_tls_on`]: mutual
//! TLS 1.3, each party authenticated by its certificate, the peer checked
//! against a CA (or its self-signed certificate) or a pinned fingerprint
//! ([`PeerIdentity`]); a peer that does not match is refused with
//! `Error::Authentication`. [`Channel::security`] says what protects a
//! channel. Plain [`connect`]/[`accept_on`] carry no authentication or
//! encryption.

use brickyard_core::Result;
use brickyard_protocols::LocalNet;

pub use brickyard_core::channel::tls::{
    generate as generate_identity, Fingerprint, GeneratedIdentity, LinkSecurity, LocalIdentity,
    PeerIdentity, TlsOptions,
};
pub use brickyard_core::channel::{accept, connect, listen, memory_pair, NetOptions};
pub use brickyard_core::Channel;

/// Connects to `addr` and authenticates both ends with TLS 1.3 (retrying
/// the TCP connection until [`NetOptions::connect_timeout`]).
///
/// Two parties in one process, each with an identity made on the spot
/// (a program would load them with [`TlsOptions::from_files`]), pinning
/// each other's certificate and computing 300 + 100 on 8 bits:
///
/// ```
/// use brickyard::net::{self, LocalIdentity, NetOptions, PeerIdentity, TlsOptions};
/// use brickyard::{bits, Computation, Role};
///
/// let (a, b) = (net::generate_identity("alice")?, net::generate_identity("bob")?);
/// let id = |g: &net::GeneratedIdentity| {
///     LocalIdentity::from_pem(g.cert_pem.as_bytes(), g.key_pem.as_bytes())
/// };
/// let alice_tls = TlsOptions::new(id(&a)?, PeerIdentity::Pinned(b.fingerprint))?;
/// let bob_tls = TlsOptions::new(id(&b)?, PeerIdentity::Pinned(a.fingerprint))?;
///
/// let listener = net::listen("127.0.0.1:0")?;
/// let addr = listener.local_addr()?.to_string();
/// let c = Computation::builtin("yao", "add8")?;
/// let c2 = c.clone();
/// let alice = std::thread::spawn(move || -> brickyard::Result<_> {
///     let mut ch = net::accept_tls(&listener, &NetOptions::default(), &alice_tls)?;
///     c2.run_party(Role::Alice, &mut ch, &[bits(300, 8)])
/// });
/// let mut ch = net::connect_tls(&addr, &NetOptions::default(), &bob_tls)?;
/// assert!(ch.security().to_string().starts_with("TLS 1.3"));
/// let bob = c.run_party(Role::Bob, &mut ch, &[bits(100, 8)])?;
/// alice.join().unwrap()?;
/// assert_eq!(brickyard::to_u128(&bob.outputs[0].as_ref().unwrap()[0]), Some(144));
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn connect_tls(addr: &str, opts: &NetOptions, tls: &TlsOptions) -> Result<Channel> {
    brickyard_core::channel::tls::connect(addr, opts, tls)
}

/// Waits on `listener` for one peer and authenticates both ends with
/// TLS 1.3 (the peer must present an acceptable client certificate).
pub fn accept_tls(
    listener: &std::net::TcpListener,
    opts: &NetOptions,
    tls: &TlsOptions,
) -> Result<Channel> {
    brickyard_core::channel::tls::accept(listener, opts, tls)
}

/// Waits on `addr` (e.g. `0.0.0.0:7766`) for one peer and authenticates
/// both ends with TLS 1.3; see [`connect_tls`].
///
/// ```no_run
/// use brickyard::net::{self, PeerIdentity, TlsOptions};
/// use std::path::Path;
/// let peer = PeerIdentity::Pinned("sha256:4f1c…".parse()?);
/// let tls = TlsOptions::from_files(Path::new("alice.tls/cert.pem"), Path::new("alice.tls/key.pem"), peer)?;
/// let ch = net::accept_tls_on("0.0.0.0:7766", &Default::default(), &tls)?;
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn accept_tls_on(addr: &str, opts: &NetOptions, tls: &TlsOptions) -> Result<Channel> {
    let listener = listen(addr)?;
    accept_tls(&listener, opts, tls)
}

/// Waits on `addr` (e.g. `0.0.0.0:7766`) for one peer to connect.
/// [`NetOptions::accept_timeout`] bounds the wait.
///
/// ```no_run
/// let ch = brickyard::net::accept_on("0.0.0.0:7766", &Default::default())?;
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn accept_on(addr: &str, opts: &NetOptions) -> Result<Channel> {
    let listener = listen(addr)?;
    accept(&listener, opts)
}

/// Both ends of an in-memory channel, named `name` in the report.
///
/// ```
/// let net = brickyard::net::memory("memory");
/// assert_eq!(net.name, "memory");
/// ```
pub fn memory(name: &str) -> LocalNet {
    let (alice, bob) = memory_pair();
    LocalNet {
        alice,
        bob,
        name: name.to_string(),
    }
}

/// Both ends of a TCP connection over 127.0.0.1 (a free port), so a local
/// run pays the operating system's network stack like a real one.
///
/// ```
/// let net = brickyard::net::loopback()?;
/// assert_eq!(net.name, "loopback");
/// # Ok::<(), brickyard::Error>(())
/// ```
pub fn loopback() -> Result<LocalNet> {
    let listener = listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let opts_b = opts.clone();
    let t = std::thread::spawn(move || connect(&addr, &opts_b));
    let alice = accept(&listener, &opts)?;
    let bob = t
        .join()
        .map_err(|_| brickyard_core::Error::config("connect thread panicked"))??;
    Ok(LocalNet {
        alice,
        bob,
        name: "loopback".to_string(),
    })
}
