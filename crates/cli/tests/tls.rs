//! Issue #28 item 6: authenticated, encrypted channels between two
//! processes over real TCP. Both parties with matching certificates compute
//! the right output over TLS 1.3 (pinned fingerprints and the CA form, for
//! `run` and `preprocess`); a third party with the wrong certificate is
//! refused in both directions with exit code 9 and no output; a man in the
//! middle who flips one byte after the handshake ends the run with a clear
//! error; a non-loopback address without TLS needs `--plain`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Exit code of a failed channel authentication (docs/cli.md).
const AUTHENTICATION: i32 = 9;
const CONFIG: i32 = 3;

fn brickyard(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_brickyard"));
    c.env("BRICKYARD_HOME", home);
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One party's TLS identity made by `brickyard tls keygen`.
struct Id {
    cert: PathBuf,
    key: PathBuf,
    fingerprint: String,
}

impl Id {
    fn new(dir: &Path, name: &str) -> Id {
        let out = brickyard(dir)
            .args(["tls", "keygen", "--json", "--out"])
            .arg(dir.join(name))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        Id {
            cert: PathBuf::from(v["cert"].as_str().unwrap()),
            key: PathBuf::from(v["key"].as_str().unwrap()),
            fingerprint: v["fingerprint"].as_str().unwrap().to_string(),
        }
    }

    /// `--cert --cert-key` and the peer pinned by fingerprint.
    fn pinning(&self, peer: &Id) -> Vec<String> {
        vec![
            "--cert".into(),
            self.cert.display().to_string(),
            "--cert-key".into(),
            self.key.display().to_string(),
            "--peer-fingerprint".into(),
            peer.fingerprint.clone(),
        ]
    }

    /// `--cert --cert-key` and the peer's certificate as its CA.
    fn trusting(&self, peer: &Id) -> Vec<String> {
        vec![
            "--cert".into(),
            self.cert.display().to_string(),
            "--cert-key".into(),
            self.key.display().to_string(),
            "--peer-ca".into(),
            peer.cert.display().to_string(),
        ]
    }
}

/// A listening party: its process, the address it printed, and the rest of
/// its stderr (collected by a thread).
struct Listener {
    child: Child,
    addr: String,
    stderr: mpsc::Receiver<String>,
}

fn listen(home: &Path, args: &[String], at: &str) -> Listener {
    let mut child = brickyard(home)
        .args(args)
        .args(["--listen", at, "--timeout", "20", "--connect-timeout", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    let port = line.trim().rsplit(':').next().unwrap().to_string();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = err.read_to_string(&mut rest);
        let _ = tx.send(rest);
    });
    Listener {
        child,
        addr: format!("127.0.0.1:{port}"),
        stderr: rx,
    }
}

impl Listener {
    fn finish(self) -> (Output, String) {
        let out = self.child.wait_with_output().unwrap();
        let err = self.stderr.recv().unwrap();
        (out, err)
    }
}

fn connect(home: &Path, args: &[String], addr: &str) -> Output {
    brickyard(home)
        .args(args)
        .args([
            "--connect",
            addr,
            "--timeout",
            "20",
            "--connect-timeout",
            "20",
        ])
        .output()
        .unwrap()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn add32(role: &str, value: &str, json: bool) -> Vec<String> {
    let mut v = strings(&[
        "run",
        "--role",
        role,
        "--circuit",
        "builtin:add32",
        "--input",
        value,
        "--output",
        "both",
        "--format",
        "int",
    ]);
    if json {
        v.push("--json".into());
    }
    v
}

fn with(mut a: Vec<String>, b: Vec<String>) -> Vec<String> {
    a.extend(b);
    a
}

#[test]
fn keygen_writes_a_private_key_and_prints_the_fingerprint() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let id = Id::new(dir.path(), "alice");
    let mode = std::fs::metadata(&id.key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(id.fingerprint.starts_with("sha256:") && id.fingerprint.len() == 71);
    let out = brickyard(dir.path())
        .args(["tls", "fingerprint"])
        .arg(&id.cert)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).trim(), id.fingerprint);
    // Never overwrites a key.
    let again = brickyard(dir.path())
        .args(["tls", "keygen", "--out"])
        .arg(dir.path().join("alice"))
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(CONFIG), "{}", text(&again.stderr));
    // A key others can read is refused before connecting.
    std::fs::set_permissions(&id.key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = brickyard(dir.path())
        .args(add32("alice", "5", false))
        .args(id.pinning(&id))
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(CONFIG));
    assert!(
        text(&out.stderr).contains("chmod 600"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("listening"));
}

#[test]
fn matching_certificates_compute_over_tls_pinned_and_ca_form() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let (alice, bob) = (Id::new(home, "alice"), Id::new(home, "bob"));
    for (a_args, b_args) in [
        (alice.pinning(&bob), bob.pinning(&alice)),
        (alice.trusting(&bob), bob.trusting(&alice)),
    ] {
        let l = listen(
            home,
            &with(add32("alice", "5", false), a_args),
            "127.0.0.1:0",
        );
        let b = connect(home, &with(add32("bob", "7", true), b_args), &l.addr);
        let (a, a_err) = l.finish();
        assert!(a.status.success(), "{a_err}");
        assert!(b.status.success(), "{}", text(&b.stderr));
        assert_eq!(text(&a.stdout).trim(), "12");
        assert!(
            a_err.contains("channel: TLS 1.3 (") && a_err.contains(&bob.fingerprint),
            "{a_err}"
        );
        let v: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
        assert_eq!(v["outputs"][0][0], "12");
        assert_eq!(v["channel"]["kind"], "tls");
        assert_eq!(v["channel"]["version"], "TLS 1.3");
        assert_eq!(v["channel"]["peer_fingerprint"], alice.fingerprint.as_str());
        assert!(text(&b.stderr).contains("channel: TLS 1.3"));
    }
}

#[test]
fn byte_counts_are_protocol_bytes_over_tls() {
    // The same run over plain loopback TCP and over TLS reports the same
    // traffic per phase: TLS's records and handshake are not counted.
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let (alice, bob) = (Id::new(home, "alice"), Id::new(home, "bob"));
    let mut phases = Vec::new();
    for tls in [false, true] {
        let (a_tls, b_tls) = if tls {
            (alice.pinning(&bob), bob.pinning(&alice))
        } else {
            (vec![], vec![])
        };
        let l = listen(home, &with(add32("alice", "5", true), a_tls), "127.0.0.1:0");
        let b = connect(home, &with(add32("bob", "7", true), b_tls), &l.addr);
        let (a, a_err) = l.finish();
        assert!(a.status.success() && b.status.success(), "{a_err}");
        let va: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
        let vb: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
        let kind = if tls { "tls" } else { "plain-tcp" };
        assert_eq!(va["channel"]["kind"], kind);
        let counts = |v: &serde_json::Value| -> Vec<(u64, u64)> {
            v["phases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p["bytes_sent"].as_u64().unwrap(),
                        p["bytes_received"].as_u64().unwrap(),
                    )
                })
                .collect()
        };
        let (ca, cb) = (counts(&va), counts(&vb));
        for (x, y) in ca.iter().zip(&cb) {
            assert_eq!(x.0, y.1);
            assert_eq!(x.1, y.0);
        }
        phases.push(ca);
    }
    assert_eq!(phases[0], phases[1]);
}

#[test]
fn preprocess_and_run_from_the_store_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (alice, bob) = (Id::new(dir.path(), "alice"), Id::new(dir.path(), "bob"));
    let (a_store, b_store) = (dir.path().join("a.store"), dir.path().join("b.store"));
    let pre = |role: &str, store: &Path| {
        strings(&[
            "preprocess",
            "--role",
            role,
            "--circuit",
            "builtin:add32",
            "--executions",
            "2",
            "--store",
            store.to_str().unwrap(),
        ])
    };
    let l = listen(
        &home,
        &with(pre("alice", &a_store), alice.pinning(&bob)),
        "127.0.0.1:0",
    );
    let b = connect(
        &home,
        &with(pre("bob", &b_store), bob.pinning(&alice)),
        &l.addr,
    );
    let (a, a_err) = l.finish();
    assert!(a.status.success(), "{a_err}");
    assert!(b.status.success(), "{}", text(&b.stderr));
    assert!(a_err.contains("channel: TLS 1.3"), "{a_err}");
    let store = |s: &Path| strings(&["--store", s.to_str().unwrap()]);
    let l = listen(
        &home,
        &with(
            with(add32("alice", "40", false), store(&a_store)),
            alice.trusting(&bob),
        ),
        "127.0.0.1:0",
    );
    let b = connect(
        &home,
        &with(
            with(add32("bob", "2", false), store(&b_store)),
            bob.trusting(&alice),
        ),
        &l.addr,
    );
    let (a, a_err) = l.finish();
    assert!(a.status.success(), "{a_err}");
    assert!(b.status.success(), "{}", text(&b.stderr));
    assert_eq!(text(&a.stdout).trim(), "42");
    assert_eq!(text(&b.stdout).trim(), "42");
}

#[test]
fn a_third_party_with_the_wrong_certificate_is_refused_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let (alice, bob, mallory) = (
        Id::new(home, "alice"),
        Id::new(home, "bob"),
        Id::new(home, "mallory"),
    );
    // Wrong client certificate: Mallory connects to Alice, who expects Bob.
    for (a_args, m_args) in [
        (alice.pinning(&bob), mallory.pinning(&alice)),
        (alice.trusting(&bob), mallory.trusting(&alice)),
    ] {
        let l = listen(
            home,
            &with(add32("alice", "5", false), a_args),
            "127.0.0.1:0",
        );
        let m = connect(home, &with(add32("bob", "7", false), m_args), &l.addr);
        let (a, a_err) = l.finish();
        assert_eq!(a.status.code(), Some(AUTHENTICATION), "{a_err}");
        assert!(a_err.contains("peer's certificate is refused"), "{a_err}");
        assert!(a.stdout.is_empty(), "{}", text(&a.stdout));
        assert_eq!(m.status.code(), Some(AUTHENTICATION), "{}", text(&m.stderr));
        assert!(text(&m.stderr).contains("refused our certificate"));
        assert!(m.stdout.is_empty());
    }
    // Wrong server certificate: Bob connects to Mallory posing as Alice.
    let l = listen(
        home,
        &with(add32("alice", "5", false), mallory.pinning(&bob)),
        "127.0.0.1:0",
    );
    let b = connect(
        home,
        &with(add32("bob", "7", true), bob.pinning(&alice)),
        &l.addr,
    );
    let (m, m_err) = l.finish();
    assert_eq!(b.status.code(), Some(AUTHENTICATION));
    let v: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "authentication");
    assert_eq!(v["error"]["exit_code"], AUTHENTICATION);
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains(&mallory.fingerprint) && msg.contains("pinned"),
        "{msg}"
    );
    assert!(v.get("outputs").is_none());
    assert_eq!(m.status.code(), Some(AUTHENTICATION), "{m_err}");
    assert!(m.stdout.is_empty());
}

/// Forwards both directions between a client and `upstream`; flips one bit
/// of the byte at offset `flip_at` of the server-to-client stream.
fn flipping_proxy(upstream: String, flip_at: usize) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (client, _) = l.accept().unwrap();
        let server = TcpStream::connect(upstream).unwrap();
        let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
        std::thread::spawn(move || pump(c2, s2, None));
        pump(server, client, Some(flip_at));
    });
    addr
}

fn pump(mut from: TcpStream, mut to: TcpStream, flip_at: Option<usize>) {
    let mut buf = [0u8; 4096];
    let mut seen = 0usize;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some(f) = flip_at {
            if f >= seen && f < seen + n {
                buf[f - seen] ^= 0x01;
            }
        }
        seen += n;
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
    let _ = from.shutdown(std::net::Shutdown::Read);
}

#[test]
fn a_man_in_the_middle_flipping_a_byte_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let (alice, bob) = (Id::new(home, "alice"), Id::new(home, "bob"));
    let aes = |role: &str, value: &str| {
        strings(&[
            "run",
            "--role",
            role,
            "--circuit",
            "builtin:aes128",
            "--input",
            value,
            "--output",
            "both",
        ])
    };
    // Alice garbles and listens: her tables (hundreds of KB) flow to Bob
    // through the proxy; the handshake is a few KB, so byte 20000 is in the
    // protected records.
    let l = listen(
        home,
        &with(
            aes("alice", "0x000102030405060708090a0b0c0d0e0f"),
            alice.pinning(&bob),
        ),
        "127.0.0.1:0",
    );
    let proxy = flipping_proxy(l.addr.clone(), 20_000);
    let start = Instant::now();
    let b = connect(
        home,
        &with(
            aes("bob", "0x00112233445566778899aabbccddeeff"),
            bob.pinning(&alice),
        ),
        &proxy,
    );
    let (a, a_err) = l.finish();
    let el = start.elapsed();
    assert!(
        el < Duration::from_secs(15),
        "took {el:?}: a hang, not an error"
    );
    let b_err = text(&b.stderr);
    assert_eq!(b.status.code(), Some(AUTHENTICATION), "{b_err}");
    assert!(b_err.contains("altered in transit"), "{b_err}");
    assert!(b.stdout.is_empty(), "{}", text(&b.stdout));
    assert!(!a.status.success(), "{a_err}");
    assert!(a.stdout.is_empty(), "{}", text(&a.stdout));
}

#[test]
fn non_loopback_plain_tcp_needs_the_explicit_flag() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    // Refused before listening or connecting (no traffic leaves).
    for (flag, addr) in [("--listen", "0.0.0.0:0"), ("--connect", "10.0.0.2:7766")] {
        let out = brickyard(home)
            .args(add32("alice", "5", false))
            .args([flag, addr])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(CONFIG), "{}", text(&out.stderr));
        let e = text(&out.stderr);
        assert!(
            e.contains("not a loopback address") && e.contains("--plain"),
            "{e}"
        );
        assert!(!e.contains("listening"));
    }
    let out = brickyard(home)
        .args([
            "preprocess",
            "--role",
            "alice",
            "--circuit",
            "builtin:add32",
            "--store",
        ])
        .arg(dir.path().join("s"))
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(CONFIG), "{}", text(&out.stderr));
    // With --plain it runs, and says the channel is plain.
    let l = listen(
        home,
        &with(add32("alice", "5", false), strings(&["--plain"])),
        "0.0.0.0:0",
    );
    let b = connect(home, &add32("bob", "7", false), &l.addr);
    let (a, a_err) = l.finish();
    assert!(a.status.success(), "{a_err}");
    assert!(b.status.success());
    assert_eq!(text(&b.stdout).trim(), "12");
    assert!(
        a_err.contains("channel: plain TCP (unauthenticated, unencrypted)"),
        "{a_err}"
    );
    // Incomplete TLS flags are a usage error.
    let out = brickyard(home)
        .args(add32("alice", "5", false))
        .args([
            "--cert",
            "c.pem",
            "--cert-key",
            "k.pem",
            "--listen",
            "127.0.0.1:0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
