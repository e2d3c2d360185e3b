//! The one certificate check both roles use: the peer's certificate is the
//! pinned one, or (CA form) is one of the given certificates or chains to
//! one of them; with a name, it carries that name. Handshake signatures are
//! checked with the provider's algorithms, so presenting a certificate
//! without its private key fails too.

use super::{Fingerprint, PeerIdentity};
use crate::{Error, Result};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::server::{ParsedCertificate, WebPkiClientVerifier};
use rustls::{DigitallySignedStruct, DistinguishedName, RootCertStore, SignatureScheme};
use std::sync::Arc;

/// Why a certificate was refused, carried inside rustls's error so the
/// message reaches the user unchanged.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

fn refused(msg: String) -> rustls::Error {
    rustls::Error::InvalidCertificate(rustls::CertificateError::Other(rustls::OtherError(
        Arc::new(Refused(msg)),
    )))
}

enum Expect {
    Pinned(Fingerprint),
    Ca {
        exact: Vec<CertificateDer<'static>>,
        roots: Arc<RootCertStore>,
        clients: Arc<dyn ClientCertVerifier>,
        name: Option<ServerName<'static>>,
    },
}

/// Verifies the peer for either role (see the module documentation).
pub(super) struct PeerVerifier {
    expect: Expect,
    algs: WebPkiSupportedAlgorithms,
}

impl std::fmt::Debug for PeerVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.expect {
            Expect::Pinned(fp) => write!(f, "PeerVerifier(pinned {fp})"),
            Expect::Ca { exact, .. } => write!(f, "PeerVerifier(CA, {} roots)", exact.len()),
        }
    }
}

impl PeerVerifier {
    pub(super) fn new(peer: &PeerIdentity, provider: Arc<CryptoProvider>) -> Result<Self> {
        let algs = provider.signature_verification_algorithms;
        let expect = match peer {
            PeerIdentity::Pinned(fp) => Expect::Pinned(*fp),
            PeerIdentity::Ca { roots: certs, name } => {
                let mut roots = RootCertStore::empty();
                for c in certs {
                    roots.add(c.clone()).map_err(|e| {
                        Error::config(format!("peer CA certificate cannot be used: {e}"))
                    })?;
                }
                let roots = Arc::new(roots);
                let clients: Arc<dyn ClientCertVerifier> =
                    WebPkiClientVerifier::builder_with_provider(roots.clone(), provider)
                        .build()
                        .map_err(|e| Error::config(format!("peer CA: {e}")))?;
                let name = match name {
                    Some(n) => Some(ServerName::try_from(n.clone()).map_err(|_| {
                        Error::config(format!("peer name {n:?} is not a DNS name or IP address"))
                    })?),
                    None => None,
                };
                Expect::Ca {
                    exact: certs.clone(),
                    roots,
                    clients,
                    name,
                }
            }
        };
        Ok(PeerVerifier { expect, algs })
    }

    /// The peer's certificate check; `peer_is_server` picks the key
    /// purpose a CA-issued certificate must allow.
    fn check(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
        peer_is_server: bool,
    ) -> std::result::Result<(), rustls::Error> {
        match &self.expect {
            Expect::Pinned(want) => {
                let got = Fingerprint::of(end_entity);
                if got != *want {
                    return Err(refused(format!(
                        "its fingerprint is {got}, not the pinned {want}"
                    )));
                }
            }
            Expect::Ca {
                exact,
                roots,
                clients,
                name,
            } => {
                // A self-signed certificate given as the peer's CA names
                // exactly that certificate.
                let is_root = exact.iter().any(|c| c.as_ref() == end_entity.as_ref());
                if !is_root {
                    if peer_is_server {
                        let parsed = ParsedCertificate::try_from(end_entity)?;
                        rustls::client::verify_server_cert_signed_by_trust_anchor(
                            &parsed,
                            roots,
                            intermediates,
                            now,
                            self.algs.all,
                        )?;
                    } else {
                        clients.verify_client_cert(end_entity, intermediates, now)?;
                    }
                }
                if let Some(n) = name {
                    let parsed = ParsedCertificate::try_from(end_entity)?;
                    rustls::client::verify_server_name(&parsed, n).map_err(|_| {
                        refused(format!(
                            "it does not carry the name {} required by --peer-name",
                            n.to_str()
                        ))
                    })?;
                }
            }
        }
        Ok(())
    }
}

impl ServerCertVerifier for PeerVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        self.check(end_entity, intermediates, now, true)?;
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algs)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algs)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algs.supported_schemes()
    }
}

impl ClientCertVerifier for PeerVerifier {
    fn offer_client_auth(&self) -> bool {
        true
    }

    fn client_auth_mandatory(&self) -> bool {
        true
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> std::result::Result<ClientCertVerified, rustls::Error> {
        self.check(end_entity, intermediates, now, false)?;
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algs)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algs)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algs.supported_schemes()
    }
}
