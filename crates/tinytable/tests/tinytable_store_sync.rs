//! TinyTable from stores against a peer that lies at the store handshake
//! (#24.1): shifting one kind's index (execution record j+1 with tables j,
//! which used to give a silently wrong output), skipping a whole
//! execution, truncating or inflating what it holds. Every lie ends in a
//! named error with the honest party's store byte for byte unchanged and
//! no output; afterwards an honest run on the same stores is correct.
#![cfg(feature = "adversary")]

use brickyard_circuit::{builtin, format_value, parse_value, ValueFormat};
use brickyard_core::channel::memory_pair;
use brickyard_core::{Error, Result};
use brickyard_protocols::driver::{run_party, PartyRun, PhaseSet};
use brickyard_protocols::tinytable::{self, MacScheme, Options, Source, Variant};
use brickyard_protocols::{OutputMode, PartyInputs, Role, RunConfig};
use brickyard_store::{Expected, SessionId, Store, StoreConfig, SyncLie, SYNC_CHECK};
use std::path::Path;
use std::sync::Arc;

fn opts() -> Options {
    Options {
        variant: Variant::Binary,
        mac: MacScheme::parse("lookup-64").unwrap(),
        source: Source::Real,
        s: tinytable::security::DEFAULT_S,
        cheat: None,
    }
}

/// Runs both parties on their stores; Bob's tells `lie` at the handshake.
fn stored(
    dir: &Path,
    cfg: &RunConfig,
    create: bool,
    inputs: Option<(PartyInputs, PartyInputs)>,
    lie: Option<SyncLie>,
) -> [Result<PartyRun>; 2] {
    let phases = PhaseSet {
        preprocess: inputs.is_none(),
        online: inputs.is_some(),
    };
    let (ca, cb) = memory_pair();
    let mut hs = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let cfg = cfg.clone();
        let sdir = dir.join(role.name());
        let kp = dir.join(format!("{}.key", role.name()));
        let mine: Vec<PartyInputs> = match &inputs {
            Some((a, b)) => vec![if role == Role::Alice { a } else { b }.clone()],
            None => vec![],
        };
        hs.push(std::thread::spawn(move || {
            let mut p = tinytable::new_party(role, cfg.clone(), opts())?;
            let params = p.store_parameters();
            let mut store = if create {
                let mut sc = StoreConfig::new("tinytable", role.store_role(), SessionId([5; 16]));
                sc.key_path = Some(kp);
                sc.parameters = params;
                Store::create(&sdir, sc)?
            } else {
                let mut e = Expected::new("tinytable", role.store_role());
                e.key_path = Some(kp);
                e.parameters = params;
                Store::open(&sdir, &e)?
            };
            if let (Role::Bob, Some(l)) = (role, lie) {
                store.lie_at_sync(l);
            }
            p.attach_store(store)?;
            let r = run_party("tinytable", p.as_mut(), role, &mut ch, &cfg, &mine, phases);
            drop(ch);
            r
        }));
    }
    let rb = hs.pop().unwrap().join().unwrap();
    let ra = hs.pop().unwrap().join().unwrap();
    [ra, rb]
}

/// Alice's store files as bytes (the lock file aside), with or without
/// the reservation state (both copies).
fn snapshot(dir: &Path, with_state: bool) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("alice"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("lock") && (with_state || !p.ends_with("state.json")))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    if with_state {
        v.push((
            "mirror".into(),
            std::fs::read(dir.join("alice.key.state")).unwrap(),
        ));
    }
    v.sort();
    v
}

fn alice_store(dir: &Path, cfg: &RunConfig) -> Store {
    let mut e = Expected::new("tinytable", Role::Alice.store_role());
    e.key_path = Some(dir.join("alice.key"));
    e.parameters = tinytable::new_party(Role::Alice, cfg.clone(), opts())
        .unwrap()
        .store_parameters();
    Store::open(&dir.join("alice"), &e).unwrap()
}

fn inputs() -> (PartyInputs, PartyInputs) {
    (
        vec![parse_value("100", 32).unwrap()],
        vec![parse_value("1", 32).unwrap()],
    )
}

/// Fresh stores for three executions of add32, one already used honestly
/// (so indices are not all zero); returns the tables per execution.
fn fresh(dir: &Path, cfg: &mut RunConfig) -> i64 {
    cfg.executions = 3;
    let [a, b] = stored(dir, cfg, true, None, None);
    a.unwrap();
    b.unwrap();
    cfg.executions = 1;
    let [a, _] = stored(dir, cfg, false, Some(inputs()), None);
    let out = a.unwrap().outputs[0].clone().unwrap();
    assert_eq!(format_value(&out[0], ValueFormat::Int), "101");
    let info = alice_store(dir, cfg).info();
    let produced = |s: &str| {
        info.kinds
            .iter()
            .find(|k| k.name.contains(s))
            .unwrap()
            .produced
    };
    (produced("tables") / produced("exec")) as i64
}

fn exec_counts(dir: &Path, cfg: &RunConfig) -> (u64, u64) {
    let info = alice_store(dir, cfg).info();
    let e = info.kinds.iter().find(|k| k.name.contains("exec")).unwrap();
    (e.next_index, e.remaining)
}

/// A lie (given one execution's table count) and the check it must trip
/// (`None`: a `Config` refusal).
type Lie = (fn(i64) -> SyncLie, Option<&'static str>);

#[test]
fn store_handshake_lies_end_in_named_errors_and_change_nothing() {
    let mut cfg = RunConfig::new(Arc::new(builtin("add32").unwrap())).unwrap();
    // With output to both, Alice would learn an output too.
    cfg.output = OutputMode::Both;
    // Kind 0 is the execution record, kind 1 the tables; `T` below stands
    // for one execution's tables.
    let lies: [Lie; 7] = [
        (|_| SyncLie::ShiftNext { kind: 0, by: 1 }, Some(SYNC_CHECK)),
        (|t| SyncLie::ShiftNext { kind: 1, by: t }, Some(SYNC_CHECK)),
        (|_| SyncLie::ShiftNext { kind: 1, by: -1 }, Some(SYNC_CHECK)),
        (|_| SyncLie::ShiftAll { by: 1 }, None),
        (|_| SyncLie::ShiftAll { by: -1 }, None),
        (|_| SyncLie::ShiftProduced { kind: 0, by: -1 }, None),
        (|_| SyncLie::ShiftProduced { kind: 1, by: 5 }, None),
    ];
    for (lie, check) in lies {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let lie = lie(fresh(dir, &mut cfg));
        let (before, data_before) = (snapshot(dir, true), snapshot(dir, false));
        let [a, b] = stored(dir, &cfg, false, Some(inputs()), Some(lie));
        match (&a, check) {
            (Err(Error::Cheating { check: c }), Some(want)) => assert_eq!(*c, want, "{lie:?}"),
            (Err(Error::Config(_)), None) => {}
            (r, _) => panic!("{lie:?}: Alice got {:?}", r.as_ref().map(|r| &r.outputs)),
        }
        assert!(b.is_err(), "{lie:?}: the liar got an output");
        if check.is_none() {
            assert_eq!(snapshot(dir, true), before, "{lie:?} changed Alice's store");
        } else {
            // A peer caught lying poisons the store (#24.6); that is the
            // only change: no index moved, no record was cut.
            assert_eq!(snapshot(dir, false), data_before, "{lie:?}");
            assert_eq!(exec_counts(dir, &cfg), (1, 2), "{lie:?}");
            let mut s = alice_store(dir, &cfg);
            assert!(s.closed().is_some(), "{lie:?} did not poison");
            assert!(s.reserve("tt-exec-binary-lookup-64", 1).is_err());
            continue;
        }
        // The stores are still good: an honest run computes 100 + 1.
        let [a, _] = stored(dir, &cfg, false, Some(inputs()), None);
        let out = a.unwrap().outputs[0].clone().unwrap();
        assert_eq!(
            format_value(&out[0], ValueFormat::Int),
            "101",
            "after {lie:?}"
        );
        assert_eq!(exec_counts(dir, &cfg), (2, 1));
    }
}
