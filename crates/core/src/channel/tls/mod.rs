//! TLS 1.3 between the two parties: a mutually authenticated, encrypted
//! byte stream under the [`Channel`] framing, for two processes on two
//! machines.
//!
//! **What it adds.** Each party proves its identity with a certificate and
//! the private key that belongs to it, and checks the peer's against what
//! it was told to expect: a CA (or the peer's own self-signed certificate)
//! that must have issued the peer's certificate ([`PeerIdentity::Ca`]), or
//! the SHA-256 fingerprint of the peer's certificate
//! ([`PeerIdentity::Pinned`]). The listener requires a client certificate,
//! so both directions are authenticated. After the handshake every record
//! is encrypted and authenticated (AEAD): a byte changed in transit fails
//! the record's tag and the run stops with [`Error::Authentication`].
//! Two-party security does not rest on any of this (the protocols assume
//! the peer may be malicious); TLS makes sure the peer *is* the party one
//! meant to compute with, and keeps the transcript from onlookers.
//!
//! **Server names.** Identities are certificates, not host names: the
//! connector does not check the listener's certificate against the address
//! it dialled (addresses change, NAT and IP literals are the rule between
//! two machines) and sends no SNI. With [`PeerIdentity::Pinned`] the
//! fingerprint names exactly one certificate. With [`PeerIdentity::Ca`]
//! any certificate the CA issued is accepted, so give either a CA that
//! issues only the peer's certificates (usually the peer's own self-signed
//! certificate) or a `name` the peer's certificate must carry as a subject
//! alternative name; that name is checked in both directions.
//!
//! **Only TLS 1.3**, with the `ring` provider's suites (AES-GCM,
//! ChaCha20-Poly1305) and key exchanges; no session tickets or resumption
//! (a connection is one run).
//!
//! **Byte counts.** TLS sits below the [`Channel`]: its counters keep
//! reporting protocol bytes, as they do not count frame headers either.

mod keygen;
mod stream;
mod verify;

pub use keygen::{generate, GeneratedIdentity};
pub(crate) use stream::TlsStream;

use super::tcp::{accept_transport_with, connect_transport_with, NetOptions, TcpTransport};
use super::Channel;
use crate::{Error, Result};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, ServerConfig};
use std::fmt;
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use zeroize::Zeroize;

/// The SHA-256 digest of a certificate's DER encoding: what
/// `--peer-fingerprint` pins and `brickyard tls fingerprint` prints, as
/// `sha256:` and 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// The fingerprint of a DER-encoded certificate.
    pub fn of(cert_der: &[u8]) -> Fingerprint {
        use sha2::Digest;
        Fingerprint(sha2::Sha256::digest(cert_der).into())
    }

    /// The fingerprint of the first certificate in a PEM file.
    pub fn of_pem_file(path: &Path) -> Result<Fingerprint> {
        let chain = load_certs(path)?;
        Ok(Fingerprint::of(&chain[0]))
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("sha256:")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Fingerprint {
    type Err = Error;

    /// Accepts `sha256:HEX` or bare `HEX`, 64 hex digits in either case,
    /// optionally with `:` between bytes (as `openssl x509 -fingerprint`
    /// prints them).
    fn from_str(s: &str) -> Result<Fingerprint> {
        let t = s.trim();
        let hex = t
            .strip_prefix("sha256:")
            .or_else(|| t.strip_prefix("SHA256:"))
            .unwrap_or(t);
        let digits: Vec<u8> = hex.bytes().filter(|&c| c != b':').collect();
        let bad = || {
            Error::config(format!(
                "fingerprint {s:?}: expected sha256: and 64 hex digits (see `brickyard tls fingerprint CERT`)"
            ))
        };
        if digits.len() != 64 {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, pair) in digits.chunks(2).enumerate() {
            let hi = (pair[0] as char).to_digit(16).ok_or_else(bad)?;
            let lo = (pair[1] as char).to_digit(16).ok_or_else(bad)?;
            out[i] = (hi * 16 + lo) as u8;
        }
        Ok(Fingerprint(out))
    }
}

impl serde::Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Our side of the authentication: a certificate chain (ours first) and
/// its private key. The key's DER copy is zeroized on drop.
pub struct LocalIdentity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl Drop for LocalIdentity {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl fmt::Debug for LocalIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LocalIdentity({})", self.fingerprint())
    }
}

impl LocalIdentity {
    /// Loads a PEM certificate (chain) and its PEM private key (PKCS#8,
    /// SEC1 or PKCS#1). On Unix a key file that others may read is refused,
    /// as `ssh` does: the key is this party's identity.
    pub fn load(cert: &Path, key: &Path) -> Result<LocalIdentity> {
        check_private(key)?;
        let chain = load_certs(cert)?;
        let mut bytes = std::fs::read(key)
            .map_err(|e| Error::config(format!("key file {}: {e}", key.display())))?;
        let parsed = PrivateKeyDer::from_pem_slice(&bytes);
        bytes.zeroize();
        let key = parsed.map_err(|e| {
            Error::config(format!("key file {}: no private key: {e}", key.display()))
        })?;
        Ok(LocalIdentity { chain, key })
    }

    /// An identity from PEM text (certificate chain, then key).
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<LocalIdentity> {
        let chain = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::config(format!("certificate: {e}")))?;
        if chain.is_empty() {
            return Err(Error::config("certificate: no certificate in the PEM text"));
        }
        let key = PrivateKeyDer::from_pem_slice(key_pem)
            .map_err(|e| Error::config(format!("no private key in the PEM text: {e}")))?;
        Ok(LocalIdentity { chain, key })
    }

    /// The fingerprint of our certificate (what the peer pins).
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.chain[0])
    }
}

/// Who the peer must be.
#[derive(Clone, Debug)]
pub enum PeerIdentity {
    /// The peer's certificate must be one of `roots` itself (a self-signed
    /// certificate given as its own CA) or chain to one of them, be valid
    /// now, and allow its role (server or client authentication) if it
    /// names key purposes; with `name`, it must also carry that DNS name
    /// or IP address as a subject alternative name.
    Ca {
        /// The accepted issuers (or the peer's own certificate).
        roots: Vec<CertificateDer<'static>>,
        /// A name the peer's certificate must carry, if any.
        name: Option<String>,
    },
    /// The SHA-256 fingerprint of the peer's own certificate: exactly that
    /// certificate (with the key that belongs to it) is accepted; its
    /// dates are not checked, the pin is the trust decision.
    Pinned(Fingerprint),
}

impl PeerIdentity {
    /// [`PeerIdentity::Ca`] from a PEM file of one or more certificates.
    pub fn ca_file(path: &Path, name: Option<String>) -> Result<PeerIdentity> {
        Ok(PeerIdentity::Ca {
            roots: load_certs(path)?,
            name,
        })
    }

    /// [`PeerIdentity::Ca`] from PEM text.
    pub fn ca_pem(pem: &[u8], name: Option<String>) -> Result<PeerIdentity> {
        let roots = CertificateDer::pem_slice_iter(pem)
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::config(format!("peer CA: {e}")))?;
        if roots.is_empty() {
            return Err(Error::config("peer CA: no certificate in the PEM text"));
        }
        Ok(PeerIdentity::Ca { roots, name })
    }
}

/// Everything a TLS endpoint needs, checked and built once: our identity,
/// the peer's, and the rustls configurations for either role (a party may
/// listen or connect).
#[derive(Clone)]
pub struct TlsOptions {
    client: Arc<ClientConfig>,
    server: Arc<ServerConfig>,
    server_name: ServerName<'static>,
    ours: Fingerprint,
}

impl fmt::Debug for TlsOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TlsOptions(ours {})", self.ours)
    }
}

/// The name a connector puts in its handshake when no name is checked: the
/// verifier ignores it and SNI is off, so it never reaches the wire.
const UNCHECKED_NAME: &str = "brickyard-peer";

impl TlsOptions {
    /// Checks that the key belongs to the certificate and that the peer
    /// identity is usable, and builds both configurations (TLS 1.3 only,
    /// client certificates required, no resumption).
    pub fn new(identity: LocalIdentity, peer: PeerIdentity) -> Result<TlsOptions> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = Arc::new(verify::PeerVerifier::new(&peer, provider.clone())?);
        let ours = identity.fingerprint();
        let cfg = |e: rustls::Error| Error::config(format!("TLS configuration: {e}"));
        let mut client = ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(cfg)?
            .dangerous()
            .with_custom_certificate_verifier(verifier.clone())
            .with_client_auth_cert(identity.chain.clone(), identity.key.clone_key())
            .map_err(|e| key_mismatch(e, "client"))?;
        client.enable_sni = false;
        client.resumption = rustls::client::Resumption::disabled();
        let mut server = ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(cfg)?
            .with_client_cert_verifier(verifier)
            .with_single_cert(identity.chain.clone(), identity.key.clone_key())
            .map_err(|e| key_mismatch(e, "server"))?;
        server.send_tls13_tickets = 0;
        server.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
        let name = match &peer {
            PeerIdentity::Ca { name: Some(n), .. } => n.clone(),
            _ => UNCHECKED_NAME.to_string(),
        };
        let server_name = ServerName::try_from(name.clone()).map_err(|_| {
            Error::config(format!(
                "peer name {name:?} is not a DNS name or IP address"
            ))
        })?;
        Ok(TlsOptions {
            client: Arc::new(client),
            server: Arc::new(server),
            server_name,
            ours,
        })
    }

    /// Loads `--cert`/`--key` and the peer's identity and builds the options.
    pub fn from_files(cert: &Path, key: &Path, peer: PeerIdentity) -> Result<TlsOptions> {
        TlsOptions::new(LocalIdentity::load(cert, key)?, peer)
    }

    /// The fingerprint of our own certificate.
    pub fn our_fingerprint(&self) -> Fingerprint {
        self.ours
    }
}

fn key_mismatch(e: rustls::Error, role: &str) -> Error {
    Error::config(format!(
        "TLS {role} identity: {e} (does the key belong to the certificate?)"
    ))
}

fn load_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::config(format!("certificate file {}: {e}", path.display())))?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Error::config(format!("certificate file {}: {e}", path.display())))?;
    if certs.is_empty() {
        return Err(Error::config(format!(
            "certificate file {}: no PEM certificate in it",
            path.display()
        )));
    }
    Ok(certs)
}

#[cfg(unix)]
fn check_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::config(format!("key file {}: {e}", path.display())))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(Error::config(format!(
            "key file {} can be read by others (mode {mode:o}): run chmod 600 on it",
            path.display()
        )));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path) -> Result<()> {
    Ok(())
}

/// What protects a channel, for reports: in-process, plain TCP, or TLS
/// with the peer's certificate fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LinkSecurity {
    /// Both ends in one process (memory pipes, scripted replays).
    InProcess,
    /// TCP without TLS: the peer is not authenticated and the bytes are
    /// not encrypted (loopback and benchmarks).
    PlainTcp,
    /// TLS, the peer authenticated.
    Tls {
        /// The protocol version (always "TLS 1.3").
        version: String,
        /// The negotiated cipher suite.
        cipher_suite: String,
        /// The fingerprint of the certificate the peer presented.
        peer_fingerprint: Fingerprint,
    },
}

impl fmt::Display for LinkSecurity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkSecurity::InProcess => f.write_str("in-process (no network)"),
            LinkSecurity::PlainTcp => f.write_str("plain TCP (unauthenticated, unencrypted)"),
            LinkSecurity::Tls {
                version,
                cipher_suite,
                peer_fingerprint,
            } => write!(f, "{version} ({cipher_suite}), peer {peer_fingerprint}"),
        }
    }
}

/// Connects to a listening peer and runs the TLS handshake as the client
/// (see [`super::connect`] for the retries and deadlines).
pub fn connect(addr: &str, opts: &NetOptions, tls: &TlsOptions) -> Result<Channel> {
    Ok(super::tcp::into_channel(
        connect_transport_with(addr, opts, Some(tls))?,
        opts,
    ))
}

/// Waits for one peer on `listener` and runs the TLS handshake as the
/// server; a peer without an acceptable certificate is refused with
/// [`Error::Authentication`].
pub fn accept(listener: &TcpListener, opts: &NetOptions, tls: &TlsOptions) -> Result<Channel> {
    Ok(super::tcp::into_channel(
        accept_transport_with(listener, opts, Some(tls))?,
        opts,
    ))
}

/// Like [`accept`] but returns the bare transport.
pub fn accept_transport(
    listener: &TcpListener,
    opts: &NetOptions,
    tls: &TlsOptions,
) -> Result<TcpTransport> {
    accept_transport_with(listener, opts, Some(tls))
}

/// Says what went wrong in words a user can act on: which side refused
/// whose certificate, or that a record was altered in transit.
pub(crate) fn describe(e: &rustls::Error) -> String {
    use rustls::AlertDescription as A;
    match e {
        rustls::Error::InvalidCertificate(c) => {
            let why = match c {
                rustls::CertificateError::Other(o) => o.to_string(),
                rustls::CertificateError::UnknownIssuer
                | rustls::CertificateError::BadSignature => {
                    "it was not issued by the given --peer-ca".to_string()
                }
                other => format!("{other:?}"),
            };
            format!("the peer's certificate is refused: {why}")
        }
        rustls::Error::NoCertificatesPresented => {
            "the peer presented no certificate (it must run with --cert and --key)".to_string()
        }
        rustls::Error::AlertReceived(a) => match a {
            A::BadCertificate
            | A::UnknownCA
            | A::CertificateUnknown
            | A::AccessDenied
            | A::CertificateExpired
            | A::UnsupportedCertificate
            | A::CertificateRequired
            | A::DecryptError => format!(
                "the peer refused our certificate (TLS alert {a:?}): it expects another identity"
            ),
            A::BadRecordMac => "the peer received a TLS record that failed authentication \
                 (bad_record_mac): the connection was altered in transit"
                .to_string(),
            other => format!("TLS alert from the peer: {other:?}"),
        },
        rustls::Error::DecryptError => "a TLS record failed authentication: the data was \
             altered in transit (a man in the middle or a faulty link)"
            .to_string(),
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => format!(
            "TLS protocol error ({e}): does the peer use TLS? both parties need --cert, --key \
             and --peer-ca or --peer-fingerprint"
        ),
        other => format!("TLS: {other}"),
    }
}

#[cfg(test)]
mod tests;
