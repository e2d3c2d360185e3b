//! Round trips, persistence, reservation and accounting.

mod common;

use brickyard_core::{Block, Error};
use brickyard_store::{info_with_key, KindSpec, Role, SessionId, Store};
use common::*;

const SID: SessionId = SessionId([7; 16]);

#[test]
fn round_trip_fixed_blobs_typed_and_pod_across_many_chunks() {
    let fx = Fixture::new();
    let mut cfg = config(&fx.key("a"), Role::Alice, SID, 1000);
    cfg.kinds.push(KindSpec::fixed("and_gate", 32));
    cfg.kinds.push(KindSpec::variable("typed"));
    let mut s = Store::create(&fx.dir("a"), cfg).unwrap();
    produce(&mut s, Role::Alice, 500);
    let gates: Vec<Block> = (0..400u128).map(|i| Block(i * 0x1234_5678_9abc)).collect();
    s.append_pod("and_gate", &gates).unwrap();
    for i in 0..20u32 {
        s.append_typed("typed", &(i, format!("circuit {i}")))
            .unwrap();
    }
    // Nothing is reservable before the commit makes it durable.
    assert!(matches!(s.reserve("and_gate", 1), Err(Error::Exhausted(_))));
    s.commit().unwrap();
    drop(s);

    let mut s = Store::open(&fx.dir("a"), &expected(&fx.key("a"), Role::Alice)).unwrap();
    assert_eq!(s.produced("ot").unwrap(), 500);
    let r = s.reserve("ot", 123).unwrap();
    assert_eq!(r.range(), 0..123);
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 0..123));
    assert_eq!(
        s.read_range(&r, 60, 3).unwrap(),
        ot_records(Role::Alice, 60..63)
    );
    let r2 = s.reserve("ot", 300).unwrap();
    assert_eq!(s.read(&r2).unwrap(), ot_records(Role::Alice, 123..423));
    let g = s.reserve("gc", 500).unwrap();
    let blobs = s.read_blobs(&g).unwrap();
    assert_eq!(blobs.len(), 500);
    for (i, b) in blobs.iter().enumerate() {
        assert_eq!(b, &gc_record(Role::Alice, i as u64));
    }
    let a = s.reserve("and_gate", 200).unwrap();
    assert_eq!(s.read_pod::<Block>(&a).unwrap(), gates);
    let t = s.reserve("typed", 20).unwrap();
    let typed: Vec<(u32, String)> = s.read_typed(&t).unwrap();
    assert_eq!(typed[19], (19, "circuit 19".to_string()));
    // Reading outside a reservation is refused.
    assert!(s.read_range(&r, 120, 10).is_err());
    s.finish(r).unwrap();
    assert!(s.read(&r2).is_ok());
}

#[test]
fn reservation_survives_reopen_and_accounting_adds_up() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Alice, SID, 4096)).unwrap();
    produce(&mut s, Role::Alice, 100);
    let r1 = s.reserve("ot", 10).unwrap();
    let r2 = s.reserve("ot", 5).unwrap();
    s.finish(r1).unwrap();
    let i = s.info();
    assert_eq!(
        (i.kinds[0].consumed, i.kinds[0].in_use, i.kinds[0].burned),
        (10, 5, 0)
    );
    drop(r2);
    drop(s); // "crash" with r2 outstanding

    let info = info_with_key(&dir, Some(&key)).unwrap();
    assert!(info.authenticated);
    let ot = &info.kinds[0];
    assert_eq!(
        (ot.produced, ot.consumed, ot.burned, ot.remaining),
        (100, 10, 5, 85)
    );
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    let r = s.reserve("ot", 85).unwrap();
    assert_eq!(
        r.start(),
        15,
        "indices reserved before the crash are never reused"
    );
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 15..100));
    match s.reserve("ot", 1) {
        Err(Error::Exhausted(m)) => assert!(m.contains("`ot`"), "{m}"),
        other => panic!("expected Exhausted, got {other:?}"),
    }
    // A failed reservation reserved nothing.
    produce(&mut s, Role::Alice, 1);
    assert_eq!(s.reserve("ot", 1).unwrap().start(), 100);
}

#[test]
fn second_open_is_refused_while_locked() {
    let fx = Fixture::new();
    let s = Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, 4096)).unwrap();
    let e = Store::open(&fx.dir("a"), &expected(&fx.key("a"), Role::Alice));
    assert!(matches!(e, Err(Error::Storage(m)) if m.contains("in use")));
    drop(s);
    assert!(Store::open(&fx.dir("a"), &expected(&fx.key("a"), Role::Alice)).is_ok());
}

/// A lock that goes away within moments (a forked child about to exec
/// still holds a copy of the closed store's lock) does not fail the open.
#[test]
fn open_waits_out_a_lock_released_at_once() {
    let fx = Fixture::new();
    let s = Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, 4096)).unwrap();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        drop(s);
    });
    let opened = Store::open(&fx.dir("a"), &expected(&fx.key("a"), Role::Alice));
    t.join().unwrap();
    assert!(opened.is_ok(), "{:?}", opened.err());
}

#[test]
fn mismatched_expectations_and_versions_are_refused() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    drop(Store::create(&dir, config(&key, Role::Alice, SID, 4096)).unwrap());
    let mut e = expected(&key, Role::Alice);
    e.protocol = "other".into();
    assert!(matches!(Store::open(&dir, &e), Err(Error::Config(m)) if m.contains("protocol")));
    let mut e = expected(&key, Role::Alice);
    e.parameters.insert("k".into(), "80".into());
    let err = Store::open(&dir, &e).unwrap_err();
    assert!(
        matches!(&err, Error::Config(m) if m.contains("k: the store was made with `128`, this run asks for `80`")),
        "{err}"
    );
    assert!(matches!(
        Store::open(&dir, &expected(&key, Role::Bob)),
        Err(Error::Config(_))
    ));
    let mut e = expected(&key, Role::Alice);
    e.session_id = Some(SessionId([8; 16]));
    assert!(matches!(Store::open(&dir, &e), Err(Error::Config(m)) if m.contains("session")));
    // Wrong key: the manifest does not verify.
    let other = fx.key("other");
    drop(Store::create(&fx.dir("b"), config(&other, Role::Alice, SID, 4096)).unwrap());
    assert!(matches!(
        Store::open(&dir, &expected(&other, Role::Alice)),
        Err(Error::Storage(_))
    ));
    // A future format version is refused by name.
    let m = dir.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replace("\"format_version\": 1", "\"format_version\": 2"),
    )
    .unwrap();
    assert!(
        matches!(Store::open(&dir, &expected(&key, Role::Alice)), Err(Error::Storage(m)) if m.contains("format version 2"))
    );
}

#[test]
fn create_refuses_non_empty_dirs_and_existing_keys() {
    let fx = Fixture::new();
    drop(Store::create(&fx.dir("a"), config(&fx.key("a"), Role::Alice, SID, 4096)).unwrap());
    assert!(Store::create(&fx.dir("a"), config(&fx.key("z"), Role::Alice, SID, 4096)).is_err());
    assert!(Store::create(&fx.dir("b"), config(&fx.key("a"), Role::Alice, SID, 4096)).is_err());
    let mut bad = config(&fx.key("c"), Role::Alice, SID, 4096);
    bad.kinds.push(KindSpec::fixed("ot", 8));
    assert!(matches!(
        Store::create(&fx.dir("c"), bad),
        Err(Error::Config(_))
    ));
}

#[test]
fn deleting_the_state_does_not_reset_reservations() {
    let fx = Fixture::new();
    let (dir, key) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&dir, config(&key, Role::Alice, SID, 4096)).unwrap();
    produce(&mut s, Role::Alice, 50);
    let old_state = std::fs::read(dir.join("state.json")).unwrap();
    s.reserve("ot", 20).unwrap();
    drop(s);
    // Roll the in-store state back to before the reservation: the mirror
    // beside the key still knows better.
    std::fs::write(dir.join("state.json"), old_state).unwrap();
    let mut s = Store::open(&dir, &expected(&key, Role::Alice)).unwrap();
    assert_eq!(s.reserve("ot", 1).unwrap().start(), 20);
}
