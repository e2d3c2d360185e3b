//! Store-backed JIMU: Setup, Generate, Check and the share OTs in one
//! "process" (a preprocessing run into fresh stores, no circuit), then
//! Build and Eval of different circuits in later runs, each with fresh
//! party objects and reopened stores. Material is used once: later runs
//! take later records, exhaustion is refused before anything is reserved,
//! a peer's shifted index is a named error that leaves the store as it
//! was, and corrupt bytes are a storage error. A second preprocessing adds
//! a batch with its own Setup; runs take their material from one batch.

use brickyard_core::channel::memory_pair;
use brickyard_core::Error;
use brickyard_jimu::{new_party_sized, Cheats, JimuOptions, PoolSize};
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::{Outputs, PartyInputs, Role, RunConfig};
use brickyard_store::{info_with_key, Expected, SessionId, Store, StoreConfig};
use brickyard_testkit::*;
use serde_json::Value;
use std::path::Path;

const OPTS: JimuOptions = JimuOptions { k: 88, s: 40 };

/// Honest parties; `fast` skips Step 5b's proof (seconds per Setup) with
/// the test-only switch of `adversary` builds (CI's `--all-features`):
/// the tests that use it are about the store, not Step 5b, and
/// `two_circuits_from_one_preprocessing` runs the proof.
fn cheats(fast: bool) -> Cheats {
    #[cfg(feature = "adversary")]
    if fast {
        return Cheats::default().without_step_5b();
    }
    let _ = fast;
    Cheats::default()
}

enum Mode {
    /// Preprocess `PoolSize` into new stores.
    Preprocess(PoolSize),
    /// Preprocess `PoolSize` as another batch of the existing stores.
    AddBatch(PoolSize),
    /// Build + Eval, one execution per input pair.
    Online(Vec<(PartyInputs, PartyInputs)>),
}

fn key(dir: &Path, role: Role) -> std::path::PathBuf {
    dir.join(format!("{}.key", role.name()))
}

fn open(dir: &Path, role: Role) -> brickyard_core::Result<Store> {
    let mut e = Expected::new("jimu", role.store_role());
    e.key_path = Some(key(dir, role));
    e.parameters = OPTS.security_parameters();
    Store::open(&dir.join(role.name()), &e)
}

/// Both parties in two threads over a memory channel; Bob's outputs.
/// `prepare` may change a party's store before the run (adversary tests).
fn both(
    dir: &Path,
    cfg: &RunConfig,
    mode: &Mode,
    fast: bool,
    prepare: fn(Role, &mut Store),
) -> brickyard_core::Result<Vec<Outputs>> {
    both_with(dir, cfg, mode, prepare, move |_| cheats(fast))
}

/// [`both`] with each party following `strategy(its role)`.
fn both_with(
    dir: &Path,
    cfg: &RunConfig,
    mode: &Mode,
    prepare: fn(Role, &mut Store),
    strategy: impl Fn(Role) -> Cheats,
) -> brickyard_core::Result<Vec<Outputs>> {
    let (ca, cb) = memory_pair();
    let mut handles = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let mut cfg = cfg.clone();
        let dir = dir.to_path_buf();
        let create = matches!(mode, Mode::Preprocess(_));
        let (size, my_in) = match mode {
            Mode::Preprocess(s) | Mode::AddBatch(s) => (Some(*s), Vec::new()),
            Mode::Online(ins) => (
                None,
                ins.iter()
                    .map(|(a, b)| if role == Role::Alice { a } else { b }.clone())
                    .collect::<Vec<_>>(),
            ),
        };
        let phases = PhaseSet {
            preprocess: size.is_some(),
            online: size.is_none(),
        };
        cfg.executions = my_in.len().max(1);
        let cheats = strategy(role);
        handles.push(std::thread::spawn(move || {
            let mut store = if create {
                let mut sc = StoreConfig::new("jimu", role.store_role(), SessionId([7; 16]));
                sc.key_path = Some(key(&dir, role));
                sc.parameters = OPTS.security_parameters();
                Store::create(&dir.join(role.name()), sc)?
            } else {
                open(&dir, role)?
            };
            prepare(role, &mut store);
            let mut party = new_party_sized(role, cfg.clone(), OPTS, cheats, size)?;
            party.attach_store(store)?;
            let r = run_party("jimu", party.as_mut(), role, &mut ch, &cfg, &my_in, phases);
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
    // The party that failed first names the cause; its peer may only see
    // the channel close.
    let named = |r: &brickyard_core::Result<_>| {
        matches!(
            r,
            Err(Error::Storage(_) | Error::Cheating { .. } | Error::Exhausted(_))
        )
    };
    if named(&alice) {
        return Err(alice.err().unwrap());
    }
    if named(&bob) {
        return Err(bob.err().unwrap());
    }
    let b = bob?;
    alice?;
    Ok(b.outputs.into_iter().flatten().collect())
}

fn none(_: Role, _: &mut Store) {}

/// (kind, produced, next index) of the jimu kinds in `role`'s store.
fn kinds(dir: &Path, role: Role) -> Vec<(String, u64, u64)> {
    let info = info_with_key(&dir.join(role.name()), Some(&key(dir, role))).unwrap();
    let mut v: Vec<_> = info
        .kinds
        .iter()
        .map(|k| (k.name.clone(), k.produced, k.next_index))
        .collect();
    v.sort();
    v
}

/// One execution's inputs: (Alice's, Bob's).
type InputPair = (PartyInputs, PartyInputs);

fn wire_bits(s: &str) -> Vec<bool> {
    s.chars().map(|c| c == '1').collect()
}

/// The first `max` vectors of a shared circuit: its config (executions =
/// vectors), inputs and expected outputs.
fn vectors(file: &str, max: usize) -> Option<(RunConfig, Vec<InputPair>, Vec<Outputs>)> {
    let dir = shared_circuits()?;
    let text = std::fs::read_to_string(dir.join("vectors.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let c = brickyard_circuit::load(dir.join(file)).unwrap();
    let cfg = cfg_for(c);
    let (mut ins, mut want) = (Vec::new(), Vec::new());
    for v in json["circuits"][file]["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .take(max)
    {
        let bits: Vec<Vec<bool>> = v["input_wire_bits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| wire_bits(s.as_str().unwrap()))
            .filter(|b| !b.is_empty())
            .collect();
        let a = cfg.alice_groups.iter().map(|&g| bits[g].clone()).collect();
        let b = cfg.bob_groups.iter().map(|&g| bits[g].clone()).collect();
        ins.push((a, b));
        want.push(
            v["output_wire_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| wire_bits(s.as_str().unwrap()))
                .collect(),
        );
    }
    Some((cfg, ins, want))
}

/// What `e` executions of `cfg`'s circuit take: (buckets, wires, shares).
fn takes(cfg: &RunConfig, e: u64) -> [u64; 3] {
    let mut one = cfg.clone();
    one.executions = 1;
    let p = PoolSize::for_run(&one).unwrap();
    [
        p.and_gates * e,
        (p.alice_inputs + p.and_gates) * e,
        p.bob_inputs * OPTS.s as u64 * e,
    ]
}

fn next(dir: &Path, role: Role) -> [u64; 3] {
    let k = kinds(dir, role);
    let at = |n: &str| k.iter().find(|x| x.0 == n).unwrap().2;
    [at("jimu-bucket"), at("jimu-wire"), at("jimu-share")]
}

/// One preprocessing (with Step 5b's proof), then AES-128 and two
/// executions of a 64-bit adder in separate runs, each on the published
/// vectors, each taking the next unused records; what is left is refused
/// for a run that needs more, before anything is reserved.
#[test]
fn two_circuits_from_one_preprocessing() {
    let Some((aes, aes_in, aes_want)) = vectors("bristol_fashion/aes_128.txt", 1) else {
        return;
    };
    let (add, add_in, add_want) = vectors("bristol_fashion/adder64.txt", 2).unwrap();
    let (ta, tb) = (takes(&aes, 1), takes(&add, 2));
    let size = PoolSize {
        and_gates: ta[0] + tb[0],
        alice_inputs: 128 + 2 * 64,
        bob_inputs: 128 + 2 * 64,
    };
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &aes, &Mode::Preprocess(size), false, none).unwrap();
    for role in [Role::Alice, Role::Bob] {
        assert_eq!(next(d.path(), role), [0, 0, 0]);
        let k = kinds(d.path(), role);
        let produced: Vec<u64> = k.iter().map(|x| x.1).collect();
        // bucket, share, wire (sorted by name).
        assert_eq!(
            produced,
            vec![size.and_gates, 256 * 40, 256 + size.and_gates]
        );
    }
    // AES-128 (key Alice, plaintext Bob).
    let out = both(d.path(), &aes, &Mode::Online(aes_in), true, none).unwrap();
    assert_eq!(out, aes_want);
    assert_eq!(next(d.path(), Role::Bob), ta);
    assert_eq!(next(d.path(), Role::Alice), ta);
    // The adder, twice, from the records after AES's.
    let out = both(d.path(), &add, &Mode::Online(add_in.clone()), true, none).unwrap();
    assert_eq!(out, add_want);
    let used: Vec<u64> = ta.iter().zip(tb).map(|(a, b)| a + b).collect();
    assert_eq!(next(d.path(), Role::Bob).to_vec(), used);
    // Everything Alice's inputs and the ANDs need is used: one more adder
    // execution is refused on both sides alike, nothing reserved.
    let r = both(
        d.path(),
        &add,
        &Mode::Online(add_in[..1].to_vec()),
        true,
        none,
    );
    assert!(
        matches!(&r, Err(Error::Exhausted(m)) if m.contains("nothing was reserved")),
        "{r:?}"
    );
    assert_eq!(next(d.path(), Role::Bob).to_vec(), used);
    assert_eq!(next(d.path(), Role::Alice).to_vec(), used);
}

/// A store of a few random-circuit executions: material is used once
/// across runs (second run takes later records; when all is used, a run
/// is refused); results match the plaintext evaluator.
#[test]
fn material_is_used_once_across_runs() {
    let mut rng = Rng(0x5170);
    let c = random_circuit(&mut rng, 2, 60, 2);
    let mut cfg = cfg_for(c);
    cfg.executions = 3;
    let size = PoolSize::for_run(&cfg).unwrap();
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &cfg, &Mode::Preprocess(size), true, none).unwrap();
    let mut pairs = Vec::new();
    for _ in 0..3 {
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
        pairs.push((x, y, want));
    }
    // One execution, then two.
    let run = |ps: &[(PartyInputs, PartyInputs, Outputs)]| {
        let ins = ps.iter().map(|(x, y, _)| (x.clone(), y.clone())).collect();
        both(d.path(), &cfg, &Mode::Online(ins), true, none)
    };
    assert_eq!(run(&pairs[..1]).unwrap(), vec![pairs[0].2.clone()]);
    assert_eq!(next(d.path(), Role::Alice), takes(&cfg, 1));
    let out = run(&pairs[1..]).unwrap();
    assert_eq!(out, vec![pairs[1].2.clone(), pairs[2].2.clone()]);
    assert_eq!(next(d.path(), Role::Bob), takes(&cfg, 3));
    // Used material is never handed out again.
    let r = run(&pairs[..1]);
    assert!(matches!(r, Err(Error::Exhausted(_))), "{r:?}");
    assert_eq!(next(d.path(), Role::Bob), takes(&cfg, 3));
}

/// Bytes of a stored record changed on disk: the store's MAC refuses
/// them (`Storage`), never a wrong output or a panic.
#[test]
fn corrupt_record_is_a_storage_error() {
    let mut rng = Rng(0x5171);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 1));
    let size = PoolSize::for_run(&cfg).unwrap();
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &cfg, &Mode::Preprocess(size), true, none).unwrap();
    let dir = d.path().join("bob");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("jimu-bucket"))
        .expect("bucket data file");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
    let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
    let r = both(d.path(), &cfg, &Mode::Online(vec![(x, y)]), true, none);
    assert!(matches!(r, Err(Error::Storage(_))), "{r:?}");
}

/// A peer that claims another next index (as if it could use records
/// again, or skip some) or a state no honest store is in is refused by
/// name at the handshake, and our store is left exactly as it was: the
/// next honest run uses the same records and gives the right output.
#[cfg(feature = "adversary")]
#[test]
fn shifted_index_is_refused_and_the_store_is_unchanged() {
    use brickyard_store::SyncLie;
    let mut rng = Rng(0x5172);
    let mut cfg = cfg_for(random_circuit(&mut rng, 2, 40, 1));
    cfg.executions = 2;
    let size = PoolSize::for_run(&cfg).unwrap();
    cfg.executions = 1;
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &cfg, &Mode::Preprocess(size), true, none).unwrap();
    let mut pairs = Vec::new();
    for _ in 0..2 {
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
        pairs.push((x, y, want));
    }
    let online = |i: usize| Mode::Online(vec![(pairs[i].0.clone(), pairs[i].1.clone())]);
    assert_eq!(
        both(d.path(), &cfg, &online(0), true, none).unwrap(),
        vec![pairs[0].2.clone()]
    );
    // Alice claims her buckets start one execution earlier (at used
    // ones): Bob, the honest side, refuses by name before reserving
    // anything, and his store is exactly as it was.
    let bob_before = kinds(d.path(), Role::Bob);
    fn back(role: Role, s: &mut Store) {
        if role == Role::Alice {
            s.lie_at_sync(SyncLie::ShiftNext { kind: 0, by: -1 });
        }
    }
    let r = both(d.path(), &cfg, &online(1), true, back);
    assert!(
        matches!(
            &r,
            Err(Error::Config(_)
                | Error::Cheating {
                    check: "store-sync"
                })
        ),
        "{r:?}"
    );
    assert_eq!(
        kinds(d.path(), Role::Bob),
        bob_before,
        "Bob's store changed"
    );
    // Bob claims his wires' next index is past the end of what was made:
    // Alice, honest here, refuses by name (`Config`, naming the kind:
    // with one record per unit the claim is "a different next index")
    // before reserving anything; her records and indices are untouched.
    // (New stores: Alice, who lied above, went on and reserved.)
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &cfg, &Mode::Preprocess(size), true, none).unwrap();
    let alice_before = kinds(d.path(), Role::Alice);
    fn past(role: Role, s: &mut Store) {
        if role == Role::Bob {
            s.lie_at_sync(SyncLie::NextPastEnd { kind: 1 });
        }
    }
    let r = both(d.path(), &cfg, &online(1), true, past);
    let msg = format!("{r:?}");
    assert!(msg.contains("Config") && msg.contains("jimu-wire"), "{msg}");
    assert_eq!(kinds(d.path(), Role::Alice), alice_before);
}

/// Alice's NAND bucket gate (Bob's J rigged so it lands in the first
/// bucket) in a store-backed run: Bob extracts Δ in the online run of a
/// later process and recovers Alice's input from the ρ batch replayed at
/// the positions his store recorded, outputting f(x, y), never aborting.
#[cfg(feature = "adversary")]
#[test]
fn two_valid_labels_from_a_store_give_f_of_x_y() {
    use brickyard_jimu::Cheat;
    let mut rng = Rng(0x5173);
    for round in 0..3 {
        let cfg = cfg_for(random_circuit(&mut rng, 2, 50, 2));
        let size = PoolSize::for_run(&cfg).unwrap();
        let d = tempfile::tempdir().unwrap();
        // Step 5b skipped (test-only): this test is about the recovery.
        let rigged = |_| Cheats::new(Cheat::TwoValidLabels).without_step_5b();
        both_with(d.path(), &cfg, &Mode::Preprocess(size), none, rigged).unwrap();
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
        let out = both_with(d.path(), &cfg, &Mode::Online(vec![(x, y)]), none, rigged);
        assert_eq!(out.unwrap(), vec![want], "round {round}");
    }
}

/// (produced, next index) of each kind of batch `n` (`jimu-bucket-n`, …;
/// batch 0 has the plain names) in `role`'s store.
fn batch_kinds(dir: &Path, role: Role, n: u32) -> [(u64, u64); 3] {
    let k = kinds(dir, role);
    let name = |base: &str| match n {
        0 => base.to_string(),
        n => format!("{base}-{n}"),
    };
    ["jimu-bucket", "jimu-wire", "jimu-share"].map(|b| {
        let x = k
            .iter()
            .find(|x| x.0 == name(b))
            .expect("kind of the batch");
        (x.1, x.2)
    })
}

/// Issue #27 item 3 with two preprocessings into the same stores: the
/// second adds batch 1 (its own Setup, its own kinds) and leaves batch
/// 0's records and indices alone; each run takes all its material from
/// the oldest batch that has enough for it (a run too big for batch 0's
/// rest goes to batch 1, a later small one back to batch 0's rest),
/// outputs match the plaintext evaluator, and a run when no batch has
/// enough is refused with nothing reserved. A third preprocessing adds
/// batch 2, and that run goes through.
#[test]
fn second_preprocessing_adds_a_batch() {
    let mut rng = Rng(0x5174);
    let mut cfg = cfg_for(random_circuit(&mut rng, 2, 50, 2));
    cfg.executions = 2;
    let two = PoolSize::for_run(&cfg).unwrap();
    cfg.executions = 1;
    let one = PoolSize::for_run(&cfg).unwrap();
    let d = tempfile::tempdir().unwrap();
    both(d.path(), &cfg, &Mode::Preprocess(two), true, none).unwrap();
    let b0 = batch_kinds(d.path(), Role::Bob, 0);
    both(d.path(), &cfg, &Mode::AddBatch(two), true, none).unwrap();
    let (t1, t2) = (takes(&cfg, 1), takes(&cfg, 2));
    for role in [Role::Alice, Role::Bob] {
        // Batch 0 untouched; batch 1 as large, unused.
        assert_eq!(batch_kinds(d.path(), role, 0), b0);
        let b1 = batch_kinds(d.path(), role, 1);
        assert_eq!(b1.map(|x| x.0), t2);
        assert_eq!(b1.map(|x| x.1), [0; 3]);
    }
    let mut pairs = Vec::new();
    for _ in 0..6 {
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
        pairs.push((x, y, want));
    }
    let run = |ps: &[(PartyInputs, PartyInputs, Outputs)]| {
        let ins = ps.iter().map(|(x, y, _)| (x.clone(), y.clone())).collect();
        both(d.path(), &cfg, &Mode::Online(ins), true, none)
    };
    let want = |ps: &[(PartyInputs, PartyInputs, Outputs)]| {
        ps.iter().map(|p| p.2.clone()).collect::<Vec<_>>()
    };
    let nexts = |role: Role| [0, 1].map(|n| batch_kinds(d.path(), role, n).map(|x| x.1));
    // One execution: batch 0.
    assert_eq!(run(&pairs[..1]).unwrap(), want(&pairs[..1]));
    assert_eq!(nexts(Role::Alice), [t1, [0; 3]]);
    // Two: batch 0 has one left, so all of it comes from batch 1.
    assert_eq!(run(&pairs[1..3]).unwrap(), want(&pairs[1..3]));
    assert_eq!(nexts(Role::Bob), [t1, t2]);
    assert_eq!(nexts(Role::Alice), [t1, t2]);
    // One: the rest of batch 0.
    assert_eq!(run(&pairs[3..4]).unwrap(), want(&pairs[3..4]));
    assert_eq!(nexts(Role::Bob), [t2, t2]);
    // Nothing left anywhere: refused on both sides, nothing reserved.
    let r = run(&pairs[4..5]);
    assert!(
        matches!(&r, Err(Error::Exhausted(m)) if m.contains("nothing was reserved")),
        "{r:?}"
    );
    assert_eq!(nexts(Role::Alice), [t2, t2]);
    assert_eq!(nexts(Role::Bob), [t2, t2]);
    // A third preprocessing (one execution) is batch 2, and serves the run.
    both(d.path(), &cfg, &Mode::AddBatch(one), true, none).unwrap();
    assert_eq!(batch_kinds(d.path(), Role::Alice, 2).map(|x| x.0), t1);
    assert_eq!(run(&pairs[5..6]).unwrap(), want(&pairs[5..6]));
    assert_eq!(batch_kinds(d.path(), Role::Bob, 2).map(|x| x.1), t1);
}

/// Alice following `cheat`, Bob honest (Step 5b skipped: test-only).
#[cfg(feature = "adversary")]
fn alice_cheats(cheat: brickyard_jimu::Cheat) -> impl Fn(Role) -> Cheats {
    move |role| match role {
        Role::Alice => Cheats::new(cheat).without_step_5b(),
        Role::Bob => Cheats::default().without_step_5b(),
    }
}

/// Bob's y: all zeros, all ones, random.
#[cfg(feature = "adversary")]
fn ys(rng: &mut Rng, cfg: &RunConfig) -> Vec<PartyInputs> {
    let r = random_inputs(rng, cfg, Role::Bob, 1).remove(0);
    let zero: PartyInputs = r.iter().map(|g| vec![false; g.len()]).collect();
    let one: PartyInputs = r.iter().map(|g| vec![true; g.len()]).collect();
    vec![zero, one, r]
}

/// Issue #27 item 4 against store-backed runs: after an honest
/// preprocessing into fresh stores, an online run in which Alice cheats in
/// Build or Eval, for y = 0…0, 1…1 and random. Each always-caught cheat
/// ends in `Cheating { check }` with its check named (`solder-label`,
/// `solder-rho`, `alice-input-label`, `output-rho`); `selective-ot` ends
/// in the delayed `bob-input-label` abort or in f(x, y), both outcomes
/// appearing (all 18 alike has probability 2^-17); never a wrong output.
/// A caught run poisons the honest party's store: a later run with it is
/// refused before anything is used.
#[cfg(feature = "adversary")]
#[test]
fn online_cheats_against_a_store_name_their_check() {
    use brickyard_jimu::Cheat;
    let mut rng = Rng(0x5175);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    let size = PoolSize::for_run(&cfg).unwrap();
    let fresh = || {
        let d = tempfile::tempdir().unwrap();
        both(d.path(), &cfg, &Mode::Preprocess(size), true, none).unwrap();
        d
    };
    let online = |x: &PartyInputs, y: &PartyInputs| Mode::Online(vec![(x.clone(), y.clone())]);
    let (mut caught, mut correct) = (0, 0);
    for (round, y) in ys(&mut rng, &cfg).into_iter().enumerate() {
        for (cheat, check) in [
            (Cheat::BadSolderLabel, "solder-label"),
            (Cheat::BadSolderRho, "solder-rho"),
            (Cheat::WrongInputLabel, "alice-input-label"),
            (Cheat::WrongOutputRho, "output-rho"),
        ] {
            let d = fresh();
            let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
            let r = both_with(d.path(), &cfg, &online(&x, &y), none, alice_cheats(cheat));
            assert!(
                matches!(&r, Err(Error::Cheating { check: c }) if *c == check),
                "{cheat:?}: {r:?}"
            );
            if round == 0 {
                // Bob's store is poisoned: nothing more from it.
                let r = both(d.path(), &cfg, &online(&x, &y), true, none);
                let msg = format!("{r:?}");
                assert!(msg.contains("poisoned") && msg.contains(check), "{msg}");
            }
        }
        for _ in 0..6 {
            let d = fresh();
            let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
            let want = cfg.circuit.eval(&assemble(&cfg, &x, &y)).unwrap();
            let strategy = alice_cheats(Cheat::SelectiveOt);
            match both_with(d.path(), &cfg, &online(&x, &y), none, strategy) {
                Err(Error::Cheating {
                    check: "bob-input-label",
                }) => caught += 1,
                Ok(out) => {
                    assert_eq!(out, vec![want], "selective-ot: wrong output");
                    correct += 1;
                }
                r => panic!("selective-ot: {r:?}"),
            }
        }
    }
    println!("selective-ot: {caught} caught, {correct} correct");
    assert!(
        caught > 0 && correct > 0,
        "{caught} caught, {correct} correct"
    );
}

/// `bad-output-ihash` made in a preprocessing run (one garbled gate's
/// output-label i-hash is of a wrong label): caught there by Check
/// (`check-gate-label`) if the gate is checked, else in the later
/// store-backed run by Build's soldering check (`solder-label`); never an
/// output. Three fresh preprocessings.
#[cfg(feature = "adversary")]
#[test]
fn bad_output_ihash_in_a_stored_preprocessing_is_caught() {
    use brickyard_jimu::Cheat;
    let mut rng = Rng(0x5176);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    let size = PoolSize::for_run(&cfg).unwrap();
    let strategy = || alice_cheats(Cheat::BadOutputIhash);
    let mut at = Vec::new();
    for _ in 0..3 {
        let d = tempfile::tempdir().unwrap();
        match both_with(d.path(), &cfg, &Mode::Preprocess(size), none, strategy()) {
            Err(Error::Cheating { check }) => {
                assert_eq!(check, "check-gate-label");
                at.push(check);
                continue;
            }
            r => {
                r.unwrap();
            }
        }
        let x = random_inputs(&mut rng, &cfg, Role::Alice, 1).remove(0);
        let y = random_inputs(&mut rng, &cfg, Role::Bob, 1).remove(0);
        let r = both_with(
            d.path(),
            &cfg,
            &Mode::Online(vec![(x, y)]),
            none,
            strategy(),
        );
        match r {
            Err(Error::Cheating { check }) => {
                assert_eq!(check, "solder-label");
                at.push(check);
            }
            r => panic!("bad-output-ihash not caught: {r:?}"),
        }
    }
    println!("bad-output-ihash caught by {at:?}");
    assert_eq!(at.len(), 3);
}
