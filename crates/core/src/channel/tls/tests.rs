use super::*;
use crate::channel::spin::ReadSpin;
use crate::channel::{listen, Abort};
use crate::{Block, ErrorKind};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

struct Party {
    id: GeneratedIdentity,
}

impl Party {
    fn new(name: &str) -> Party {
        Party {
            id: generate(name).unwrap(),
        }
    }
    fn local(&self) -> LocalIdentity {
        LocalIdentity::from_pem(self.id.cert_pem.as_bytes(), self.id.key_pem.as_bytes()).unwrap()
    }
    fn pinned(&self) -> PeerIdentity {
        PeerIdentity::Pinned(self.id.fingerprint)
    }
    fn as_ca(&self) -> PeerIdentity {
        PeerIdentity::ca_pem(self.id.cert_pem.as_bytes(), None).unwrap()
    }
    fn opts(&self, peer: PeerIdentity) -> TlsOptions {
        TlsOptions::new(self.local(), peer).unwrap()
    }
}

fn net(read_timeout: Duration) -> NetOptions {
    NetOptions {
        connect_timeout: Duration::from_secs(5),
        accept_timeout: Duration::from_secs(5),
        ..NetOptions::with_read_timeout(read_timeout)
    }
}

/// Alice listens, Bob connects (each with its own options); both results.
fn pair_with(
    alice: TlsOptions,
    bob: TlsOptions,
    opts: NetOptions,
) -> (Result<Channel>, Result<Channel>) {
    let l = listen("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let o2 = opts.clone();
    let t = std::thread::spawn(move || connect(&addr, &o2, &bob));
    let a = accept(&l, &opts, &alice);
    (a, t.join().unwrap())
}

fn good_pair(read_timeout: Duration) -> (Channel, Channel) {
    let (a, b) = (Party::new("alice"), Party::new("bob"));
    let (x, y) = pair_with(a.opts(b.pinned()), b.opts(a.pinned()), net(read_timeout));
    (x.unwrap(), y.unwrap())
}

fn auth_err<T>(r: Result<T>) -> String {
    match r {
        Err(Error::Authentication(m)) => m,
        Err(other) => panic!("expected an authentication error, got {other:?}"),
        Ok(_) => panic!("expected an authentication error, got success"),
    }
}

#[test]
fn pinned_pair_carries_messages_and_counts_protocol_bytes() {
    let (a, b) = (Party::new("alice"), Party::new("bob"));
    let (x, y) = pair_with(
        a.opts(b.pinned()),
        b.opts(a.pinned()),
        net(Duration::from_secs(10)),
    );
    let (mut x, mut y) = (x.unwrap(), y.unwrap());
    match x.security() {
        LinkSecurity::Tls {
            version,
            peer_fingerprint,
            ..
        } => {
            assert_eq!(version, "TLS 1.3");
            assert_eq!(peer_fingerprint, b.id.fingerprint);
        }
        other => panic!("{other:?}"),
    }
    match y.security() {
        LinkSecurity::Tls {
            peer_fingerprint, ..
        } => assert_eq!(peer_fingerprint, a.id.fingerprint),
        other => panic!("{other:?}"),
    }
    assert!(y.security().to_string().starts_with("TLS 1.3 ("));
    let t = std::thread::spawn(move || {
        let v: Vec<u64> = y.recv_msg().unwrap();
        let blocks = y.recv_block_vec(100_000).unwrap();
        let s = blocks.iter().fold(Block::ZERO, |acc, &b| acc ^ b);
        y.send_msg(&(v.iter().sum::<u64>(), s)).unwrap();
        y.flush().unwrap();
        y.stats()
    });
    x.send_msg(&vec![5u64, 6, 7]).unwrap();
    let blocks: Vec<Block> = (0..100_000u128).map(|i| Block(i * 0x1234567)).collect();
    x.send_blocks_now(&blocks).unwrap();
    let (s, acc): (u64, Block) = x.recv_msg().unwrap();
    assert_eq!(s, 18);
    assert_eq!(acc, blocks.iter().fold(Block::ZERO, |a, &b| a ^ b));
    let ys = t.join().unwrap();
    // Protocol bytes only: 4 + 25 (message) + 1.6 MB, no TLS overhead.
    let sent = x.stats().bytes_sent;
    assert_eq!(sent, ys.bytes_received);
    let msg_len = postcard::to_stdvec(&vec![5u64, 6, 7]).unwrap().len() as u64;
    assert_eq!(sent, 4 + msg_len + 16 * 100_000);
}

#[test]
fn ca_form_accepts_a_self_signed_peer_and_a_ca_issued_one() {
    // The peer's own self-signed certificate as its CA.
    let (a, b) = (Party::new("alice"), Party::new("bob"));
    let (x, y) = pair_with(
        a.opts(b.as_ca()),
        b.opts(a.as_ca()),
        net(Duration::from_secs(10)),
    );
    let (mut x, mut y) = (x.unwrap(), y.unwrap());
    x.send_block(Block(42)).unwrap();
    x.flush().unwrap();
    assert_eq!(y.recv_block().unwrap(), Block(42));

    // A real CA issuing both leaves: the chain is checked for each role,
    // and a --peer-name is checked in both directions.
    let ca = TestCa::new();
    let (ca_pem, alice, bob) = (ca.pem(), ca.leaf("alice.example"), ca.leaf("bob.example"));
    let peer = |name: Option<&str>| {
        PeerIdentity::ca_pem(ca_pem.as_bytes(), name.map(String::from)).unwrap()
    };
    let (x, y) = pair_with(
        TlsOptions::new(alice.clone_identity(), peer(Some("bob.example"))).unwrap(),
        TlsOptions::new(bob.clone_identity(), peer(Some("alice.example"))).unwrap(),
        net(Duration::from_secs(10)),
    );
    let (mut x, mut y) = (x.unwrap(), y.unwrap());
    y.send_block(Block(7)).unwrap();
    y.flush().unwrap();
    assert_eq!(x.recv_block().unwrap(), Block(7));

    // The CA's certificate is right but the name is not.
    let (x, y) = pair_with(
        TlsOptions::new(alice.clone_identity(), peer(Some("carol.example"))).unwrap(),
        TlsOptions::new(bob.clone_identity(), peer(None)).unwrap(),
        net(Duration::from_secs(10)),
    );
    assert!(auth_err(x).contains("carol.example"));
    assert!(auth_err(y).contains("refused our certificate"));

    // A leaf of another CA is refused (unknown issuer), by the server
    // and by the client.
    let other = TestCa::new().leaf("bob.example");
    let (x, y) = pair_with(
        TlsOptions::new(alice.clone_identity(), peer(None)).unwrap(),
        TlsOptions::new(other.clone_identity(), peer(None)).unwrap(),
        net(Duration::from_secs(10)),
    );
    let m = auth_err(x);
    assert!(m.contains("not issued by"), "{m}");
    assert!(auth_err(y).contains("refused our certificate"));
    let (x, y) = pair_with(
        TlsOptions::new(other.clone_identity(), peer(None)).unwrap(),
        TlsOptions::new(alice.clone_identity(), peer(None)).unwrap(),
        net(Duration::from_secs(10)),
    );
    assert!(auth_err(y).contains("not issued by"));
    assert!(auth_err(x).contains("refused our certificate"));
}

struct TestCa {
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    cert_pem: String,
}

struct Leaf {
    cert_pem: String,
    key_pem: String,
}

impl Leaf {
    fn clone_identity(&self) -> LocalIdentity {
        LocalIdentity::from_pem(self.cert_pem.as_bytes(), self.key_pem.as_bytes()).unwrap()
    }
}

impl TestCa {
    fn new() -> TestCa {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "test CA");
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params.self_signed(&key).unwrap();
        TestCa {
            cert_pem: cert.pem(),
            issuer: rcgen::Issuer::new(params, key),
        }
    }
    fn pem(&self) -> String {
        self.cert_pem.clone()
    }
    fn leaf(&self, name: &str) -> Leaf {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(vec![name.to_string()]).unwrap();
        params.extended_key_usages = vec![
            rcgen::ExtendedKeyUsagePurpose::ServerAuth,
            rcgen::ExtendedKeyUsagePurpose::ClientAuth,
        ];
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

#[test]
fn a_wrong_certificate_is_refused_in_both_directions() {
    let (a, b, mallory) = (Party::new("alice"), Party::new("bob"), Party::new("bob"));
    // Mallory connects to Alice, who expects Bob: Alice (the server)
    // refuses the client certificate; Mallory learns it was refused.
    let (x, y) = pair_with(
        a.opts(b.pinned()),
        mallory.opts(a.pinned()),
        net(Duration::from_secs(10)),
    );
    let m = auth_err(x);
    assert!(m.contains(&mallory.id.fingerprint.to_string()), "{m}");
    assert!(m.contains("pinned"), "{m}");
    assert!(auth_err(y).contains("refused our certificate"));
    // Bob connects to Mallory posing as Alice: Bob (the client) refuses
    // the server certificate; Mallory learns it.
    let (x, y) = pair_with(
        mallory.opts(b.pinned()),
        b.opts(a.pinned()),
        net(Duration::from_secs(10)),
    );
    assert!(auth_err(y).contains("pinned"));
    assert!(auth_err(x).contains("refused our certificate"));
    // The same with the CA form.
    let (x, y) = pair_with(
        a.opts(b.as_ca()),
        mallory.opts(a.as_ca()),
        net(Duration::from_secs(10)),
    );
    auth_err(x);
    auth_err(y);
}

#[test]
fn a_key_that_is_not_the_certificates_is_refused_before_connecting() {
    let (a, b) = (Party::new("alice"), Party::new("bob"));
    let mixed = LocalIdentity::from_pem(a.id.cert_pem.as_bytes(), b.id.key_pem.as_bytes()).unwrap();
    let r = TlsOptions::new(mixed, b.pinned());
    assert!(matches!(r, Err(Error::Config(_))), "{r:?}");
}

/// A proxy between the two parties that forwards both directions and,
/// once `flip_after` bytes went from server to client (past the
/// handshake), flips one bit of the next byte.
fn flipping_proxy(upstream: String, flip_after: usize) -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (client, _) = l.accept().unwrap();
        let server = TcpStream::connect(upstream).unwrap();
        let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
        std::thread::spawn(move || copy(c2, s2, usize::MAX));
        copy(server, client, flip_after);
    });
    addr
}

fn copy(mut from: TcpStream, mut to: TcpStream, flip_at: usize) {
    let mut buf = [0u8; 4096];
    let mut seen = 0usize;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if flip_at >= seen && flip_at < seen + n {
            buf[flip_at - seen] ^= 0x01;
        }
        seen += n;
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

#[test]
fn a_flipped_byte_after_the_handshake_stops_the_reader() {
    let (a, b) = (Party::new("alice"), Party::new("bob"));
    let l = listen("127.0.0.1:0").unwrap();
    let upstream = l.local_addr().unwrap().to_string();
    // The server's handshake flight is well below 4 KiB; the flip lands in
    // the application data that follows.
    let proxy = flipping_proxy(upstream, 6000);
    let (ta, tb) = (a.opts(b.pinned()), b.opts(a.pinned()));
    let opts = net(Duration::from_secs(20));
    let o2 = opts.clone();
    let t = std::thread::spawn(move || {
        let mut y = connect(&proxy, &o2, &tb).unwrap();
        let start = Instant::now();
        let r = y.recv_block_vec(1000);
        (r, start.elapsed())
    });
    let mut x = accept(&l, &opts, &ta).unwrap();
    let blocks: Vec<Block> = (0..1000u128).map(Block).collect();
    x.send_blocks_now(&blocks).unwrap();
    let (r, el) = t.join().unwrap();
    let m = auth_err(r);
    assert!(m.contains("altered in transit"), "{m}");
    assert!(el < Duration::from_secs(10), "{el:?}");
}

#[test]
fn deadlines_aborts_and_disconnects_work_over_tls() {
    // A stalled peer times out.
    let (_a, mut b) = good_pair(Duration::from_millis(200));
    let start = Instant::now();
    assert!(matches!(b.recv_block(), Err(Error::Timeout(_))));
    assert!(start.elapsed() >= Duration::from_millis(150));
    // An abort frame reaches a reader at once.
    let (mut a, mut b) = good_pair(Duration::from_secs(30));
    let t = std::thread::spawn(move || {
        let start = Instant::now();
        (b.recv_block(), start.elapsed())
    });
    std::thread::sleep(Duration::from_millis(20));
    a.send_abort(&Abort::for_error(&Error::config("wrong circuit")));
    drop(a);
    let (r, el) = t.join().unwrap();
    match r {
        Err(Error::PeerAborted { kind, reason }) => {
            assert_eq!(kind, ErrorKind::Config);
            assert!(reason.contains("wrong circuit"));
        }
        other => panic!("{other:?}"),
    }
    assert!(el < Duration::from_secs(5));
    // ... and a peer blocked writing more than the buffers hold.
    let (mut a, mut b) = good_pair(Duration::from_secs(30));
    let t = std::thread::spawn(move || {
        b.send_blocks_now(&vec![Block(1); 1 << 18])?;
        b.recv_block()
    });
    std::thread::sleep(Duration::from_millis(50));
    a.send_abort(&Abort::for_error(&Error::Storage("busy".into())));
    drop(a);
    assert!(matches!(
        t.join().unwrap(),
        Err(Error::PeerAborted {
            kind: ErrorKind::Storage,
            ..
        })
    ));
    // A vanished peer is a typed disconnect, not a hang.
    let (a, mut b) = good_pair(Duration::from_secs(10));
    drop(a);
    assert!(matches!(b.recv_block(), Err(Error::Disconnected(_))));
}

#[test]
fn spin_modes_and_polling_work_over_tls() {
    for spin in [
        ReadSpin::Fixed(Duration::from_micros(200)),
        ReadSpin::Auto,
        ReadSpin::Block,
    ] {
        let (a, b) = (Party::new("alice"), Party::new("bob"));
        let opts = NetOptions {
            spin,
            ..net(Duration::from_millis(500))
        };
        let (x, y) = pair_with(a.opts(b.pinned()), b.opts(a.pinned()), opts);
        let (mut x, mut y) = (x.unwrap(), y.unwrap());
        assert!(!y.peer_ready().unwrap());
        let t = std::thread::spawn(move || {
            for i in 0..50u128 {
                let v = y.recv_block().unwrap();
                if i % 10 == 0 {
                    std::thread::sleep(Duration::from_millis(2));
                }
                y.send_block(Block(v.0 + i)).unwrap();
                y.flush().unwrap();
            }
            let bulk = y.recv_block_vec(1 << 17).unwrap();
            y.send_block(bulk.iter().fold(Block::ZERO, |s, &b| s ^ b))
                .unwrap();
            y.flush().unwrap();
            y
        });
        for i in 0..50u128 {
            x.send_block(Block(7 * i)).unwrap();
            x.flush().unwrap();
            let start = Instant::now();
            while !x.peer_ready().unwrap() {
                assert!(start.elapsed() < Duration::from_secs(5));
            }
            assert_eq!(x.recv_block().unwrap(), Block(8 * i));
        }
        let bulk: Vec<Block> = (0..(1u128 << 17)).map(Block).collect();
        x.send_blocks_now(&bulk).unwrap();
        assert_eq!(
            x.recv_block().unwrap(),
            bulk.iter().fold(Block::ZERO, |s, &b| s ^ b)
        );
        let y = t.join().unwrap();
        let start = Instant::now();
        assert!(matches!(x.recv_block(), Err(Error::Timeout(_))));
        assert!(start.elapsed() >= Duration::from_millis(400));
        drop(y);
        assert!(matches!(x.recv_block(), Err(Error::Disconnected(_))));
    }
}

#[test]
fn a_plain_peer_at_a_tls_listener_fails_fast_and_typed() {
    let a = Party::new("alice");
    let b = Party::new("bob");
    let l = listen("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let opts = net(Duration::from_secs(5));
    let o2 = opts.clone();
    let t = std::thread::spawn(move || {
        let mut c = crate::channel::connect(&addr, &o2).unwrap();
        c.send_msg(&"hello").unwrap();
        c.recv_block()
    });
    let start = Instant::now();
    let r = accept(&l, &opts, &a.opts(b.pinned()));
    assert!(auth_err(r).contains("does the peer use TLS"));
    assert!(t.join().unwrap().is_err());
    assert!(start.elapsed() < Duration::from_secs(4));
}

#[test]
fn fingerprints_parse_and_print() {
    let p = Party::new("x");
    let fp = p.id.fingerprint;
    let s = fp.to_string();
    assert!(s.starts_with("sha256:") && s.len() == 7 + 64);
    assert_eq!(s.parse::<Fingerprint>().unwrap(), fp);
    assert_eq!(s[7..].to_uppercase().parse::<Fingerprint>().unwrap(), fp);
    let colons: Vec<String> = fp.0.iter().map(|b| format!("{b:02X}")).collect();
    assert_eq!(colons.join(":").parse::<Fingerprint>().unwrap(), fp);
    assert!("sha256:abcd".parse::<Fingerprint>().is_err());
    assert!(format!("sha256:{}", "g".repeat(64))
        .parse::<Fingerprint>()
        .is_err());
    // The fingerprint is of the certificate's DER, as `openssl x509
    // -fingerprint -sha256` computes it.
    let der = CertificateDer::from_pem_slice(p.id.cert_pem.as_bytes()).unwrap();
    assert_eq!(Fingerprint::of(&der), fp);
}

#[cfg(unix)]
#[test]
fn key_files_are_private_and_never_overwritten() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!(
        "by-tls-{}-{:?}",
        std::process::id(),
        Instant::now()
    ));
    let id = generate("alice").unwrap();
    let (cert, key) = id.write_to(&dir).unwrap();
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let loaded = LocalIdentity::load(&cert, &key).unwrap();
    assert_eq!(loaded.fingerprint(), id.fingerprint);
    assert_eq!(Fingerprint::of_pem_file(&cert).unwrap(), id.fingerprint);
    assert!(matches!(id.write_to(&dir), Err(Error::Config(_))));
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let r = LocalIdentity::load(&cert, &key);
    assert!(
        matches!(&r, Err(Error::Config(m)) if m.contains("chmod 600")),
        "{r:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
