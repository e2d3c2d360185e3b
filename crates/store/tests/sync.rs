//! The session-id agreement and the next-index handshake.

mod common;

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_store::{agree_session_id, info_with_key, Role, SessionId, Store, SyncReport};
use common::*;

const SID: SessionId = SessionId([7; 16]);

fn both<A, B>(fa: impl FnOnce() -> A + Send, fb: impl FnOnce() -> B + Send) -> (A, B)
where
    A: Send,
    B: Send,
{
    std::thread::scope(|s| {
        let a = s.spawn(fa);
        let b = fb();
        (a.join().unwrap(), b)
    })
}

#[test]
fn session_id_agreement_gives_both_the_same_fresh_id() {
    let (mut ca, mut cb) = memory_pair();
    let (a, b) = both(
        || agree_session_id(&mut ca, Role::Alice, [1; 16]).unwrap(),
        || agree_session_id(&mut cb, Role::Bob, [2; 16]).unwrap(),
    );
    assert_eq!(a, b);
    let (mut ca, mut cb) = memory_pair();
    let (c, _) = both(
        || agree_session_id(&mut ca, Role::Alice, [1; 16]).unwrap(),
        || agree_session_id(&mut cb, Role::Bob, [3; 16]).unwrap(),
    );
    assert_ne!(a, c, "each contribution changes the id");
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || agree_session_id(&mut ca, Role::Alice, [1; 16]),
        || agree_session_id(&mut cb, Role::Alice, [2; 16]),
    );
    assert!(matches!(x, Err(Error::Config(_))) && matches!(y, Err(Error::Config(_))));
}

#[test]
fn stores_of_different_sessions_or_same_role_are_refused_at_the_handshake() {
    let fx = Fixture::new();
    let mut a = Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, 1024)).unwrap();
    let mut b = Store::create(
        &fx.dir("b"),
        config(&fx.key("b"), Role::Bob, SessionId([8; 16]), 1024),
    )
    .unwrap();
    let mut a2 =
        Store::create(&fx.dir("a2"), config(&fx.key("a2"), Role::Alice, SID, 1024)).unwrap();
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_next_index(&mut ca, &["ot"]),
        || b.sync_next_index(&mut cb, &["ot"]),
    );
    assert!(matches!(x, Err(Error::Config(m)) if m.contains("session")));
    assert!(matches!(y, Err(Error::Config(m)) if m.contains("session")));
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_next_index(&mut ca, &["ot"]),
        || a2.sync_next_index(&mut cb, &["ot"]),
    );
    assert!(matches!(x, Err(Error::Config(_))) && matches!(y, Err(Error::Config(_))));
}

fn sync_pair(a: &mut Store, b: &mut Store, kinds: &[&str]) -> (SyncReport, SyncReport) {
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_next_index(&mut ca, kinds).unwrap(),
        || b.sync_next_index(&mut cb, kinds).unwrap(),
    );
    (x, y)
}

/// Everything the handshake could change, as bytes: both copies of the
/// reservation state, the manifest and each data file's length.
fn snapshot(dir: &std::path::Path, key: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name == "lock" {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        v.push((name, bytes));
    }
    let mut mirror = key.as_os_str().to_owned();
    mirror.push(".state");
    v.push(("mirror".into(), std::fs::read(&mirror).unwrap()));
    v.sort();
    v
}

fn sync_err(a: &mut Store, b: &mut Store, kinds: &[&str]) -> (Error, Error) {
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_next_index(&mut ca, kinds),
        || b.sync_next_index(&mut cb, kinds),
    );
    (x.unwrap_err(), y.unwrap_err())
}

#[test]
fn handshake_refuses_any_disagreement_and_changes_nothing() {
    let fx = Fixture::new();
    let (da, ka, db, kb) = (fx.dir("a"), fx.key("a"), fx.dir("b"), fx.key("b"));
    let mut a = Store::create(&da, config(&ka, Role::Alice, SID, 1024)).unwrap();
    let mut b = Store::create(&db, config(&kb, Role::Bob, SID, 1024)).unwrap();
    produce(&mut a, Role::Alice, 100);
    produce(&mut b, Role::Bob, 100);
    // Agreeing stores: one number, nothing skipped.
    let (ra, rb) = sync_pair(&mut a, &mut b, &["ot", "gc"]);
    assert_eq!(ra, rb);
    assert_eq!((ra.kinds[0].next_index, ra.kinds[0].available), (0, 100));
    // Alice reserved 10 in a run Bob never saw (it stopped on her side).
    let _ = a.reserve("ot", 10).unwrap();
    let (sa, sb) = (snapshot(&da, &ka), snapshot(&db, &kb));
    let (x, y) = sync_err(&mut a, &mut b, &["ot", "gc"]);
    for e in [&x, &y] {
        assert!(
            matches!(e, Error::Config(m) if m.contains("ours is") && m.contains("--resync")),
            "{e}"
        );
    }
    assert_eq!((snapshot(&da, &ka), snapshot(&db, &kb)), (sa, sb));
    // A store whose preprocessing stopped early holds less: refused, not cut.
    produce(&mut b, Role::Bob, 5);
    let (sa, sb) = (snapshot(&da, &ka), snapshot(&db, &kb));
    let (x, _) = sync_err(&mut a, &mut b, &["gc"]);
    assert!(
        matches!(&x, Error::Config(m) if m.contains("105") && m.contains("100")),
        "{x}"
    );
    assert_eq!((snapshot(&da, &ka), snapshot(&db, &kb)), (sa, sb));
}

#[test]
fn resync_moves_both_forward_only_when_both_allow_it() {
    let fx = Fixture::new();
    let (da, ka, db, kb) = (fx.dir("a"), fx.key("a"), fx.dir("b"), fx.key("b"));
    let mut a = Store::create(&da, config(&ka, Role::Alice, SID, 1024)).unwrap();
    let mut b = Store::create(&db, config(&kb, Role::Bob, SID, 1024)).unwrap();
    produce(&mut a, Role::Alice, 100);
    produce(&mut b, Role::Bob, 100);
    let _ = b.reserve("ot", 20).unwrap();
    a.allow_resync(true);
    let (x, _) = sync_err(&mut a, &mut b, &["ot"]);
    assert!(
        matches!(x, Error::Config(_)),
        "one side alone cannot resync"
    );
    b.allow_resync(true);
    let (ra, rb) = sync_pair(&mut a, &mut b, &["ot"]);
    assert_eq!(
        (
            ra.kinds[0].next_index,
            ra.kinds[0].skipped,
            ra.kinds[0].available
        ),
        (20, 20, 80)
    );
    assert_eq!((rb.kinds[0].next_index, rb.kinds[0].skipped), (20, 0));
    let (x, y) = (a.reserve("ot", 80).unwrap(), b.reserve("ot", 80).unwrap());
    assert_eq!(x.range(), y.range());
    assert_eq!(a.read(&x).unwrap(), ot_records(Role::Alice, 20..100));
    drop(a);
    let info = info_with_key(&da, Some(&ka)).unwrap();
    assert_eq!((info.kinds[0].burned, info.kinds[0].remaining), (100, 0));
}

#[test]
fn a_run_asking_for_more_units_than_both_hold_reserves_nothing() {
    let fx = Fixture::new();
    let (da, ka, db, kb) = (fx.dir("a"), fx.key("a"), fx.dir("b"), fx.key("b"));
    let mut a = Store::create(&da, config(&ka, Role::Alice, SID, 1024)).unwrap();
    let mut b = Store::create(&db, config(&kb, Role::Bob, SID, 1024)).unwrap();
    // Units of 10 OTs and 3 blobs: 100 OTs and 100 blobs make 10 units.
    produce(&mut a, Role::Alice, 100);
    produce(&mut b, Role::Bob, 100);
    let unit = [("ot", 10), ("gc", 3)];
    let (sa, sb) = (snapshot(&da, &ka), snapshot(&db, &kb));
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_units(&mut ca, &unit, 11),
        || b.sync_units(&mut cb, &unit, 11),
    );
    for e in [x.unwrap_err(), y.unwrap_err()] {
        assert!(
            matches!(&e, Error::Exhausted(m) if m.contains("have 10") && m.contains("asks for 11")),
            "{e}"
        );
    }
    assert_eq!((snapshot(&da, &ka), snapshot(&db, &kb)), (sa, sb));
    let (mut ca, mut cb) = memory_pair();
    let (x, y) = both(
        || a.sync_units(&mut ca, &unit, 10),
        || b.sync_units(&mut cb, &unit, 10),
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x, y);
    assert_eq!((x.next_unit, x.available_units), (0, 10));
}

/// A peer that lies about its counts at the handshake: every lie ends in
/// a named error on the honest side, whose store is left byte for byte as
/// it was, and never in an agreement.
#[cfg(feature = "adversary")]
#[test]
fn lying_peers_are_refused_and_leave_the_honest_store_unchanged() {
    use brickyard_store::{SyncLie, SYNC_CHECK};
    let unit = [("ot", 10), ("gc", 3)];
    let cases: Vec<(SyncLie, &str)> = vec![
        // One kind of a unit shifted against the other: TinyTable's
        // execution record j+1 with tables j.
        (SyncLie::ShiftNext { kind: 0, by: 10 }, "cheating"),
        (SyncLie::ShiftNext { kind: 1, by: 3 }, "cheating"),
        (SyncLie::ShiftNext { kind: 0, by: 1 }, "cheating"),
        (SyncLie::ShiftNext { kind: 1, by: -3 }, "cheating"),
        (SyncLie::NextPastEnd { kind: 0 }, "cheating"),
        // A whole unit skipped forward or back: what a stopped run leaves,
        // refused without an operator's --resync on both sides.
        (SyncLie::ShiftAll { by: 1 }, "config"),
        (SyncLie::ShiftAll { by: -1 }, "config"),
        // Truncated or inflated produced counts.
        (SyncLie::ShiftProduced { kind: 0, by: -10 }, "config"),
        (SyncLie::ShiftProduced { kind: 1, by: 30 }, "config"),
        (SyncLie::ShiftProduced { kind: 0, by: 1 }, "config"),
    ];
    for (lie, want) in cases {
        let fx = Fixture::new();
        let (da, ka, db, kb) = (fx.dir("a"), fx.key("a"), fx.dir("b"), fx.key("b"));
        let mut a = Store::create(&da, config(&ka, Role::Alice, SID, 1024)).unwrap();
        let mut b = Store::create(&db, config(&kb, Role::Bob, SID, 1024)).unwrap();
        produce(&mut a, Role::Alice, 100);
        produce(&mut b, Role::Bob, 100);
        // Both used two units before, in step.
        let _ = a.reserve_many(&[("ot", 20), ("gc", 6)]).unwrap();
        let _ = b.reserve_many(&[("ot", 20), ("gc", 6)]).unwrap();
        b.lie_at_sync(lie);
        // A claim no honest store can make is refused even with --resync on
        // both sides (which honours the others: forward only, never reuse).
        let resync = matches!(lie, SyncLie::ShiftNext { .. } | SyncLie::NextPastEnd { .. });
        a.allow_resync(resync);
        b.allow_resync(resync);
        let before = snapshot(&da, &ka);
        let (mut ca, mut cb) = memory_pair();
        let (x, _) = both(
            || a.sync_units(&mut ca, &unit, 1),
            || b.sync_units(&mut cb, &unit, 1),
        );
        let e = x.expect_err(&format!("{lie:?} was accepted"));
        match want {
            "cheating" => assert!(
                matches!(e, Error::Cheating { check } if check == SYNC_CHECK),
                "{lie:?}: {e}"
            ),
            _ => assert!(matches!(e, Error::Config(_)), "{lie:?}: {e}"),
        }
        assert_eq!(
            snapshot(&da, &ka),
            before,
            "{lie:?} changed the honest store"
        );
    }
}
