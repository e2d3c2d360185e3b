//! Store-backed LEGO with function-independent preprocessing: Generate
//! (sized by AND gates, inputs and outputs, no circuit) in one "process",
//! then Build(f) and Eval in later ones, each with fresh party objects and
//! reopened stores. Buckets are used once: later runs take later records,
//! a second Generate adds a batch, exhaustion and corrupt bytes are typed
//! errors.

use brickyard_testkit as common;

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::lego::{Cheat, GenerateSize, LegoAlice, LegoBob, LegoOptions};
use brickyard_protocols::{Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_store::{info_with_key, Expected, SessionId, Store, StoreConfig};
use common::*;
use std::path::Path;

enum Mode {
    /// Generate into the stores (creating them the first time).
    Generate(GenerateSize, bool),
    /// Build + Eval, one execution per input pair.
    Online(Vec<(PartyInputs, PartyInputs)>),
}

fn key(dir: &Path, role: Role) -> std::path::PathBuf {
    dir.join(format!("{}.key", role.name()))
}

fn open(dir: &Path, role: Role) -> brickyard_core::Result<Store> {
    let mut e = Expected::new("lego", role.store_role());
    e.key_path = Some(key(dir, role));
    Store::open(&dir.join(role.name()), &e)
}

/// Both parties in two threads over a memory channel; Bob's outputs.
fn both(dir: &Path, cfg: &RunConfig, mode: &Mode) -> brickyard_core::Result<Vec<Outputs>> {
    both_cheating(dir, cfg, mode, None)
}

/// [`both`] with Alice following `cheat` (adversary builds).
fn both_cheating(
    dir: &Path,
    cfg: &RunConfig,
    mode: &Mode,
    cheat: Option<Cheat>,
) -> brickyard_core::Result<Vec<Outputs>> {
    let (ca, cb) = memory_pair();
    let mut handles = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let mut cfg = cfg.clone();
        let dir = dir.to_path_buf();
        let (opts, create, my_in) = match mode {
            Mode::Generate(g, create) => (
                LegoOptions {
                    generate: Some(*g),
                    ..Default::default()
                },
                *create,
                Vec::new(),
            ),
            Mode::Online(ins) => (
                LegoOptions::default(),
                false,
                ins.iter()
                    .map(|(a, b)| if role == Role::Alice { a } else { b }.clone())
                    .collect(),
            ),
        };
        let phases = PhaseSet {
            preprocess: matches!(mode, Mode::Generate(..)),
            online: matches!(mode, Mode::Online(_)),
        };
        cfg.executions = my_in.len().max(1);
        handles.push(std::thread::spawn(move || {
            let mut store = if create {
                let mut sc = StoreConfig::new("lego", role.store_role(), SessionId([9; 16]));
                sc.key_path = Some(key(&dir, role));
                Store::create(&dir.join(role.name()), sc)?
            } else {
                open(&dir, role)?
            };
            // A test that simulates a run stopped on one side allows the
            // operator's resync by leaving a `resync` file in its directory.
            store.allow_resync(dir.join("resync").exists());
            let mut party: Box<dyn Party> = match (role, cheat) {
                #[cfg(feature = "adversary")]
                (Role::Alice, Some(c)) => {
                    Box::new(LegoAlice::with_options(cfg.clone(), opts)?.cheat(c))
                }
                (Role::Alice, _) => Box::new(LegoAlice::with_options(cfg.clone(), opts)?),
                (Role::Bob, _) => Box::new(LegoBob::with_options(cfg.clone(), opts)?),
            };
            party.attach_store(store)?;
            let r = run_party("lego", party.as_mut(), role, &mut ch, &cfg, &my_in, phases);
            // A failed party must not leave its peer waiting.
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
    // The party that failed first names the cause; its peer only sees the
    // channel close. A storage error is that cause wherever it happened.
    for r in [&alice, &bob] {
        if let Err(Error::Storage(m)) = r {
            return Err(Error::Storage(m.clone()));
        }
    }
    let b = bob?;
    alice?;
    Ok(b.outputs.into_iter().flatten().collect())
}

/// (kind name, produced, next index) of every lego kind in `role`'s store.
fn kinds(dir: &Path, role: Role) -> Vec<(String, u64, u64)> {
    let info = info_with_key(&dir.join(role.name()), Some(&key(dir, role))).unwrap();
    info.kinds
        .iter()
        .map(|k| (k.name.clone(), k.produced, k.next_index))
        .collect()
}

fn and_kinds(dir: &Path, role: Role) -> Vec<(u64, u64)> {
    kinds(dir, role)
        .into_iter()
        .filter(|k| k.0.ends_with("-and"))
        .map(|k| (k.1, k.2))
        .collect()
}

fn fresh_pair(rng: &mut Rng, cfg: &RunConfig) -> (PartyInputs, PartyInputs, Outputs) {
    let x = random_inputs(rng, cfg, Role::Alice, 1).remove(0);
    let y = random_inputs(rng, cfg, Role::Bob, 1).remove(0);
    let want = cfg.circuit.eval(&assemble(cfg, &x, &y)).unwrap();
    (x, y, want)
}

fn size_for(cfg: &RunConfig, copies: u64) -> GenerateSize {
    let c = &cfg.circuit;
    let ands = c
        .gates
        .iter()
        .filter(|g| matches!(g, brickyard_circuit::Gate::And { .. }))
        .count() as u64;
    let ins: usize = c.inputs.iter().map(|g| g.width()).sum();
    let outs: usize = c.outputs.iter().map(|g| g.width()).sum();
    GenerateSize {
        and_gates: ands * copies,
        inputs: ins as u64 * copies,
        outputs: outs as u64 * copies,
    }
}

#[test]
fn generate_then_build_and_eval_in_later_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut rng = Rng(0x5707e);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 60, 2));
    // Generate knows sizes only: enough for two copies of this circuit.
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 2), true)).unwrap();
    let ands = size_for(&cfg, 1).and_gates;
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(and_kinds(dir, role), vec![(2 * ands, 0)], "{role:?}");
    }
    // Two later runs, one copy each, from reopened stores.
    for run in 1..=2u64 {
        let (x, y, want) = fresh_pair(&mut rng, &cfg);
        let out = both(dir, &cfg, &Mode::Online(vec![(x, y)])).unwrap();
        assert_eq!(out, vec![want], "run {run}");
        for role in [Role::Alice, Role::Bob] {
            // Each run took the next unused buckets.
            assert_eq!(and_kinds(dir, role), vec![(2 * ands, run * ands)]);
        }
    }
    // The batch is used up: a clean typed error, nothing reused.
    let (x, y, _) = fresh_pair(&mut rng, &cfg);
    match both(dir, &cfg, &Mode::Online(vec![(x, y)])) {
        Err(Error::Exhausted(_)) => {}
        other => panic!("a third run must find the store exhausted, got {other:?}"),
    }
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(and_kinds(dir, role), vec![(2 * ands, 2 * ands)]);
    }
    // Generate again: a second batch; Build draws from it.
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 1), false)).unwrap();
    let (x, y, want) = fresh_pair(&mut rng, &cfg);
    let out = both(dir, &cfg, &Mode::Online(vec![(x, y)])).unwrap();
    assert_eq!(out, vec![want]);
    let mut got = and_kinds(dir, Role::Bob);
    got.sort();
    assert_eq!(got, vec![(ands, ands), (2 * ands, 2 * ands)]);
}

#[test]
fn build_skips_a_batch_too_small_and_serves_another_circuit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut rng = Rng(0xba7c4);
    let small = cfg_for(random_circuit(&mut rng, 2, 30, 1));
    let big = cfg_for(random_circuit(&mut rng, 3, 90, 2));
    // Batch 1 fits one copy of the small circuit only; batch 2 fits two
    // copies of the big one.
    both(dir, &small, &Mode::Generate(size_for(&small, 1), true)).unwrap();
    both(dir, &big, &Mode::Generate(size_for(&big, 2), false)).unwrap();
    // Two copies of the big circuit in one run: both from batch 2.
    let (x1, y1, w1) = fresh_pair(&mut rng, &big);
    let (x2, y2, w2) = fresh_pair(&mut rng, &big);
    let out = both(dir, &big, &Mode::Online(vec![(x1, y1), (x2, y2)])).unwrap();
    assert_eq!(out, vec![w1, w2]);
    // The small circuit still finds batch 1 untouched.
    let (x, y, want) = fresh_pair(&mut rng, &small);
    let out = both(dir, &small, &Mode::Online(vec![(x, y)])).unwrap();
    assert_eq!(out, vec![want]);
    let ks = and_kinds(dir, Role::Alice);
    assert!(ks.iter().all(|(p, n)| p == n), "all used: {ks:?}");
}

#[test]
fn aes128_fips197_vector_from_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cfg = cfg_for(brickyard_circuit::builtin("aes128").unwrap());
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 1), true)).unwrap();
    let v = |s: &str| brickyard_circuit::parse_value(s, 128).unwrap();
    let key = v("0x000102030405060708090a0b0c0d0e0f");
    let pt = v("0x00112233445566778899aabbccddeeff");
    let want = vec![v("0x69c4e0d86a7b0430d8cdb78070b4c55a")];
    assert_eq!(
        cfg.circuit
            .eval(&assemble(&cfg, &vec![key.clone()], &vec![pt.clone()]))
            .unwrap(),
        want
    );
    let out = both(dir, &cfg, &Mode::Online(vec![(vec![key], vec![pt])])).unwrap();
    assert_eq!(out, vec![want]);
}

#[test]
fn material_a_crashed_run_reserved_is_never_used() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut rng = Rng(0xc4a5);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 3), true)).unwrap();
    let ands = size_for(&cfg, 1).and_gates;
    // Alice's process reserved a copy's AND buckets, then died before Bob
    // reserved anything.
    {
        let mut s = open(dir, Role::Alice).unwrap();
        let kind = kinds(dir, Role::Alice)
            .into_iter()
            .find(|k| k.0.ends_with("-and"))
            .unwrap()
            .0;
        let _r = s.reserve(&kind, ands).unwrap();
    }
    let (x, y, want) = fresh_pair(&mut rng, &cfg);
    // The stores disagree: refused, nothing used, until both allow a resync.
    match both(dir, &cfg, &Mode::Online(vec![(x.clone(), y.clone())])) {
        Err(Error::Config(m)) if m.contains("--resync") => {}
        other => panic!("disagreeing stores must be refused, got {other:?}"),
    }
    assert_eq!(and_kinds(dir, Role::Bob), vec![(3 * ands, 0)]);
    std::fs::write(dir.join("resync"), b"").unwrap();
    let out = both(dir, &cfg, &Mode::Online(vec![(x, y)])).unwrap();
    assert_eq!(out, vec![want]);
    // Both skipped the reserved buckets: the run used the second copy's.
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(and_kinds(dir, role), vec![(3 * ands, 2 * ands)], "{role:?}");
    }
}

/// Flips one byte in the middle of the payload of `role`'s file of the
/// kind ending in `suffix`.
fn flip(dir: &Path, role: Role, suffix: &str) {
    let sdir = dir.join(role.name());
    let f = std::fs::read_dir(&sdir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(suffix))
        .unwrap();
    let mut b = std::fs::read(&f).unwrap();
    let at = 64 + (b.len() - 64) / 2;
    b[at] ^= 0x10;
    std::fs::write(&f, b).unwrap();
}

#[test]
fn corrupt_store_bytes_are_a_typed_error() {
    let mut rng = Rng(0xbad);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 30, 1));
    for (role, suffix) in [
        (Role::Bob, "-and.dat"),
        (Role::Alice, "-in.dat"),
        (Role::Bob, "-rot.dat"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        both(dir, &cfg, &Mode::Generate(size_for(&cfg, 1), true)).unwrap();
        flip(dir, role, suffix);
        let (x, y, _) = fresh_pair(&mut rng, &cfg);
        match both(dir, &cfg, &Mode::Online(vec![(x, y)])) {
            Err(Error::Storage(_)) => {}
            other => panic!("{role:?} {suffix}: expected a storage error, got {other:?}"),
        }
    }
    // A tampered batch secret too.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 1), true)).unwrap();
    let sdir = dir.join("bob");
    let f = std::fs::read_dir(&sdir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("secret-lego-b-"))
        .unwrap();
    let mut b = std::fs::read(&f).unwrap();
    let n = b.len();
    b[n / 2] ^= 1;
    std::fs::write(&f, b).unwrap();
    let (x, y, _) = fresh_pair(&mut rng, &cfg);
    match both(dir, &cfg, &Mode::Online(vec![(x, y)])) {
        Err(Error::Storage(_)) => {}
        other => panic!("tampered secret: expected a storage error, got {other:?}"),
    }
}

/// A lie Alice commits to in Generate stays in the stored batch and is
/// caught in the later run that uses it; an online lie is caught online; a
/// bad soldering stops Generate itself, before anything is stored.
#[cfg(feature = "adversary")]
#[test]
fn cheats_in_stored_material_are_caught_in_the_later_run() {
    let mut rng = Rng(0xc7ea7);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    for (cheat, check, at_generate) in [
        (Cheat::FlipBobInput, "input-key-lsb", false),
        (Cheat::WrongInputKey, "input-authenticator", false),
        (Cheat::BadSoldering, "batch-decommit", true),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let generated = both_cheating(
            dir,
            &cfg,
            &Mode::Generate(size_for(&cfg, 1), true),
            Some(cheat),
        );
        if at_generate {
            match generated {
                Err(Error::Cheating { check: c }) => assert_eq!(c, check),
                other => panic!("{cheat:?}: Generate must abort, got {other:?}"),
            }
            assert!(kinds(dir, Role::Bob).is_empty(), "nothing stored");
            continue;
        }
        generated.unwrap();
        let (x, y, _) = fresh_pair(&mut rng, &cfg);
        match both_cheating(dir, &cfg, &Mode::Online(vec![(x, y)]), Some(cheat)) {
            Err(Error::Cheating { check: c }) => assert_eq!(c, check, "{cheat:?}"),
            other => panic!("{cheat:?}: the later run must abort, got {other:?}"),
        }
    }
}

#[test]
fn one_run_takes_copies_from_several_batches_never_mixing_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut rng = Rng(0x3ba7);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    // 1.5 copies, then 2 copies: three copies fit, but only 1 + 2.
    let one = size_for(&cfg, 1);
    let half = GenerateSize {
        and_gates: one.and_gates * 3 / 2,
        inputs: one.inputs * 3 / 2,
        outputs: one.outputs * 3 / 2,
    };
    both(dir, &cfg, &Mode::Generate(half, true)).unwrap();
    both(dir, &cfg, &Mode::Generate(size_for(&cfg, 2), false)).unwrap();
    let runs: Vec<_> = (0..3).map(|_| fresh_pair(&mut rng, &cfg)).collect();
    let out = both(
        dir,
        &cfg,
        &Mode::Online(
            runs.iter()
                .map(|(x, y, _)| (x.clone(), y.clone()))
                .collect(),
        ),
    )
    .unwrap();
    let want: Vec<_> = runs.into_iter().map(|r| r.2).collect();
    assert_eq!(out, want);
    let mut got = and_kinds(dir, Role::Bob);
    got.sort();
    // The first batch's half copy is left; the second is used up.
    let a = one.and_gates;
    assert_eq!(got, vec![(a * 3 / 2, a), (2 * a, 2 * a)]);
    // A fourth copy fits in neither.
    let (x, y, _) = fresh_pair(&mut rng, &cfg);
    assert!(matches!(
        both(dir, &cfg, &Mode::Online(vec![(x, y)])),
        Err(Error::Exhausted(_))
    ));
}

/// #24.5 (d): a store whose material was made at one s refuses a run at
/// another before anything is read, naming s (the run's parameters are
/// what `brickyard run` and the facade expect of the store).
#[test]
fn a_store_made_at_one_s_refuses_a_run_at_another() {
    let dir = std::env::temp_dir().join(format!("lego-store-s-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(5);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 10, 2));
    let params = |s: u32| {
        let opts = LegoOptions {
            s,
            ..Default::default()
        };
        LegoBob::with_options(cfg.clone(), opts)
            .unwrap()
            .store_parameters()
    };
    let mut sc = StoreConfig::new("lego", Role::Bob.store_role(), SessionId([4; 16]));
    sc.key_path = Some(key(&dir, Role::Bob));
    sc.parameters = params(40);
    drop(Store::create(&dir.join(Role::Bob.name()), sc).unwrap());
    let at = |s: u32| {
        let mut e = Expected::new("lego", Role::Bob.store_role());
        e.key_path = Some(key(&dir, Role::Bob));
        e.parameters = params(s);
        Store::open(&dir.join(Role::Bob.name()), &e)
    };
    for s in [41, 64, 80] {
        let e = at(s).err();
        let want = format!("s: the store was made with `40`, this run asks for `{s}`");
        assert!(
            matches!(&e, Some(Error::Config(m)) if m.contains(&want)),
            "{e:?}"
        );
    }
    assert!(at(40).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
