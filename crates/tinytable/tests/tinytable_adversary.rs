//! Adversary mode: every named cheating strategy, for either party, under
//! every MAC scheme. The honest party must abort with the documented
//! `Cheating { check }` (a cheat survives only w.p. 2^-k, k ≥ 32, so never
//! in these runs) or, for input substitution, output the function of the
//! substituted input — never a wrong value. Every online strategy runs
//! against dealer tables and against real (Fig. 8) tables; the `prep-*`
//! strategies attack real preprocessing itself and must be caught by its
//! checks (TinyOT's `mac-check`, our `input-mask-mac`).
//!
//! Run with `cargo test -p brickyard-protocols --features adversary`.
#![cfg(feature = "adversary")]

use brickyard_testkit as common;

use brickyard_circuit::builtin;
use brickyard_core::channel::memory_pair;
use brickyard_core::{Error, Result};
use brickyard_protocols::driver::{run_party, PartyRun, PhaseSet};
use brickyard_protocols::tinytable::cheat::STRATEGIES;
use brickyard_protocols::tinytable::{self, MacScheme, Options, Source, Variant};
use brickyard_protocols::{OutputMode, PartyInputs, Role, RunConfig};
use common::*;

fn run_pair(
    cfg: &RunConfig,
    source: Source,
    variant: Variant,
    mac: &str,
    cheat: Option<(Role, String)>,
    ai: Vec<PartyInputs>,
    bi: Vec<PartyInputs>,
) -> (Result<PartyRun>, Result<PartyRun>) {
    let o = Options {
        variant,
        mac: MacScheme::parse(mac).unwrap(),
        source,
        s: tinytable::security::DEFAULT_S,
        cheat,
    };
    let p = match variant {
        Variant::Binary => "tinytable",
        Variant::Sbox => "tinytable-sbox",
    };
    let (mut ca, mut cb) = memory_pair();
    let (cfg_a, oa) = (cfg.clone(), o.clone());
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
    let rb = tinytable::new_party(Role::Bob, cfg.clone(), o)
        .and_then(|mut b| run_party(p, b.as_mut(), Role::Bob, &mut cb, cfg, &bi, PhaseSet::ALL));
    drop(cb);
    (t.join().unwrap(), rb)
}

/// Runs `strategy` by `cheater` `times` times and checks the honest party.
fn attack(
    cfg: &RunConfig,
    source: Source,
    variant: Variant,
    mac: &str,
    cheater: Role,
    strategy: &str,
    times: usize,
) {
    let mut rng = Rng(0xc4ea7 ^ times as u64);
    for run in 0..times {
        let ai = random_inputs(&mut rng, cfg, Role::Alice, 1);
        let bi = random_inputs(&mut rng, cfg, Role::Bob, 1);
        let (ra, rb) = run_pair(
            cfg,
            source,
            variant,
            mac,
            Some((cheater, strategy.to_string())),
            ai.clone(),
            bi.clone(),
        );
        let honest = if cheater == Role::Alice { rb } else { ra };
        let honest_learns = cheater == Role::Alice || cfg.output == OutputMode::Both;
        let ctx = format!(
            "{source:?} {mac} {}:{strategy} run {run} output {:?}",
            cheater.name(),
            cfg.output
        );
        let sends_outputs = cheater == Role::Alice || cfg.output == OutputMode::Both;
        match strategy {
            "flip-table-bit" | "flip-last-layer" | "flip-and-guess-mac" | "wrong-mac" => {
                match honest {
                    Err(Error::Cheating { check }) => assert_eq!(check, "table-mac", "{ctx}"),
                    other => panic!(
                        "{ctx}: expected table-mac abort, got {:?}",
                        other.map(|r| r.outputs)
                    ),
                }
            }
            "wrong-output-share" if sends_outputs => match honest {
                Err(Error::Cheating { check }) => assert_eq!(check, "output-mac", "{ctx}"),
                other => panic!(
                    "{ctx}: expected output-mac abort, got {:?}",
                    other.map(|r| r.outputs)
                ),
            },
            "prep-flip-beaver-share" | "prep-wrong-input-mask-share" if source == Source::Real => {
                let want = if strategy == "prep-flip-beaver-share" {
                    "mac-check"
                } else {
                    "input-mask-mac"
                };
                match honest {
                    Err(Error::Cheating { check }) => assert_eq!(check, want, "{ctx}"),
                    other => panic!(
                        "{ctx}: expected {want} abort, got {:?}",
                        other.map(|r| r.outputs)
                    ),
                }
            }
            // Dealer tables: the preprocessing strategies have nothing to
            // attack, so the run is honest.
            "wrong-output-share"
            | "wrong-input-mask"
            | "prep-flip-beaver-share"
            | "prep-wrong-input-mask-share" => {
                let (mut a, mut b) = (ai[0].clone(), bi[0].clone());
                if strategy == "wrong-input-mask" {
                    let v = if cheater == Role::Alice {
                        &mut a
                    } else {
                        &mut b
                    };
                    v[0][0] = !v[0][0];
                }
                let want = cfg.circuit.eval(&assemble(cfg, &a, &b)).unwrap();
                let out = honest.unwrap_or_else(|e| panic!("{ctx}: honest party failed: {e}"));
                if honest_learns {
                    assert_eq!(out.outputs[0].as_ref(), Some(&want), "{ctx}");
                }
            }
            other => panic!("untested strategy {other}"),
        }
    }
}

#[test]
fn every_strategy_binary_every_scheme_both_roles() {
    let c = builtin("add16").unwrap();
    for output in [OutputMode::Bob, OutputMode::Both] {
        let mut cfg = cfg_for(c.clone());
        cfg.output = output;
        for mac in ["lookup-32", "lookup-64", "linear-32", "linear-64"] {
            for cheater in [Role::Alice, Role::Bob] {
                for (_, name, _) in STRATEGIES {
                    attack(&cfg, Source::Dealer, Variant::Binary, mac, cheater, name, 6);
                    // Real preprocessing costs a TinyOT setup per run: one
                    // run; it refuses 32-bit MACs (a 2^-32 term).
                    if mac.ends_with("-64") {
                        attack(&cfg, Source::Real, Variant::Binary, mac, cheater, name, 1);
                    }
                }
            }
        }
    }
}

#[test]
fn real_preprocessing_cheats_on_aes_are_caught() {
    let cfg = cfg_for(builtin("aes128").unwrap());
    for (v, mac) in [(Variant::Binary, "lookup-64"), (Variant::Sbox, "linear-64")] {
        for cheater in [Role::Alice, Role::Bob] {
            for name in [
                "prep-flip-beaver-share",
                "prep-wrong-input-mask-share",
                "flip-table-bit",
            ] {
                attack(&cfg, Source::Real, v, mac, cheater, name, 1);
            }
        }
    }
}

#[test]
fn every_strategy_sbox_linear_both_roles() {
    let mut cfg = cfg_for(builtin("aes128").unwrap());
    cfg.output = OutputMode::Both;
    for mac in ["linear-32", "linear-64"] {
        for cheater in [Role::Alice, Role::Bob] {
            for (_, name, _) in STRATEGIES {
                attack(&cfg, Source::Dealer, Variant::Sbox, mac, cheater, name, 2);
                // Real S-box tables cost 49,400 AND triples per AES: one
                // scheme (the MAC derivation of both is unit-tested).
                if mac == "linear-64" {
                    attack(&cfg, Source::Real, Variant::Sbox, mac, cheater, name, 1);
                }
            }
        }
    }
}

#[test]
fn sbox_lookup_mac_catches_a_flipped_table() {
    // The S-box lookup MAC at 64 bits holds ~200 MB per AES per party, so
    // the lookup path is exercised at 32 bits, which only a dealer run
    // accepts (real preprocessing refuses a 2^-32 term).
    let cfg = cfg_for(builtin("aes128").unwrap());
    let source = Source::Dealer;
    attack(
        &cfg,
        source,
        Variant::Sbox,
        "lookup-32",
        Role::Alice,
        "flip-table-bit",
        1,
    );
    attack(
        &cfg,
        source,
        Variant::Sbox,
        "lookup-32",
        Role::Bob,
        "flip-last-layer",
        1,
    );
}

#[test]
fn passive_mode_does_not_detect_a_flip() {
    // The passive row of the tables is semi-honest: a flipped table bit goes
    // through unnoticed, which is exactly why the MACs exist.
    let cfg = cfg_for(builtin("add16").unwrap());
    let mut rng = Rng(5);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (_, rb) = run_pair(
        &cfg,
        Source::Real,
        Variant::Binary,
        "passive",
        Some((Role::Alice, "flip-last-layer".into())),
        ai.clone(),
        bi.clone(),
    );
    let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
    assert_ne!(rb.unwrap().outputs[0].as_ref(), Some(&want));
}

/// A program without tables (only XOR gates) has no table flight to carry
/// the MACs, so `check_tables` exchanges them on their own: a cheater
/// sending a wrong MAC there is caught by that check (the mutation run,
/// docs/testing.md, found no other test reaching it).
#[test]
fn wrong_mac_on_a_linear_program_is_caught() {
    use brickyard_circuit::{Circuit, Gate, Group};
    let xor4 = Circuit {
        num_wires: 12,
        inputs: vec![
            Group {
                name: "a".into(),
                wires: (0..4).collect(),
            },
            Group {
                name: "b".into(),
                wires: (4..8).collect(),
            },
        ],
        outputs: vec![Group {
            name: "out".into(),
            wires: (8..12).collect(),
        }],
        gates: (0..4)
            .map(|i| Gate::Xor {
                a: i,
                b: 4 + i,
                out: 8 + i,
            })
            .collect(),
    };
    let cfg = cfg_for(xor4);
    for mac in ["lookup-32", "linear-64"] {
        for cheater in [Role::Alice, Role::Bob] {
            for name in ["wrong-mac", "flip-and-guess-mac"] {
                attack(&cfg, Source::Dealer, Variant::Binary, mac, cheater, name, 2);
            }
        }
    }
}
