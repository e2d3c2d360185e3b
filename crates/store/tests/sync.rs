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

#[test]
fn handshake_takes_max_of_next_and_min_of_produced_and_reports_drops() {
    let fx = Fixture::new();
    let (da, ka, db, kb) = (fx.dir("a"), fx.key("a"), fx.dir("b"), fx.key("b"));
    let mut a = Store::create(&da, config(&ka, Role::Alice, SID, 1024)).unwrap();
    let mut b = Store::create(&db, config(&kb, Role::Bob, SID, 1024)).unwrap();
    // Alice wrote 100 records, Bob only 80 (he crashed); the cut at 80 falls
    // in the middle of Alice's second chunk (64 records per chunk).
    produce(&mut a, Role::Alice, 100);
    produce(&mut b, Role::Bob, 80);
    // Alice reserved 10 in one run, Bob 20 in a run Alice never saw.
    let _ = a.reserve("ot", 10).unwrap();
    let _ = b.reserve("ot", 20).unwrap();
    let (ra, rb) = sync_pair(&mut a, &mut b, &["ot", "gc"]);
    let (oa, ob) = (&ra.kinds[0], &rb.kinds[0]);
    assert_eq!(
        (oa.next_index, oa.available, oa.skipped, oa.dropped),
        (20, 60, 10, 20)
    );
    assert_eq!(
        (ob.next_index, ob.available, ob.skipped, ob.dropped),
        (20, 60, 0, 0)
    );
    assert_eq!((ra.kinds[1].dropped, ra.kinds[1].available), (20, 80));
    drop(a);

    let info = info_with_key(&da, Some(&ka)).unwrap();
    assert_eq!(
        (
            info.kinds[0].produced,
            info.kinds[0].dropped,
            info.kinds[0].burned
        ),
        (80, 20, 20)
    );
    let mut a = Store::open(&da, &expected(&ka, Role::Alice)).unwrap();
    // Both resume preprocessing in step, so indices stay aligned.
    produce(&mut a, Role::Alice, 30);
    produce(&mut b, Role::Bob, 30);
    let (ra, _) = sync_pair(&mut a, &mut b, &["ot", "gc"]);
    assert_eq!(ra.kinds[0].available, 90);
    let (x, y) = (a.reserve("ot", 90).unwrap(), b.reserve("ot", 90).unwrap());
    assert_eq!(x.range(), y.range());
    assert_eq!(a.read(&x).unwrap(), ot_records(Role::Alice, 20..110));
    assert_eq!(b.read(&y).unwrap(), ot_records(Role::Bob, 20..110));
    let (x, y) = (a.reserve("gc", 110).unwrap(), b.reserve("gc", 110).unwrap());
    let blobs = a.read_blobs(&x).unwrap();
    assert_eq!(blobs[79], gc_record(Role::Alice, 79));
    assert_eq!(blobs[80], gc_record(Role::Alice, 80));
    assert_eq!(b.read_blobs(&y).unwrap()[109], gc_record(Role::Bob, 109));
}
