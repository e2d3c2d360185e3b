//! Crash injection: real child processes are SIGKILLed at random points of
//! preprocessing writes, reservations, reads and handshakes, over many runs.
//! The checker proves that no index is ever handed out twice and that nothing
//! durably produced is lost silently.
//!
//! The CI versions run for a few seconds each. Longer soaks:
//! `BRICKYARD_STORE_SOAK_SECS=600 cargo test -p brickyard-store --release --test crash -- --ignored`

mod common;

use brickyard_core::channel::Transport;
use brickyard_core::{Channel, Error};
use brickyard_store::{Role, SessionId, Store};
use common::*;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "BRICKYARD_STORE_CRASH_CHILD";
const SID: SessionId = SessionId([0x5a; 16]);
/// Small chunks so that kills land inside multi-chunk batches.
const CHUNK: usize = 1024;
const EXIT_PEER_GONE: i32 = 2;
const EXIT_WRONG_MATERIAL: i32 = 3;

// ---------------------------------------------------------------- utilities

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env_path(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os(name).expect(name))
}

fn env_u64(name: &str) -> u64 {
    std::env::var(name).expect(name).parse().expect(name)
}

/// An fsync'd line log: a line that is present was written before the
/// process went on to do anything else. Each line ends in " ." so that a
/// line torn by a kill is recognisable even after the next child appends
/// behind it (a torn "R ot 12 3" of "R ot 12 300" would otherwise parse).
struct Log(File);
impl Log {
    fn open(p: &Path) -> Log {
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(p)
            .unwrap();
        // A kill mid-line leaves a fragment without its newline: end it, so
        // the fragment stays a line of its own and is skipped as torn.
        let text = std::fs::read(p).unwrap();
        if text.last().is_some_and(|&b| b != b'\n') {
            f.write_all(b"\n").unwrap();
        }
        Log(f)
    }
    fn line(&mut self, s: String) {
        self.0.write_all(format!("{s} .\n").as_bytes()).unwrap();
        self.0.sync_data().unwrap();
    }
}

/// Parsed logs: per kind, the highest produced count reported after a
/// commit, and every reserved range.
#[derive(Default)]
struct Logged {
    produced: BTreeMap<String, u64>,
    reserved: BTreeMap<String, Vec<(u64, u64)>>,
}

fn parse_log(p: &Path) -> Logged {
    let mut out = Logged::default();
    let text = std::fs::read_to_string(p).unwrap_or_default();
    // Only complete lines (ending in " ."): a kill may tear a line.
    for line in text.lines().filter(|l| l.ends_with(" .")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["P", k, n, "."] => {
                let e = out.produced.entry(k.to_string()).or_default();
                *e = (*e).max(n.parse().unwrap());
            }
            ["R", k, s, c, "."] => out
                .reserved
                .entry(k.to_string())
                .or_default()
                .push((s.parse().unwrap(), c.parse().unwrap())),
            _ => panic!("bad log line {line:?}"),
        }
    }
    out
}

fn assert_no_index_twice(logged: &Logged, who: &str) -> u64 {
    let mut total = 0;
    for (kind, ranges) in &logged.reserved {
        let mut v = ranges.clone();
        v.sort();
        for w in v.windows(2) {
            assert!(
                w[0].0 + w[0].1 <= w[1].0,
                "{who}: kind {kind}: ranges {:?} and {:?} overlap — an index was handed out twice",
                w[0],
                w[1]
            );
        }
        total += v.iter().map(|r| r.1).sum::<u64>();
    }
    total
}

/// The durable facts the logs promise must hold in the store.
fn check_store_against_log(dir: &Path, key: &Path, role: Role, logged: &Logged, who: &str) {
    let s = Store::open(dir, &expected(key, role))
        .unwrap_or_else(|e| panic!("{who}: store does not reopen after a kill: {e}"));
    let info = s.info();
    for k in &info.kinds {
        let p = logged.produced.get(&k.name).copied().unwrap_or(0);
        assert!(
            k.produced + k.dropped >= p,
            "{who}: kind {}: {p} records were durably committed but only {} remain and {} were reported dropped",
            k.name,
            k.produced,
            k.dropped
        );
        let r = logged
            .reserved
            .get(&k.name)
            .map(|v| v.iter().map(|r| r.0 + r.1).max().unwrap_or(0))
            .unwrap_or(0);
        assert!(
            k.next_index >= r,
            "{who}: kind {}: reservation up to {r} was forgotten (next {})",
            k.name,
            k.next_index
        );
        if k.produced >= k.next_index {
            assert_eq!(
                k.consumed + k.burned + k.in_use + k.remaining,
                k.produced,
                "{who}: accounting"
            );
        }
    }
}

fn spawn_child(mode: &str, envs: &[(&str, String)], stderr: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "crash_child_entry",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, mode)
        .envs(envs.iter().map(|(k, v)| (*k, v.clone())))
        .stdout(Stdio::null())
        .stderr(File::create(stderr).unwrap())
        .spawn()
        .unwrap()
}

/// Waits for a child; `Some(code)` if it exited, `None` if it was killed.
/// A child still running after `grace` is killed: a survivor can be stuck
/// waiting to accept a peer that was killed before it connected.
fn reap(mut c: Child, stderr: &Path, grace: Duration) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let kill_at = Instant::now() + grace;
    loop {
        if Instant::now() > kill_at {
            let _ = c.kill();
        }
        if let Some(st) = c.try_wait().unwrap() {
            if st.signal() == Some(9) {
                return None;
            }
            let code = st.code().unwrap_or(-1);
            assert!(
                code == 0 || code == EXIT_PEER_GONE,
                "child failed with {st}: {}",
                std::fs::read_to_string(stderr).unwrap_or_default()
            );
            return Some(code);
        }
        assert!(Instant::now() < deadline, "child hung");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn budget(ci_secs: u64) -> Duration {
    Duration::from_secs(
        std::env::var("BRICKYARD_STORE_SOAK_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(ci_secs),
    )
}

// ---------------------------------------------------------------- children

/// Entry point of the re-executed test binary; a no-op in a normal run.
#[test]
fn crash_child_entry() {
    let Ok(mode) = std::env::var(CHILD_ENV) else {
        return;
    };
    let code = match mode.as_str() {
        "single" => single_child(),
        "alice" => party_child(Role::Alice),
        "bob" => party_child(Role::Bob),
        _ => 99,
    };
    std::process::exit(code);
}

fn append_batch(s: &mut Store, role: Role, kind: &str, n: u64) {
    let base = s.produced(kind).unwrap();
    if kind == "ot" {
        s.append("ot", &ot_records(role, base..base + n)).unwrap();
    } else {
        for i in base..base + n {
            s.append_blob("gc", &gc_record(role, i)).unwrap();
        }
    }
    s.commit().unwrap();
}

fn read_matches(s: &mut Store, role: Role, r: &brickyard_store::Reservation) -> bool {
    if r.kind() == "ot" {
        s.read(r).unwrap() == ot_records(role, r.range())
    } else {
        s.read_blobs(r).unwrap() == r.range().map(|i| gc_record(role, i)).collect::<Vec<_>>()
    }
}

fn single_child() -> i32 {
    let dir = env_path("CRASH_DIR");
    let key = env_path("CRASH_KEY");
    let mut log = Log::open(&env_path("CRASH_LOG"));
    let mut rng = Rng(env_u64("CRASH_SEED") | 1);
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    for _ in 0..10_000 {
        let kind = if rng.below(2) == 0 { "ot" } else { "gc" };
        if rng.below(10) < 4 {
            append_batch(&mut s, Role::Alice, kind, 1 + rng.below(300));
            log.line(format!("P {kind} {}", s.produced(kind).unwrap()));
        } else {
            let r = match s.reserve(kind, 1 + rng.below(100)) {
                Ok(r) => r,
                Err(Error::Exhausted(_)) => continue,
                Err(e) => panic!("reserve: {e}"),
            };
            log.line(format!("R {kind} {} {}", r.start(), r.count()));
            if !read_matches(&mut s, Role::Alice, &r) {
                return EXIT_WRONG_MATERIAL;
            }
            if rng.below(5) != 0 {
                s.finish(r).unwrap();
            }
        }
    }
    0
}

/// A plain TCP transport, so this test does not depend on core's.
struct Tcp(TcpStream);
impl Transport for Tcp {
    fn write_all(&mut self, d: &[u8]) -> brickyard_core::Result<()> {
        self.0.write_all(d).map_err(Error::Io)
    }
    fn read_exact(&mut self, b: &mut [u8]) -> brickyard_core::Result<()> {
        self.0.read_exact(b).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => Error::Disconnected(e.to_string()),
            _ => Error::Io(e),
        })
    }
    fn flush(&mut self) -> brickyard_core::Result<()> {
        self.0.flush().map_err(Error::Io)
    }
}

/// Alice listens on a port the OS picks and publishes it in `port_file`
/// (written whole, then renamed); Bob waits for the file. A port chosen
/// by the parent and bound later by the child could be taken in between
/// by another process, whose bytes would then fail the run.
fn connect(role: Role, port_file: &Path) -> Option<Channel> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let stream = match role {
        Role::Alice => {
            let l = TcpListener::bind("127.0.0.1:0").ok()?;
            let tmp = port_file.with_extension("tmp");
            std::fs::write(&tmp, l.local_addr().ok()?.port().to_string()).ok()?;
            std::fs::rename(&tmp, port_file).ok()?;
            l.set_nonblocking(true).ok()?;
            loop {
                match l.accept() {
                    Ok((s, _)) => break s,
                    Err(_) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Err(_) => return None,
                }
            }
        }
        Role::Bob => loop {
            let port = std::fs::read_to_string(port_file).ok();
            if let Some(Ok(s)) = port.map(|p| TcpStream::connect(format!("127.0.0.1:{p}"))) {
                break s;
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        },
    };
    stream.set_nonblocking(false).ok()?;
    stream.set_nodelay(true).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    Some(Channel::new(Tcp(stream)))
}

fn peer_gone(e: &Error) -> bool {
    matches!(e, Error::Disconnected(_) | Error::Io(_) | Error::Timeout(_))
}

fn party_child(role: Role) -> i32 {
    let dir = env_path("CRASH_DIR");
    let key = env_path("CRASH_KEY");
    let mut log = Log::open(&env_path("CRASH_LOG"));
    // Both parties draw the same operation sequence.
    let mut rng = Rng(env_u64("CRASH_SEED") | 1);
    let mut s = Store::open(&dir, &expected(&key, role)).unwrap();
    // Runs here are killed on one side at random: exactly what an operator
    // resolves by allowing a resync (skip forward, cut what one side lacks).
    s.allow_resync(true);
    let Some(mut ch) = connect(role, &env_path("CRASH_PORT_FILE")) else {
        return EXIT_PEER_GONE;
    };
    macro_rules! net {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) if peer_gone(&e) => return EXIT_PEER_GONE,
                Err(e) => panic!("{role}: {e}"),
            }
        };
    }
    for _ in 0..10_000 {
        net!(s.sync_next_index(&mut ch, &["ot"]));
        let n = 1 + rng.below(300);
        if rng.below(10) < 4 {
            append_batch(&mut s, role, "ot", n);
            log.line(format!("P ot {}", s.produced("ot").unwrap()));
            continue;
        }
        let r = match s.reserve("ot", n / 3 + 1) {
            Ok(r) => r,
            Err(Error::Exhausted(_)) => continue,
            Err(e) => panic!("reserve: {e}"),
        };
        log.line(format!("R ot {} {}", r.start(), r.count()));
        if !read_matches(&mut s, role, &r) {
            return EXIT_WRONG_MATERIAL;
        }
        // The online phase: both must be using the same indices, and the
        // peer's material at them must be its half of ours.
        let mine = blake3::hash(&ot_records(role, r.range()));
        net!(ch.send_msg(&(r.start(), r.count())));
        let (ps, pc): (u64, u64) = net!(ch.recv_msg());
        net!(ch.send_bytes(mine.as_bytes()));
        let mut theirs = [0u8; 32];
        net!(ch.recv_bytes(&mut theirs));
        if (ps, pc) != (r.start(), r.count())
            || theirs != *blake3::hash(&ot_records(role.peer(), r.range())).as_bytes()
        {
            return EXIT_WRONG_MATERIAL;
        }
        if rng.below(5) != 0 {
            s.finish(r).unwrap();
        }
    }
    0
}

// ---------------------------------------------------------------- drivers

fn single_party(budget: Duration) {
    let fx = Fixture::new();
    let (dir, key, log) = (fx.dir("a"), fx.key("a"), fx.root.path().join("log"));
    drop(Store::create(&dir, config(&key, Role::Alice, SID, CHUNK)).unwrap());
    let err = fx.root.path().join("stderr");
    let mut rng = Rng(0x1234_5678_9abc_def1 ^ budget.as_nanos() as u64);
    let (mut runs, mut kills) = (0, 0);
    let start = Instant::now();
    while start.elapsed() < budget {
        let env = [
            ("CRASH_DIR", dir.display().to_string()),
            ("CRASH_KEY", key.display().to_string()),
            ("CRASH_LOG", log.display().to_string()),
            ("CRASH_SEED", rng.next().to_string()),
        ];
        let mut c = spawn_child("single", &env, &err);
        std::thread::sleep(Duration::from_micros(2_000 + rng.below(60_000)));
        let _ = c.kill();
        if reap(c, &err, Duration::ZERO).is_none() {
            kills += 1;
        }
        runs += 1;
        // Check durable promises after most kills; leave some recoveries to
        // the next child, so kills during recovery happen too.
        if rng.below(3) != 0 {
            check_store_against_log(&dir, &key, Role::Alice, &parse_log(&log), "single");
        }
    }
    check_store_against_log(&dir, &key, Role::Alice, &parse_log(&log), "single");
    let logged = parse_log(&log);
    let used = assert_no_index_twice(&logged, "single");
    eprintln!(
        "single-party crash test: {runs} runs, {kills} kills, {used} records handed out once each"
    );
    assert!(kills >= 10, "too few kills ({kills}) to mean anything");
    assert!(used > 1000, "too little material used ({used})");
}

fn two_party(budget: Duration) {
    let fx = Fixture::new();
    let roles = [Role::Alice, Role::Bob];
    let names = ["alice", "bob"];
    for (r, n) in roles.iter().zip(names) {
        drop(Store::create(&fx.dir(n), config(&fx.key(n), *r, SID, CHUNK)).unwrap());
    }
    let log = |n: &str| fx.root.path().join(format!("{n}.log"));
    let err = |n: &str| fx.root.path().join(format!("{n}.stderr"));
    let mut rng = Rng(0x0fed_cba9_8765_4321 ^ budget.as_nanos() as u64);
    let (mut runs, mut kills, mut clean_exits) = (0, 0, 0);
    let start = Instant::now();
    while start.elapsed() < budget {
        let seed = rng.next().to_string();
        let port = fx.root.path().join(format!("port-{runs}"));
        let children: Vec<Child> = names
            .iter()
            .map(|n| {
                let env = [
                    ("CRASH_DIR", fx.dir(n).display().to_string()),
                    ("CRASH_KEY", fx.key(n).display().to_string()),
                    ("CRASH_LOG", log(n).display().to_string()),
                    ("CRASH_SEED", seed.clone()),
                    ("CRASH_PORT_FILE", port.display().to_string()),
                ];
                spawn_child(n, &env, &err(n))
            })
            .collect();
        std::thread::sleep(Duration::from_micros(5_000 + rng.below(100_000)));
        // Kill Alice, Bob or both; the survivor must notice and exit cleanly.
        let victim = rng.below(3);
        let mut children = children;
        for (i, c) in children.iter_mut().enumerate() {
            if victim == 2 || victim == i as u64 {
                let _ = c.kill();
            }
        }
        for (c, n) in children.into_iter().zip(names) {
            match reap(c, &err(n), Duration::from_millis(500)) {
                None => kills += 1,
                Some(EXIT_PEER_GONE) => clean_exits += 1,
                Some(_) => {}
            }
        }
        runs += 1;
        if rng.below(3) != 0 {
            for (r, n) in roles.iter().zip(names) {
                check_store_against_log(&fx.dir(n), &fx.key(n), *r, &parse_log(&log(n)), n);
            }
        }
    }
    let mut used = 0;
    for (r, n) in roles.iter().zip(names) {
        let logged = parse_log(&log(n));
        check_store_against_log(&fx.dir(n), &fx.key(n), *r, &logged, n);
        used += assert_no_index_twice(&logged, n);
    }
    eprintln!(
        "two-party crash test: {runs} runs, {kills} kills, {clean_exits} survivors saw the peer die, {used} records handed out once each"
    );
    assert!(
        clean_exits >= 5,
        "survivors should notice a dead peer ({clean_exits})"
    );
    assert!(kills >= 10, "too few kills ({kills}) to mean anything");
    assert!(used > 1000, "too little material used ({used})");
}

#[test]
fn single_party_crashes_never_reuse_or_lose_material() {
    single_party(budget(6));
}

#[test]
fn two_party_crashes_never_reuse_or_lose_material() {
    two_party(budget(8));
}

#[test]
#[ignore = "soak: BRICKYARD_STORE_SOAK_SECS=600 cargo test -p brickyard-store --release --test crash -- --ignored"]
fn soak_single_party() {
    single_party(budget(300));
}

#[test]
#[ignore = "soak: BRICKYARD_STORE_SOAK_SECS=600 cargo test -p brickyard-store --release --test crash -- --ignored"]
fn soak_two_party() {
    two_party(budget(300));
}
