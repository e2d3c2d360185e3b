//! Store-backed Lindell–Riva: the offline stage (bundles, cut-and-choose,
//! buckets) in one "process", each online execution in a later one, each
//! with fresh party objects and reopened stores. A bucket is used once,
//! ever: later runs take later buckets, a run that asks for more than is
//! left is refused with the stores unchanged, a bucket a crashed run
//! reserved is never used, a restored copy of a store does not roll its
//! index back, and a store made for another circuit is refused by name.

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_lindell_riva::party::{LrAlice, LrBob};
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::{Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_store::{info_with_key, Expected, SessionId, Store, StoreConfig};
use brickyard_testkit::{assemble, cfg_for, random_circuit, random_inputs, Rng};
use std::path::Path;

const P: &str = "lindell-riva";

fn key(dir: &Path, role: Role) -> std::path::PathBuf {
    dir.join(format!("{}.key", role.name()))
}

fn party(role: Role, cfg: &RunConfig) -> Box<dyn Party> {
    match role {
        Role::Alice => Box::new(LrAlice::new(cfg.clone()).unwrap()),
        Role::Bob => Box::new(LrBob::new(cfg.clone()).unwrap()),
    }
}

fn open(dir: &Path, role: Role, cfg: &RunConfig) -> brickyard_core::Result<Store> {
    let mut e = Expected::new(P, role.store_role());
    e.key_path = Some(key(dir, role));
    e.parameters = party(role, cfg).store_parameters();
    Store::open(&dir.join(role.name()), &e)
}

/// Preprocessing for `cfg.executions` buckets into new stores.
fn preprocess(dir: &Path, cfg: &RunConfig) {
    let (ca, cb) = memory_pair();
    let hs: Vec<_> = [(Role::Alice, ca), (Role::Bob, cb)]
        .into_iter()
        .map(|(role, mut ch)| {
            let (cfg, dir) = (cfg.clone(), dir.to_path_buf());
            std::thread::spawn(move || {
                let mut p = party(role, &cfg);
                let mut sc = StoreConfig::new(P, role.store_role(), SessionId([7; 16]));
                sc.key_path = Some(key(&dir, role));
                sc.parameters = p.store_parameters();
                p.attach_store(Store::create(&dir.join(role.name()), sc)?)?;
                let phases = PhaseSet {
                    preprocess: true,
                    online: false,
                };
                run_party(P, p.as_mut(), role, &mut ch, &cfg, &[], phases)
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap().unwrap();
    }
}

/// One online run from the stores, one execution per input pair; Bob's
/// outputs. Fresh parties, reopened stores (a new "process" each time).
fn online(
    dir: &Path,
    cfg: &RunConfig,
    ins: &[(PartyInputs, PartyInputs)],
) -> brickyard_core::Result<Vec<Outputs>> {
    let mut cfg = cfg.clone();
    cfg.executions = ins.len();
    let (ca, cb) = memory_pair();
    let hs: Vec<_> = [(Role::Alice, ca), (Role::Bob, cb)]
        .into_iter()
        .map(|(role, mut ch)| {
            let (cfg, dir) = (cfg.clone(), dir.to_path_buf());
            let mine: Vec<PartyInputs> = ins
                .iter()
                .map(|(a, b)| if role == Role::Alice { a } else { b }.clone())
                .collect();
            std::thread::spawn(move || {
                let mut store = open(&dir, role, &cfg)?;
                store.check_usable()?;
                store.allow_resync(dir.join("resync").exists());
                let mut cfg = cfg;
                cfg.store_session = Some(store.session_id().to_hex());
                let mut p = party(role, &cfg);
                p.attach_store(store)?;
                let phases = PhaseSet {
                    preprocess: false,
                    online: true,
                };
                let r = run_party(P, p.as_mut(), role, &mut ch, &cfg, &mine, phases);
                drop(ch);
                r
            })
        })
        .collect();
    let mut rs: Vec<_> = hs.into_iter().map(|h| h.join().unwrap()).collect();
    let bob = rs.pop().unwrap();
    let alice = rs.pop().unwrap();
    let b = bob?;
    alice?;
    Ok(b.outputs.into_iter().flatten().collect())
}

/// `(produced, next index)` of the bucket kind in `role`'s store.
fn buckets(dir: &Path, role: Role) -> (u64, u64) {
    let info = info_with_key(&dir.join(role.name()), Some(&key(dir, role))).unwrap();
    let k = info.kinds.iter().find(|k| k.name == "lr-bucket").unwrap();
    (k.produced, k.next_index)
}

/// `(consumed, burned)` buckets of `role`'s store.
fn spent(dir: &Path, role: Role) -> (u64, u64) {
    let info = info_with_key(&dir.join(role.name()), Some(&key(dir, role))).unwrap();
    let k = info.kinds.iter().find(|k| k.name == "lr-bucket").unwrap();
    (k.consumed, k.burned)
}

fn fresh(rng: &mut Rng, cfg: &RunConfig) -> (PartyInputs, PartyInputs, Outputs) {
    let x = random_inputs(rng, cfg, Role::Alice, 1).remove(0);
    let y = random_inputs(rng, cfg, Role::Bob, 1).remove(0);
    let want = cfg.circuit.eval(&assemble(cfg, &x, &y)).unwrap();
    (x, y, want)
}

fn setup(seed: u64, executions: usize) -> (tempfile::TempDir, RunConfig, Rng) {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = Rng(seed);
    let mut cfg = cfg_for(random_circuit(&mut rng, 2, 30, 2));
    cfg.executions = executions;
    preprocess(tmp.path(), &cfg);
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(tmp.path(), role), (executions as u64, 0));
    }
    (tmp, cfg, rng)
}

#[test]
fn three_buckets_three_runs_then_refused() {
    let (tmp, cfg, mut rng) = setup(0x1a, 3);
    let dir = tmp.path();
    for k in 0..3u64 {
        let (x, y, want) = fresh(&mut rng, &cfg);
        assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want], "run {k}");
        for role in [Role::Alice, Role::Bob] {
            assert_eq!(buckets(dir, role), (3, k + 1), "{role:?} after run {k}");
            // Taken (read ahead, then reserved) counts as consumed, not burned.
            assert_eq!(spent(dir, role), (k + 1, 0), "{role:?} after run {k}");
        }
    }
    let (x, y, _) = fresh(&mut rng, &cfg);
    match online(dir, &cfg, &[(x, y)]) {
        Err(Error::Exhausted(m)) => assert!(m.contains("have 0"), "{m}"),
        other => panic!("a fourth run must be refused, got {other:?}"),
    }
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(dir, role), (3, 3));
    }
}

#[test]
fn asking_for_more_than_is_left_consumes_nothing() {
    let (tmp, cfg, mut rng) = setup(0x2b, 2);
    let dir = tmp.path();
    let ins: Vec<_> = (0..3)
        .map(|_| {
            let (x, y, _) = fresh(&mut rng, &cfg);
            (x, y)
        })
        .collect();
    assert!(matches!(online(dir, &cfg, &ins), Err(Error::Exhausted(_))));
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(dir, role), (2, 0));
    }
    // Both buckets in one run.
    let (x0, y0, w0) = fresh(&mut rng, &cfg);
    let (x1, y1, w1) = fresh(&mut rng, &cfg);
    let out = online(dir, &cfg, &[(x0, y0), (x1, y1)]).unwrap();
    assert_eq!(out, vec![w0, w1]);
}

/// A party that died after reserving its bucket (kill -9 between the
/// reservation and anything else): that bucket is never used; the stores
/// disagree and are refused until both allow a resync, which skips it;
/// the unused bucket after it is not lost.
#[test]
fn a_bucket_a_crashed_run_reserved_is_never_used() {
    let (tmp, cfg, mut rng) = setup(0x3c, 3);
    let dir = tmp.path();
    {
        let mut s = open(dir, Role::Bob, &cfg).unwrap();
        let _r = s.reserve("lr-bucket", 1).unwrap();
        // The process dies here: no finish, no release.
    }
    assert_eq!(buckets(dir, Role::Bob), (3, 1));
    let (x, y, want) = fresh(&mut rng, &cfg);
    match online(dir, &cfg, &[(x.clone(), y.clone())]) {
        Err(Error::Config(m)) if m.contains("--resync") => {}
        other => panic!("disagreeing stores must be refused, got {other:?}"),
    }
    assert_eq!(buckets(dir, Role::Alice), (3, 0));
    std::fs::write(dir.join("resync"), b"").unwrap();
    assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want]);
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(dir, role), (3, 2), "{role:?}");
    }
    let (x, y, want) = fresh(&mut rng, &cfg);
    assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want]);
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(dir, role), (3, 3), "{role:?}");
    }
}

/// Both parties died in the middle of an execution, after each reserved
/// its bucket: the stores agree that bucket 0 is spent, the next run uses
/// bucket 1 without any resync, and bucket 0 is never read again.
#[test]
fn a_bucket_both_reserved_before_dying_stays_spent() {
    let (tmp, cfg, mut rng) = setup(0x4d, 2);
    let dir = tmp.path();
    for role in [Role::Alice, Role::Bob] {
        let mut s = open(dir, role, &cfg).unwrap();
        let r = s.reserve("lr-bucket", 1).unwrap();
        assert_eq!(r.start(), 0);
        // Read (as the execution does), then the process dies.
        let _ = s.read_blobs(&r).unwrap();
    }
    let (x, y, want) = fresh(&mut rng, &cfg);
    assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want]);
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(buckets(dir, role), (2, 2), "{role:?}");
    }
    let (x, y, _) = fresh(&mut rng, &cfg);
    assert!(matches!(
        online(dir, &cfg, &[(x, y)]),
        Err(Error::Exhausted(_))
    ));
}

/// Copies of a store directory taken before a run do not bring its
/// buckets back: the reservation state's mirror beside the key keeps the
/// newer index.
#[test]
fn a_restored_copy_of_a_store_does_not_replay_buckets() {
    let (tmp, cfg, mut rng) = setup(0x5e, 2);
    let dir = tmp.path();
    let backup = dir.join("backup");
    for role in [Role::Alice, Role::Bob] {
        copy_dir(&dir.join(role.name()), &backup.join(role.name()));
    }
    let (x, y, want) = fresh(&mut rng, &cfg);
    assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want]);
    for role in [Role::Alice, Role::Bob] {
        std::fs::remove_dir_all(dir.join(role.name())).unwrap();
        copy_dir(&backup.join(role.name()), &dir.join(role.name()));
        assert_eq!(buckets(dir, role), (2, 1), "{role:?}: the copy rolled back");
    }
    let (x, y, want) = fresh(&mut rng, &cfg);
    assert_eq!(online(dir, &cfg, &[(x, y)]).unwrap(), vec![want]);
    let (x, y, _) = fresh(&mut rng, &cfg);
    assert!(matches!(
        online(dir, &cfg, &[(x, y)]),
        Err(Error::Exhausted(_))
    ));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// A store made for one circuit refuses a run of another, naming the
/// circuit digest, before anything is reserved.
#[test]
fn a_store_for_another_circuit_is_refused_by_name() {
    let (tmp, _cfg, mut rng) = setup(0x6f, 1);
    let dir = tmp.path();
    let other = cfg_for(random_circuit(&mut rng, 2, 31, 2));
    for role in [Role::Alice, Role::Bob] {
        match open(dir, role, &other) {
            Err(Error::Config(m)) => assert!(m.contains("circuit digest"), "{m}"),
            Err(e) => panic!("{role:?}: {e:?}"),
            Ok(_) => panic!("{role:?}: a store for another circuit opened"),
        }
        assert_eq!(buckets(dir, role), (1, 0));
    }
}

/// Stored files are private.
#[test]
fn stored_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let (tmp, _cfg, _) = setup(0x70, 1);
    for role in [Role::Alice, Role::Bob] {
        for e in std::fs::read_dir(tmp.path().join(role.name())).unwrap() {
            let e = e.unwrap();
            let mode = e.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode & 0o077, 0, "{}: {mode:o}", e.path().display());
        }
        assert!(!tmp
            .path()
            .join(role.name())
            .join("lr-bundles.spill")
            .exists());
    }
}

/// A peer whose store lies at the bucket handshake (adversary builds: a
/// lying store): a next index past its buckets is refused even when both
/// allow a resync; a shifted one is refused (indistinguishable from a run
/// that stopped on one side) until the operator allows a resync. Either
/// way no output, and our store is unchanged.
#[cfg(feature = "adversary")]
#[test]
fn a_peer_lying_about_the_bucket_index_is_refused() {
    use brickyard_store::SyncLie;
    let (tmp, cfg, mut rng) = setup(0x71, 3);
    let dir = tmp.path();
    for lie in [
        SyncLie::NextPastEnd { kind: 0 },
        SyncLie::ShiftNext { kind: 0, by: 1 },
        SyncLie::ShiftProduced { kind: 0, by: -1 },
    ] {
        let (x, y, _) = fresh(&mut rng, &cfg);
        let (ca, cb) = memory_pair();
        let mut hs = Vec::new();
        for (role, mut ch, mine) in [(Role::Alice, ca, x), (Role::Bob, cb, y)] {
            let (cfg, dir) = (cfg.clone(), dir.to_path_buf());
            hs.push(std::thread::spawn(move || {
                let mut cfg = cfg;
                cfg.executions = 1;
                let mut store = open(&dir, role, &cfg)?;
                if role == Role::Alice {
                    store.lie_at_sync(lie);
                }
                // Past the end is a lie even to an operator who allows a resync.
                store.allow_resync(matches!(lie, SyncLie::NextPastEnd { .. }));
                cfg.store_session = Some(store.session_id().to_hex());
                let mut p = party(role, &cfg);
                p.attach_store(store)?;
                let phases = PhaseSet {
                    preprocess: false,
                    online: true,
                };
                let r = run_party(P, p.as_mut(), role, &mut ch, &cfg, &[mine], phases);
                drop(ch);
                r
            }));
        }
        let bob = hs.pop().unwrap().join().unwrap();
        let _ = hs.pop().unwrap().join().unwrap();
        match (lie, bob) {
            // One kind per unit: a next past the end reads as "nothing left".
            (
                SyncLie::NextPastEnd { .. },
                Err(
                    Error::Cheating {
                        check: "store-sync",
                    }
                    | Error::Exhausted(_),
                ),
            ) => {}
            (_, Err(Error::Config(_))) if !matches!(lie, SyncLie::NextPastEnd { .. }) => {}
            (_, other) => panic!("{lie:?}: {other:?}"),
        }
        assert_eq!(buckets(dir, Role::Bob), (3, 0), "{lie:?}");
    }
}

/// Two stores of the same session id, parameters and `N` but from two
/// different preprocessings (other E, other bundles): the setup digests
/// differ, and both parties stop at `store-sync` before any bucket is
/// reserved.
#[test]
fn stores_of_two_preprocessings_are_caught_at_store_sync() {
    let (tmp, cfg, mut rng) = setup(0x72, 2);
    let (tmp2, _, _) = setup(0x72, 2);
    let (d1, d2) = (tmp.path(), tmp2.path());
    for e in std::fs::read_dir(d1).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().starts_with("bob") {
            if e.path().is_dir() {
                std::fs::remove_dir_all(e.path()).unwrap();
            } else {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
    }
    for e in std::fs::read_dir(d2).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if name.to_string_lossy().starts_with("bob") {
            if e.path().is_dir() {
                copy_dir(&e.path(), &d1.join(&name));
            } else {
                std::fs::copy(e.path(), d1.join(&name)).unwrap();
            }
        }
    }
    let (x, y, _) = fresh(&mut rng, &cfg);
    match online(d1, &cfg, &[(x, y)]) {
        Err(Error::Cheating { check }) => assert_eq!(check, "store-sync"),
        other => panic!("{other:?}"),
    }
}
