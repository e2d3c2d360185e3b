//! Store-backed CompGC: preprocess a component library into two temporary
//! stores, then run online executions from them in later "processes"
//! (fresh party objects, reopened stores). Every instance is used once.

use brickyard_circuit::{format_value, parse_value, ValueFormat};
use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_protocols::compgc::{self, CompgcParams, Function};
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::{Outputs, PartyInputs, Role, RunConfig};
use brickyard_store::{info_with_key, Expected, SessionId, Store, StoreConfig};
use std::path::Path;
use std::sync::Arc;

const KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
const PT: &str = "0x00112233445566778899aabbccddeeff";
const CT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

fn params(f: &Arc<Function>) -> CompgcParams {
    let mut p = CompgcParams::with_components(
        "xor128:2,aes128-round:18,aes128-final-round:2,levenshtein-cell:3:4",
    )
    .unwrap();
    p.function = Some(f.clone());
    p
}

fn key_path(dir: &Path, role: Role) -> std::path::PathBuf {
    dir.join(format!("{}.key", role.name()))
}

fn store_dir(dir: &Path, role: Role) -> std::path::PathBuf {
    dir.join(role.name())
}

/// Runs both parties over an in-memory link; `None` inputs = preprocess.
fn both(
    dir: &Path,
    f: &Arc<Function>,
    cfg: &RunConfig,
    create: bool,
    inputs: Option<(PartyInputs, PartyInputs)>,
) -> brickyard_core::Result<Option<Outputs>> {
    let phases = PhaseSet {
        preprocess: inputs.is_none(),
        online: inputs.is_some(),
    };
    let (ca, cb) = memory_pair();
    let mut handles = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let p = params(f);
        let cfg = cfg.clone();
        let sdir = store_dir(dir, role);
        let kp = key_path(dir, role);
        let my_in: Vec<PartyInputs> = match &inputs {
            Some((a, b)) => vec![if role == Role::Alice {
                a.clone()
            } else {
                b.clone()
            }],
            None => vec![],
        };
        handles.push(std::thread::spawn(move || {
            let store = if create {
                let mut sc = StoreConfig::new("compgc", role.store_role(), SessionId([7; 16]));
                sc.key_path = Some(kp);
                sc.parameters = p.store_parameters();
                Store::create(&sdir, sc)?
            } else {
                let mut e = Expected::new("compgc", role.store_role());
                e.key_path = Some(kp);
                e.parameters = p.store_parameters();
                Store::open(&sdir, &e)?
            };
            let mut party = compgc::new_party(role, cfg.clone(), p)?;
            party.attach_store(store)?;
            let r = run_party(
                "compgc",
                party.as_mut(),
                role,
                &mut ch,
                &cfg,
                &my_in,
                phases,
            );
            drop(ch);
            r
        }));
    }
    let mut runs = Vec::new();
    for h in handles {
        runs.push(h.join().expect("party thread"));
    }
    let bob = runs.pop().unwrap();
    let alice = runs.pop().unwrap();
    let (_a, b) = (alice?, bob?);
    Ok(b.outputs.into_iter().next().flatten())
}

fn consumed(dir: &Path, role: Role, kind: &str) -> (u64, u64) {
    let info = info_with_key(&store_dir(dir, role), Some(&key_path(dir, role))).unwrap();
    let k = info
        .kinds
        .iter()
        .find(|k| k.name == kind)
        .unwrap_or_else(|| panic!("no kind {kind}"));
    (k.produced, k.next_index)
}

#[test]
fn preprocess_then_run_from_stores_until_exhausted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let f = Arc::new(compgc::resolve_function("builtin:aes128").unwrap().unwrap());
    let cfg = f.run_config().unwrap();
    both(dir, &f, &cfg, true, None).unwrap();
    let round = compgc::kind_name("aes128-round");
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(consumed(dir, role, &round), (18, 0));
        assert_eq!(
            consumed(dir, role, &compgc::kind_name("levenshtein-cell:3")).0,
            4
        );
        assert!(consumed(dir, role, "rot").0 >= 128);
    }
    let inputs = (
        vec![parse_value(KEY, 128).unwrap()],
        vec![parse_value(PT, 128).unwrap()],
    );
    for run in 1..=2u64 {
        let out = both(dir, &f, &cfg, false, Some(inputs.clone()))
            .unwrap()
            .unwrap();
        assert_eq!(format_value(&out[0], ValueFormat::Hex), CT, "run {run}");
        // Each run reserved its own nine round instances, in both stores.
        for role in [Role::Alice, Role::Bob] {
            assert_eq!(consumed(dir, role, &round), (18, 9 * run));
        }
    }
    match both(dir, &f, &cfg, false, Some(inputs)) {
        Err(Error::Exhausted(m)) => assert!(m.contains("comp-xor128"), "{m}"),
        other => panic!("expected Exhausted, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn a_store_without_the_needed_component_is_exhausted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // The library was made for AES; a Levenshtein function needs cells of
    // width 4, which it does not hold.
    let aes = Arc::new(compgc::resolve_function("builtin:aes128").unwrap().unwrap());
    both(dir, &aes, &aes.run_config().unwrap(), true, None).unwrap();
    let lev = Arc::new(
        compgc::resolve_function("builtin:levenshtein:8")
            .unwrap()
            .unwrap(),
    );
    let cfg = lev.run_config().unwrap();
    let r = both(
        dir,
        &lev,
        &cfg,
        false,
        Some((vec![vec![false; 64]], vec![vec![false; 64]])),
    );
    assert!(matches!(r, Err(Error::Exhausted(_))), "{:?}", r.map(|_| ()));
}
