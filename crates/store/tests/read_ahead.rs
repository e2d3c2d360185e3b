//! Reading the next record before reserving it: nothing is handed out
//! until the durable reservation, and a record read ahead but not taken
//! stays available (across reopening too).

mod common;

use brickyard_core::Error;
use brickyard_store::{info_with_key, Role, SessionId, Store};
use common::*;

const SID: SessionId = SessionId([9; 16]);

#[test]
fn a_record_read_ahead_is_reserved_and_consumed_only_when_taken() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Bob, SID, 4096)).unwrap();
    produce(&mut s, Role::Bob, 4);
    let ahead = s.read_ahead_blob("gc", |i, b| Ok((i, b.to_vec()))).unwrap();
    assert_eq!(ahead.index(), 0);
    // Read, not reserved: the accounting has not moved.
    let i = s.info();
    assert_eq!((i.kinds[1].consumed, i.kinds[1].in_use), (0, 0));
    let (k, bytes) = s.take_read_ahead(ahead).unwrap();
    assert_eq!((k, bytes), (0, gc_record(Role::Bob, 0)));
    // Taken = reserved and consumed, durably.
    drop(s);
    let info = info_with_key(&dir, Some(&key)).unwrap();
    let gc = &info.kinds[1];
    assert_eq!(gc.name, "gc");
    assert_eq!(
        (gc.produced, gc.consumed, gc.burned, gc.remaining),
        (4, 1, 0, 3)
    );
    // The next reservation starts after it.
    let mut s = Store::open(&dir, &expected(&key, Role::Bob)).unwrap();
    let r = s.reserve("gc", 1).unwrap();
    assert_eq!(r.start(), 1);
}

#[test]
fn a_record_read_ahead_and_dropped_stays_available() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Alice, SID, 4096)).unwrap();
    produce(&mut s, Role::Alice, 2);
    let ahead = s.read_ahead_blob("gc", |_, b| Ok(b.to_vec())).unwrap();
    assert_eq!(ahead.index(), 0);
    drop(ahead);
    drop(s); // the process ends before the execution
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let r = s.reserve("gc", 2).unwrap();
    assert_eq!(r.range(), 0..2);
    assert_eq!(s.read_blobs(&r).unwrap()[0], gc_record(Role::Alice, 0));
}

#[test]
fn a_read_ahead_overtaken_by_a_reservation_is_refused_and_reserves_nothing() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Alice, SID, 4096)).unwrap();
    produce(&mut s, Role::Alice, 3);
    let ahead = s.read_ahead_blob("gc", |i, _| Ok(i)).unwrap();
    let r = s.reserve("gc", 1).unwrap();
    assert_eq!(r.start(), 0);
    // Record 0 is reserved by `r`: its read-ahead copy must not be handed out.
    assert!(matches!(s.take_read_ahead(ahead), Err(Error::Storage(_))));
    assert_eq!(s.info().kinds[1].in_use, 1);
    let next = s.read_ahead_blob("gc", |i, _| Ok(i)).unwrap();
    assert_eq!(s.take_read_ahead(next).unwrap(), 1);
}

#[test]
fn a_read_ahead_is_refused_by_another_handle_and_when_nothing_is_left() {
    let fx = Fixture::new();
    let mut a = Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, 4096)).unwrap();
    let mut b = Store::create(&fx.dir("b"), config(&fx.key("b"), Role::Bob, SID, 4096)).unwrap();
    produce(&mut a, Role::Alice, 1);
    produce(&mut b, Role::Bob, 1);
    let from_a = a.read_ahead_blob("gc", |i, _| Ok(i)).unwrap();
    assert!(matches!(b.take_read_ahead(from_a), Err(Error::Config(_))));
    assert_eq!(b.info().kinds[1].in_use + b.info().kinds[1].consumed, 0);
    let only = b.read_ahead_blob("gc", |i, _| Ok(i)).unwrap();
    b.take_read_ahead(only).unwrap();
    assert!(matches!(
        b.read_ahead_blob("gc", |i, _| Ok(i)),
        Err(Error::Exhausted(_))
    ));
    // A parse error is the caller's, and reserves nothing.
    assert!(matches!(
        a.read_ahead_blob("gc", |_, _| Err::<(), _>(Error::malformed("x"))),
        Err(Error::Malformed(_))
    ));
    assert_eq!(a.info().kinds[1].in_use + a.info().kinds[1].consumed, 0);
}

#[test]
fn several_kinds_read_ahead_are_reserved_together_in_one_update() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Bob, SID, 4096)).unwrap();
    produce(&mut s, Role::Bob, 10);
    let r = s.reserve("ot", 3).unwrap();
    s.finish(r).unwrap();
    let ahead = s
        .read_ahead(&[("ot", 4), ("gc", 1)], |i, parts| {
            Ok((i, parts[0].to_vec(), parts[1].to_vec()))
        })
        .unwrap();
    assert_eq!(ahead.index(), 3);
    let (i, ots, gc) = s.take_read_ahead(ahead).unwrap();
    assert_eq!(i, 3);
    assert_eq!(ots, ot_records(Role::Bob, 3..7));
    assert_eq!(gc, gc_record(Role::Bob, 0));
    let info = s.info();
    assert_eq!((info.kinds[0].consumed, info.kinds[0].in_use), (7, 0));
    assert_eq!((info.kinds[1].consumed, info.kinds[1].in_use), (1, 0));
    // More than is left of one kind: refused, nothing read or reserved.
    assert!(matches!(
        s.read_ahead(&[("gc", 1), ("ot", 4)], |_, _| Ok(())),
        Err(Error::Exhausted(_))
    ));
    // A blob kind goes one record at a time.
    assert!(matches!(
        s.read_ahead(&[("gc", 2)], |_, _| Ok(())),
        Err(Error::Config(_))
    ));
    // One kind overtaken: the whole read-ahead is refused, nothing moves.
    let ahead = s
        .read_ahead(&[("ot", 1), ("gc", 1)], |_, _| Ok(()))
        .unwrap();
    let r = s.reserve("gc", 1).unwrap();
    assert!(matches!(s.take_read_ahead(ahead), Err(Error::Storage(_))));
    assert_eq!(s.info().kinds[0].consumed, 7);
    s.finish(r).unwrap();
}

#[test]
fn next_unit_reads_ahead_only_for_executions_the_run_has_left() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Bob, SID, 4096)).unwrap();
    produce(&mut s, Role::Bob, 5);
    let mut next = brickyard_store::NextUnit::default();
    let parse = |i: u64, _: Vec<zeroize::Zeroizing<Vec<u8>>>| Ok(i);
    next.begin(2);
    next.fill(&mut s, &[("gc", 1)], parse);
    assert_eq!(next.take(&mut s, &[("gc", 1)], parse).unwrap(), 0);
    next.fill(&mut s, &[("gc", 1)], parse);
    assert_eq!(next.take(&mut s, &[("gc", 1)], parse).unwrap(), 1);
    // The run is over: nothing more is read ahead.
    next.fill(&mut s, &[("gc", 1)], parse);
    let info = s.info();
    assert_eq!((info.kinds[1].consumed, info.kinds[1].remaining), (2, 3));
    // Without a fill, take reads and reserves in one go.
    next.begin(1);
    assert_eq!(next.take(&mut s, &[("gc", 1)], parse).unwrap(), 2);
    // A new run drops what an earlier one read ahead, unreserved.
    next.begin(1);
    next.fill(&mut s, &[("gc", 1)], parse);
    next.begin(1);
    assert_eq!(next.take(&mut s, &[("gc", 1)], parse).unwrap(), 3);
}
