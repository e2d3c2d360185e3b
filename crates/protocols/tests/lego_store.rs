//! Store-backed LEGO: Setup + Generate + Build in one "process", then each
//! online execution from reopened stores with fresh party objects; every
//! built copy is used once, then the store is exhausted.

mod common;

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::lego::{LegoAlice, LegoBob};
use brickyard_protocols::{Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_store::{info_with_key, Expected, SessionId, Store, StoreConfig};
use common::*;
use std::path::Path;

fn both(
    dir: &Path,
    cfg: &RunConfig,
    inputs: Option<(PartyInputs, PartyInputs)>,
) -> brickyard_core::Result<Option<Outputs>> {
    let phases = PhaseSet {
        preprocess: inputs.is_none(),
        online: inputs.is_some(),
    };
    let (ca, cb) = memory_pair();
    let mut handles = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let cfg = cfg.clone();
        let sdir = dir.join(role.name());
        let kp = dir.join(format!("{}.key", role.name()));
        let my_in: Vec<PartyInputs> = match &inputs {
            Some((a, b)) => vec![if role == Role::Alice {
                a.clone()
            } else {
                b.clone()
            }],
            None => vec![],
        };
        let create = inputs.is_none();
        handles.push(std::thread::spawn(move || {
            let store = if create {
                let mut sc = StoreConfig::new("lego", role.store_role(), SessionId([9; 16]));
                sc.key_path = Some(kp);
                Store::create(&sdir, sc)?
            } else {
                let mut e = Expected::new("lego", role.store_role());
                e.key_path = Some(kp);
                Store::open(&sdir, &e)?
            };
            let mut party: Box<dyn Party> = match role {
                Role::Alice => Box::new(LegoAlice::new(cfg.clone())?),
                Role::Bob => Box::new(LegoBob::new(cfg.clone())?),
            };
            party.attach_store(store)?;
            let r = run_party("lego", party.as_mut(), role, &mut ch, &cfg, &my_in, phases);
            drop(ch);
            r
        }));
    }
    let mut runs: Vec<_> = handles
        .into_iter()
        .map(|h| h.join().expect("party thread"))
        .collect();
    let bob = runs.pop().unwrap();
    let alice = runs.pop().unwrap();
    let (_a, b) = (alice?, bob?);
    Ok(b.outputs.into_iter().next().flatten())
}

#[test]
fn preprocess_then_run_each_copy_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut rng = Rng(0x5707e);
    let mut cfg = cfg_for(random_circuit(&mut rng, 2, 60, 2));
    cfg.executions = 2;
    both(dir, &cfg, None).unwrap();
    for role in [Role::Alice, Role::Bob] {
        let info = info_with_key(
            &dir.join(role.name()),
            Some(&dir.join(format!("{}.key", role.name()))),
        )
        .unwrap();
        let k = info.kinds.iter().find(|k| k.name == "lego-exec").unwrap();
        assert_eq!((k.produced, k.next_index), (2, 0));
    }
    for run in 0..2 {
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
        let out = both(dir, &cfg, Some((x, y))).unwrap().unwrap();
        assert_eq!(out, want, "run {run}");
    }
    let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
    let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
    match both(dir, &cfg, Some((x, y))) {
        Err(Error::Exhausted(_)) => {}
        other => panic!("a third run must find the store exhausted, got {other:?}"),
    }
}
