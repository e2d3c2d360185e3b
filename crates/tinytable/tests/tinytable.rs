//! `tinytable` / `tinytable-sbox` (honest runs) against the plaintext
//! evaluator, for every MAC scheme, both output modes, both table sources
//! (real Fig. 8 preprocessing, the default, and `--dealer`), and from
//! stores.

use brickyard_testkit as common;

use brickyard_circuit::{builtin, format_value, parse_value, ValueFormat};
use brickyard_core::channel::memory_pair;
use brickyard_core::{Error, Result};
use brickyard_protocols::driver::{run_party, PartyRun, PhaseSet};
use brickyard_protocols::tinytable::{self, MacScheme, Options, Source, Variant};
use brickyard_protocols::{OutputMode, PartyInputs, Role, RunConfig};
use brickyard_store::{Expected, SessionId, Store, StoreConfig};
use common::*;
use std::sync::Arc;

const KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
const PT: &str = "0x00112233445566778899aabbccddeeff";
const CT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

/// Options with real two-party preprocessing (the default source).
fn opts(variant: Variant, mac: &str) -> Options {
    Options {
        variant,
        mac: MacScheme::parse(mac).unwrap(),
        source: Source::Real,
        s: tinytable::security::DEFAULT_S,
        cheat: None,
    }
}

/// Options with the trusted dealer (`--dealer`).
fn dealer(variant: Variant, mac: &str) -> Options {
    Options {
        source: Source::Dealer,
        ..opts(variant, mac)
    }
}

fn proto(v: Variant) -> &'static str {
    match v {
        Variant::Binary => "tinytable",
        Variant::Sbox => "tinytable-sbox",
    }
}

/// Both parties over memory channels; each party's own result.
fn run_pair(
    cfg: &RunConfig,
    oa: Options,
    ob: Options,
    ai: Vec<PartyInputs>,
    bi: Vec<PartyInputs>,
) -> (Result<PartyRun>, Result<PartyRun>) {
    let (mut ca, mut cb) = memory_pair();
    let p = proto(oa.variant);
    let cfg_a = cfg.clone();
    let t = std::thread::spawn(move || {
        let r = tinytable::new_party(Role::Alice, cfg_a.clone(), oa).and_then(|mut a| {
            run_party(
                p,
                a.as_mut(),
                Role::Alice,
                &mut ca,
                &cfg_a,
                &ai,
                PhaseSet::ALL,
            )
        });
        drop(ca);
        r
    });
    let rb = tinytable::new_party(Role::Bob, cfg.clone(), ob)
        .and_then(|mut b| run_party(p, b.as_mut(), Role::Bob, &mut cb, cfg, &bi, PhaseSet::ALL));
    drop(cb);
    (t.join().unwrap(), rb)
}

fn check_honest(cfg: &RunConfig, o: Options, seed: u64) {
    let mut rng = Rng(seed);
    let e = cfg.executions;
    let ai = random_inputs(&mut rng, cfg, Role::Alice, e);
    let bi = random_inputs(&mut rng, cfg, Role::Bob, e);
    let (ra, rb) = run_pair(cfg, o.clone(), o.clone(), ai.clone(), bi.clone());
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    for x in 0..e {
        let want = cfg.circuit.eval(&assemble(cfg, &ai[x], &bi[x])).unwrap();
        assert_eq!(rb.outputs[x].as_ref().unwrap(), &want, "{o:?} exec {x}");
        match cfg.output {
            OutputMode::Both => assert_eq!(ra.outputs[x].as_ref().unwrap(), &want),
            OutputMode::Bob => assert!(ra.outputs[x].is_none()),
            OutputMode::Alice => unreachable!("tinytable refuses output to Alice only"),
        }
    }
}

#[test]
fn binary_random_circuits_every_scheme() {
    let mut rng = Rng(0x7175);
    for (round, mac) in [
        "passive",
        "lookup-32",
        "lookup-64",
        "linear-32",
        "linear-64",
    ]
    .iter()
    .cycle()
    .take(15)
    .enumerate()
    {
        let (g, o) = (1 + rng.below(200), 1 + rng.below(3));
        let c = random_circuit(&mut rng, 2, g, o);
        let mut cfg = cfg_for(c);
        cfg.executions = 1 + rng.below(3);
        if round % 2 == 0 {
            cfg.output = OutputMode::Both;
        }
        // Real tables in two rounds of three, dealer tables in the third;
        // 32-bit MACs only with the dealer (real runs refuse their 2^-32
        // term: `real_runs_refuse_a_bound_above_two_to_the_minus_s`).
        let o = if round % 3 == 2 || mac.ends_with("-32") {
            dealer(Variant::Binary, mac)
        } else {
            opts(Variant::Binary, mac)
        };
        check_honest(&cfg, o, round as u64);
    }
}

#[test]
fn binary_aes_fips_vector_and_rounds() {
    for o in [
        opts(Variant::Binary, "lookup-64"),
        opts(Variant::Binary, "linear-64"),
        dealer(Variant::Binary, "lookup-64"),
    ] {
        binary_aes_once(o);
    }
}

fn binary_aes_once(o: Options) {
    let mut cfg = cfg_for(builtin("aes128").unwrap());
    cfg.output = OutputMode::Both;
    let ai = vec![vec![parse_value(KEY, 128).unwrap()]];
    let bi = vec![vec![parse_value(PT, 128).unwrap()]];
    let (ra, rb) = run_pair(&cfg, o.clone(), o, ai, bi);
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    let out = rb.outputs[0].as_ref().unwrap();
    assert_eq!(format_value(&out[0], ValueFormat::Hex), CT);
    assert_eq!(ra.outputs[0].as_ref().unwrap(), out);
    // Input flight + 60 AND layers (the last one carries the table MAC) +
    // output opening, from each side.
    let online = &rb.phases[3].traffic;
    assert_eq!(online.rounds, 1 + 60 + 1, "Bob's flights");
}

#[test]
fn sbox_aes_every_scheme_ten_table_rounds() {
    for (mac, real) in [
        ("passive", false),
        ("linear-32", false),
        ("linear-64", true),
        ("linear-64", false),
        ("lookup-32", false),
    ] {
        let pick = |v, m| if real { opts(v, m) } else { dealer(v, m) };
        let mut cfg = cfg_for(builtin("aes128").unwrap());
        cfg.executions = if mac == "lookup-32" { 1 } else { 2 };
        check_honest(&cfg, pick(Variant::Sbox, mac), 9);
        let ai = vec![vec![parse_value(KEY, 128).unwrap()]];
        let bi = vec![vec![parse_value(PT, 128).unwrap()]];
        cfg.executions = 1;
        let o = pick(Variant::Sbox, mac);
        let (_, rb) = run_pair(&cfg, o.clone(), o, ai, bi);
        let rb = rb.unwrap();
        let out = rb.outputs[0].as_ref().unwrap();
        assert_eq!(format_value(&out[0], ValueFormat::Hex), CT, "{mac}");
        // Bob's flights: inputs, 10 table layers (the last one carries the
        // table MAC); with output to Bob he only receives in the opening.
        assert_eq!(rb.phases[3].traffic.rounds, 1 + 10, "{mac}");
    }
}

#[test]
fn sbox_refuses_other_circuits_and_real_preprocessing_is_the_default() {
    let cfg = cfg_for(builtin("add8").unwrap());
    let e = tinytable::new_party(Role::Alice, cfg, opts(Variant::Sbox, "linear-64")).err();
    assert!(matches!(e, Some(Error::Config(_))));
    assert_eq!(
        Options::for_protocol("tinytable").unwrap().source,
        Source::Real
    );
    let cfg = cfg_for(builtin("add8").unwrap());
    assert!(brickyard_protocols::registry::new_party("tinytable", Role::Bob, cfg).is_ok());
}

#[test]
fn dealer_and_real_parties_refuse_each_other() {
    let cfg = cfg_for(builtin("add8").unwrap());
    let mut rng = Rng(4);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (ra, rb) = run_pair(
        &cfg,
        opts(Variant::Binary, "lookup-64"),
        dealer(Variant::Binary, "lookup-64"),
        ai,
        bi,
    );
    assert!(matches!(ra, Err(Error::Config(_))));
    assert!(matches!(rb, Err(Error::Config(_))));
}

#[test]
fn option_mismatch_stops_both_before_any_table() {
    let cfg = cfg_for(builtin("add8").unwrap());
    let mut rng = Rng(3);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (ra, rb) = run_pair(
        &cfg,
        opts(Variant::Binary, "lookup-64"),
        opts(Variant::Binary, "linear-64"),
        ai,
        bi,
    );
    assert!(matches!(ra, Err(Error::Config(_))));
    assert!(matches!(rb, Err(Error::Config(_))));
}

/// Both parties with stores: `inputs = None` preprocesses.
fn stored(
    dir: &std::path::Path,
    cfg: &RunConfig,
    o: &Options,
    create: bool,
    inputs: Option<(PartyInputs, PartyInputs)>,
) -> Result<Vec<Option<brickyard_protocols::Outputs>>> {
    let phases = PhaseSet {
        preprocess: inputs.is_none(),
        online: inputs.is_some(),
    };
    let (ca, cb) = memory_pair();
    let mut hs = Vec::new();
    for (role, mut ch) in [(Role::Alice, ca), (Role::Bob, cb)] {
        let (cfg, o) = (cfg.clone(), o.clone());
        let sdir = dir.join(role.name());
        let kp = dir.join(format!("{}.key", role.name()));
        let mine: Vec<PartyInputs> = match &inputs {
            Some((a, b)) => vec![
                if role == Role::Alice {
                    a.clone()
                } else {
                    b.clone()
                };
                cfg.executions
            ],
            None => vec![],
        };
        hs.push(std::thread::spawn(move || {
            let store = if create {
                let mut sc = StoreConfig::new("tinytable", role.store_role(), SessionId([9; 16]));
                sc.key_path = Some(kp);
                Store::create(&sdir, sc)?
            } else {
                let mut e = Expected::new("tinytable", role.store_role());
                e.key_path = Some(kp);
                Store::open(&sdir, &e)?
            };
            let mut p = tinytable::new_party(role, cfg.clone(), o)?;
            p.attach_store(store)?;
            let r = run_party("tinytable", p.as_mut(), role, &mut ch, &cfg, &mine, phases);
            drop(ch);
            r
        }));
    }
    let rb = hs.pop().unwrap().join().unwrap();
    let ra = hs.pop().unwrap().join().unwrap();
    let (_, rb) = (ra?, rb?);
    Ok(rb.outputs)
}

#[test]
fn dealer_tables_from_stores_are_used_once() {
    tables_from_stores_are_used_once(dealer(Variant::Binary, "linear-64"), "dealer");
}

#[test]
fn real_tables_from_stores_are_used_once() {
    tables_from_stores_are_used_once(opts(Variant::Binary, "lookup-64"), "real");
}

fn tables_from_stores_are_used_once(o: Options, tag: &str) {
    let dir = std::env::temp_dir().join(format!("tinytable-store-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let c = Arc::new(builtin("aes128").unwrap());
    let mut cfg = RunConfig::new(c).unwrap();
    cfg.executions = 3;
    stored(&dir, &cfg, &o, true, None).unwrap();
    let inputs = (
        vec![parse_value(KEY, 128).unwrap()],
        vec![parse_value(PT, 128).unwrap()],
    );
    // A run of two executions (the second's records read ahead after the
    // first), then a run of one.
    for k in [2, 1] {
        cfg.executions = k;
        let outs = stored(&dir, &cfg, &o, false, Some(inputs.clone())).unwrap();
        assert_eq!(outs.len(), k);
        for out in outs {
            assert_eq!(format_value(&out.unwrap()[0], ValueFormat::Hex), CT);
        }
    }
    let fourth = stored(&dir, &cfg, &o, false, Some(inputs));
    assert!(matches!(fourth, Err(Error::Exhausted(_))), "{fourth:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// #24.5: a real run whose failure bound (the sum of
/// `tinytable::security::terms`) exceeds 2^-s is refused with a `Config`
/// error naming the largest term; s < 40 is never accepted; the dealer
/// (test/bench mode, no malicious bound) still runs 32-bit MACs.
#[test]
fn real_runs_refuse_a_bound_above_two_to_the_minus_s() {
    let cfg = cfg_for(builtin("add8").unwrap());
    let refused = |o: Options, what: &str| {
        let e = tinytable::new_party(Role::Alice, cfg.clone(), o.clone()).err();
        assert!(
            matches!(&e, Some(Error::Config(m)) if m.contains(what)),
            "{o:?}: {e:?}"
        );
    };
    for mac in ["lookup-32", "linear-32"] {
        refused(opts(Variant::Binary, mac), "table and output MACs");
        assert!(tinytable::new_party(Role::Bob, cfg.clone(), dealer(Variant::Binary, mac)).is_ok());
    }
    // 64-bit MACs carry s up to 63 (2^-64 + TinyOT at s + 2); s = 64 is
    // more than they give.
    let at = |s: u32, mac: &str, source: Source| Options {
        s,
        source,
        ..opts(Variant::Binary, mac)
    };
    refused(at(64, "lookup-64", Source::Real), "table and output MACs");
    refused(at(39, "lookup-64", Source::Real), "s = 39 refused");
    refused(at(39, "linear-64", Source::Dealer), "s = 39 refused");
    for s in [40, 50, 60, 63] {
        assert!(
            tinytable::new_party(Role::Alice, cfg.clone(), at(s, "linear-64", Source::Real))
                .is_ok()
        );
    }
    assert!(
        tinytable::new_party(Role::Alice, cfg.clone(), at(60, "passive", Source::Real)).is_ok()
    );
}

/// #24.5: s reaches TinyOT (buckets sized for s + 2) and the run
/// agreement: an honest run at s = 60 is correct, and parties with
/// different s stop with `Config` before any cryptography.
#[test]
fn s_60_runs_and_parties_must_agree_on_s() {
    let mut cfg = cfg_for(builtin("add8").unwrap());
    cfg.output = OutputMode::Both;
    let at = |s| Options {
        s,
        ..opts(Variant::Binary, "lookup-64")
    };
    check_honest(&cfg, at(60), 60);
    let mut rng = Rng(61);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (ra, rb) = run_pair(&cfg, at(40), at(60), ai, bi);
    for r in [ra, rb] {
        assert!(
            matches!(&r, Err(Error::Config(m)) if m.contains('s')),
            "{:?}",
            r.err()
        );
    }
}

/// #24.5 (d): a store made at one s refuses a run at another, naming s.
#[test]
fn a_store_made_at_one_s_refuses_a_run_at_another() {
    let dir = std::env::temp_dir().join(format!("tinytable-store-s-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = cfg_for(builtin("add8").unwrap());
    let at = |s| Options {
        s,
        ..dealer(Variant::Binary, "linear-64")
    };
    let params = |s| {
        tinytable::new_party(Role::Alice, cfg.clone(), at(s))
            .unwrap()
            .store_parameters()
    };
    let mut sc = StoreConfig::new("tinytable", Role::Alice.store_role(), SessionId([3; 16]));
    sc.key_path = Some(dir.join("alice.key"));
    sc.parameters = params(40);
    drop(Store::create(&dir.join("alice"), sc).unwrap());
    let open = |s| {
        let mut e = Expected::new("tinytable", Role::Alice.store_role());
        e.key_path = Some(dir.join("alice.key"));
        e.parameters = params(s);
        Store::open(&dir.join("alice"), &e)
    };
    let e = open(60).err();
    assert!(
        matches!(&e, Some(Error::Config(m))
            if m.contains("s: the store was made with `40`, this run asks for `60`")),
        "{e:?}"
    );
    assert!(open(40).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
