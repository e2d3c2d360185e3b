//! `lego` end to end against the plaintext evaluator.

use brickyard_testkit as common;

use brickyard_protocols::lego::{LegoAlice, LegoBob, LegoOptions, Objective};
use brickyard_protocols::{driver, LocalNet, OutputMode, Role};
use common::*;

#[test]
fn random_circuits_match_the_evaluator() {
    let mut rng = Rng(0x1e90);
    for round in 0..6 {
        let (g, o) = (1 + rng.below(120), 1 + rng.below(3));
        let c = random_circuit(&mut rng, 2, g, o);
        let mut cfg = cfg_for(c);
        cfg.executions = 1 + rng.below(3);
        let e = cfg.executions;
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, e);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, e);
        let run = run_memory("lego", &cfg, ai.clone(), bi.clone()).unwrap();
        for x in 0..e {
            let want = cfg.circuit.eval(&assemble(&cfg, &ai[x], &bi[x])).unwrap();
            assert_eq!(run.bob_outputs[x], want, "round {round} execution {x}");
        }
        assert!(run.alice_outputs.is_none());
        // The online phase is Bob's corrections and one flight back.
        let online = &run.report.phases[3];
        assert!(online.bytes_bob_to_alice > 0 && online.bytes_alice_to_bob > 0);
    }
}

#[test]
fn build_of_many_copies_is_one_flight() {
    // Build plans f once and opens every copy's solderings in one batch
    // opening: the dependent phase has as many rounds for 5 copies as for
    // 1; the 4 extra copies add the same bytes each, and the one check
    // combination is shared.
    let mut rng = Rng(0xb0);
    let c = random_circuit(&mut rng, 2, 80, 2);
    let mut dep = Vec::new();
    for e in [1, 5] {
        let mut cfg = cfg_for(c.clone());
        cfg.executions = e;
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, e);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, e);
        let run = run_memory("lego", &cfg, ai.clone(), bi.clone()).unwrap();
        for x in 0..e {
            let want = cfg.circuit.eval(&assemble(&cfg, &ai[x], &bi[x])).unwrap();
            assert_eq!(run.bob_outputs[x], want, "E = {e}, execution {x}");
        }
        dep.push(run.report.phases[2].clone());
    }
    assert_eq!(dep[0].rounds, dep[1].rounds, "{dep:?}");
    let (one, five) = (dep[0].bytes_alice_to_bob, dep[1].bytes_alice_to_bob);
    assert!(five > one && (five - one) % 4 == 0, "{dep:?}");
    assert!(five < 5 * one, "{dep:?}");
}

#[test]
fn the_report_breaks_setup_and_generate_into_their_steps() {
    // Both parties name the steps of Setup and Generate; each step's time
    // is within its phase's, and the first execution is reported.
    let mut rng = Rng(0xb1);
    let c = random_circuit(&mut rng, 2, 40, 2);
    let cfg = cfg_for(c);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let r = run_memory("lego", &cfg, ai, bi).unwrap().report;
    let names = |phase: &str, party: &str| -> Vec<String> {
        r.steps
            .iter()
            .filter(|s| s.phase == phase && s.party == party)
            .map(|s| s.name.clone())
            .collect()
    };
    for party in ["alice", "bob"] {
        assert_eq!(
            names("setup", party),
            ["base OTs (commitments and delta-ROT)"],
            "{:?}",
            r.steps
        );
        let gen = names("independent", party);
        for want in [
            "1 parameters (Theorem 2)",
            "2 delta-ROT extension",
            "4 commitment checks",
            "5-7 VerLeak",
            "8-10 cut-and-choose",
            "11-12 bucketing, solderings",
        ] {
            assert!(gen.iter().any(|g| g == want), "{party}: {want} in {gen:?}");
        }
    }
    assert!(names("independent", "alice").contains(&"3 garble gates".to_string()));
    for s in &r.steps {
        let phase = r.phases.iter().find(|p| p.name == s.phase).unwrap();
        assert!(
            s.wall_ms >= 0.0 && s.wall_ms <= phase.wall_ms + 1e-6,
            "{s:?} within {phase:?}"
        );
    }
    assert!(r.online.first_ms > 0.0 && r.online.first_ms == r.online.latency_ms);
}

#[test]
fn layers_shared_between_two_threads_give_the_same_outputs() {
    let mut rng = Rng(0x7ea);
    for round in 0..4 {
        let gates = 60 + rng.below(100);
        let c = random_circuit(&mut rng, 2, gates, 2);
        let cfg = cfg_for(c);
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
        let (a, b) = brickyard_core::channel::memory_pair();
        let run = driver::run_local(
            "lego",
            "random",
            Box::new(LegoAlice::new(cfg.clone()).unwrap()),
            // Every layer with a gate is shared with the helper thread.
            Box::new(LegoBob::new(cfg.clone()).unwrap().eval_threads(2, 1)),
            &cfg,
            ai.clone(),
            bi.clone(),
            LocalNet {
                alice: a,
                bob: b,
                name: "memory".into(),
            },
        )
        .unwrap();
        let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
        assert_eq!(run.bob_outputs[0], want, "round {round}");
    }
}

#[test]
fn aes128_fips197() {
    let c = brickyard_circuit::builtin("aes128").unwrap();
    let cfg = cfg_for(c);
    let mut rng = Rng(7);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let run = run_memory("lego", &cfg, ai.clone(), bi.clone()).unwrap();
    let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
    assert_eq!(run.bob_outputs[0], want);
}

/// DES (`builtin:des`: key from Alice, block from Bob) on FIPS 46-3's
/// worked example.
#[test]
fn des_known_answer() {
    let c = brickyard_circuit::builtin("des").unwrap();
    let cfg = cfg_for(c);
    let v = |h: &str| brickyard_circuit::parse_value(h, 64).unwrap();
    let ai = vec![vec![v("0x133457799bbcdff1")]];
    let bi = vec![vec![v("0x0123456789abcdef")]];
    let run = run_memory("lego", &cfg, ai, bi).unwrap();
    assert_eq!(run.bob_outputs[0], vec![v("0x85e813540f0ab405")]);
}

#[test]
fn both_output_mode_and_exhaustion_are_refused() {
    let mut rng = Rng(3);
    let c = random_circuit(&mut rng, 2, 10, 1);
    let mut cfg = cfg_for(c);
    cfg.output = OutputMode::Both;
    assert!(LegoAlice::new(cfg.clone()).is_err());
    assert!(LegoBob::new(cfg).is_err());
}

#[test]
fn bucket_size_objective_runs_too() {
    let mut rng = Rng(11);
    let c = random_circuit(&mut rng, 2, 40, 2);
    let cfg = cfg_for(c);
    let opts = LegoOptions {
        objective: Objective::BucketSize,
        ..Default::default()
    };
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let (a, b) = brickyard_core::channel::memory_pair();
    let run = driver::run_local(
        "lego",
        "random",
        Box::new(LegoAlice::with_options(cfg.clone(), opts).unwrap()),
        Box::new(LegoBob::with_options(cfg.clone(), opts).unwrap()),
        &cfg,
        ai.clone(),
        bi.clone(),
        LocalNet {
            alice: a,
            bob: b,
            name: "memory".into(),
        },
    )
    .unwrap();
    let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
    assert_eq!(run.bob_outputs[0], want);
}

#[test]
fn sha256_with_rebased_xor_sets() {
    // SHA-256's adders grow long XOR sets (Build's openings run on
    // per-wire registers; only output cones keep sets); the output must
    // not change.
    let c = brickyard_circuit::builtin("sha256").unwrap();
    let cfg = cfg_for(c);
    let mut rng = Rng(256);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let run = run_memory("lego", &cfg, ai.clone(), bi.clone()).unwrap();
    let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
    assert_eq!(run.bob_outputs[0], want);
}

/// Inputs 0..80 (two groups of 40), one AND of wires 0 and 40 (wire 80),
/// and a chain XORing all 80 inputs (wires 81..160, the last is 159).
fn xor_chain(outputs: Vec<u32>) -> brickyard_circuit::Circuit {
    use brickyard_circuit::{Circuit, Gate, Group};
    let mut gates = vec![Gate::And {
        a: 0,
        b: 40,
        out: 80,
    }];
    let mut acc = 0;
    for (k, w) in (1..80).enumerate() {
        let out = 81 + k as u32;
        gates.push(Gate::Xor { a: acc, b: w, out });
        acc = out;
    }
    Circuit {
        num_wires: 81 + 79,
        inputs: vec![
            Group {
                name: "a".into(),
                wires: (0..40).collect(),
            },
            Group {
                name: "b".into(),
                wires: (40..80).collect(),
            },
        ],
        outputs: vec![Group {
            name: "out".into(),
            wires: outputs,
        }],
        gates,
    }
}

#[test]
fn an_output_cone_past_max_set_is_rebased_once() {
    // The chain's set reaches 65 input heads > build::MAX_SET: Build
    // re-bases it once (one more 16-byte soldering) when it is an output,
    // and forms no set for it when it is not.
    let mut bytes = Vec::new();
    for outputs in [vec![159, 80], vec![80, 0]] {
        let cfg = cfg_for(xor_chain(outputs));
        let mut rng = Rng(65);
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
        let run = run_memory("lego", &cfg, ai.clone(), bi.clone()).unwrap();
        let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
        assert_eq!(run.bob_outputs[0], want);
        bytes.push(run.report.phases[2].bytes_alice_to_bob);
    }
    assert_eq!(bytes[0], bytes[1] + 16, "{bytes:?}");
}

fn run_with_s(
    cfg: &brickyard_protocols::RunConfig,
    s: (u32, u32),
    ai: Vec<brickyard_protocols::PartyInputs>,
    bi: Vec<brickyard_protocols::PartyInputs>,
) -> brickyard_core::Result<driver::LocalRun> {
    let opts = |s| LegoOptions {
        s,
        ..Default::default()
    };
    let (a, b) = brickyard_core::channel::memory_pair();
    driver::run_local(
        "lego",
        "random",
        Box::new(LegoAlice::with_options(cfg.clone(), opts(s.0))?),
        Box::new(LegoBob::with_options(cfg.clone(), opts(s.1))?),
        cfg,
        ai,
        bi,
        LocalNet {
            alice: a,
            bob: b,
            name: "memory".into(),
        },
    )
}

#[test]
fn s_41_runs_every_component_at_44_and_parties_must_agree_on_s() {
    // What each component gets is tested in `lego::security::tests`; here
    // a whole run at s = 41 (code [317, 128, 45], 44 VerLeak
    // combinations and spare Δ-ROTs, 172 Δ-ROT columns) gives the right
    // output, two parties with different s stop at the run agreement, and
    // an s the commitment rows cannot hold (84: the code of s + 3 = 87
    // has N = 455 > 448) is refused before anything runs.
    let mut rng = Rng(41);
    let c = random_circuit(&mut rng, 2, 30, 2);
    let cfg = cfg_for(c);
    let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
    let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
    let run = run_with_s(&cfg, (41, 41), ai.clone(), bi.clone()).unwrap();
    let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
    assert_eq!(run.bob_outputs[0], want);
    match run_with_s(&cfg, (40, 41), ai.clone(), bi.clone()) {
        Err(brickyard_core::Error::Config(m)) => assert!(m.contains("security parameters"), "{m}"),
        Err(e) => panic!("expected the run agreement to refuse, got {e}"),
        Ok(_) => panic!("parties with different s must not run"),
    }
    let err = run_with_s(&cfg, (84, 84), ai, bi)
        .err()
        .expect("s = 84 is refused");
    assert!(matches!(err, brickyard_core::Error::Config(_)), "{err}");
}

#[test]
fn s_64_and_80_run_with_commitment_rows_that_follow_the_code() {
    // #24.5: the commitment code of s + 3 outgrows the 320 bits s = 40
    // needs (s = 64: [398, 128, 73]; s = 80: [437, 128, 85]); a whole run
    // at each gives the right output.
    // Theorem 2 at s + 3 needs enough AND gates for some β ≤ 32 (q = 5
    // reaches no 2^-67): ~300 gates.
    for s in [64u32, 80] {
        let mut rng = Rng(u64::from(s));
        let c = random_circuit(&mut rng, 4, 300, 2);
        let cfg = cfg_for(c);
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, 1);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, 1);
        let run = run_with_s(&cfg, (s, s), ai.clone(), bi.clone())
            .unwrap_or_else(|e| panic!("s = {s}: {e}"));
        let want = cfg.circuit.eval(&assemble(&cfg, &ai[0], &bi[0])).unwrap();
        assert_eq!(run.bob_outputs[0], want, "s = {s}");
    }
}
