//! CompGC end to end: every generated function equals the plaintext
//! evaluation of its composed circuit (and of the circuit library's own
//! monolithic circuit), and random compositions of random components do too.

use brickyard_testkit as common;

use brickyard_circuit::{builtin, format_value, parse_value, ValueFormat};
use brickyard_core::channel::memory_pair;
use brickyard_protocols::compgc::spec::*;
use brickyard_protocols::compgc::{self, CompgcParams, ComponentType, Function};
use brickyard_protocols::driver::{run_local, LocalNet, LocalRun};
use brickyard_protocols::{OutputMode, PartyInputs, Role, RunConfig};
use common::{assemble, random_circuit, random_inputs, Rng};
use std::sync::Arc;

fn run(
    f: &Arc<Function>,
    cfg: &RunConfig,
    a: Vec<PartyInputs>,
    b: Vec<PartyInputs>,
) -> brickyard_core::Result<LocalRun> {
    let params = CompgcParams {
        function: Some(f.clone()),
        ..Default::default()
    };
    let (ca, cb) = memory_pair();
    run_local(
        "compgc",
        &f.name,
        compgc::new_party(Role::Alice, cfg.clone(), params.clone())?,
        compgc::new_party(Role::Bob, cfg.clone(), params)?,
        cfg,
        a,
        b,
        LocalNet {
            alice: ca,
            bob: cb,
            name: "memory".into(),
        },
    )
}

/// Runs `e` executions on random inputs and checks Bob's (and, with
/// `both`, Alice's) outputs against the flattened circuit.
fn check_random(f: Function, rng: &mut Rng, e: usize, both: bool) {
    let f = Arc::new(f);
    let mut cfg = f.run_config().unwrap();
    cfg.executions = e;
    if both {
        cfg.output = OutputMode::Both;
    }
    let a = random_inputs(rng, &cfg, Role::Alice, e);
    let b = random_inputs(rng, &cfg, Role::Bob, e);
    let out = run(&f, &cfg, a.clone(), b.clone()).unwrap();
    for x in 0..e {
        let want = cfg.circuit.eval(&assemble(&cfg, &a[x], &b[x])).unwrap();
        assert_eq!(out.bob_outputs[x], want, "execution {x}");
        if both {
            assert_eq!(out.alice_outputs.as_ref().unwrap()[x], want);
        }
    }
}

#[test]
fn aes_from_round_components_matches_fips197() {
    let f = compgc::resolve_function("builtin:aes128").unwrap().unwrap();
    assert_eq!(f.instances(), 11);
    let f = Arc::new(f);
    let cfg = f.run_config().unwrap();
    let key = parse_value("0x000102030405060708090a0b0c0d0e0f", 128).unwrap();
    let pt = parse_value("0x00112233445566778899aabbccddeeff", 128).unwrap();
    let want = "0x69c4e0d86a7b0430d8cdb78070b4c55a";
    // The composed circuit and the library's monolithic AES agree.
    let flat = cfg.circuit.eval(&[key.clone(), pt.clone()]).unwrap();
    assert_eq!(format_value(&flat[0], ValueFormat::Hex), want);
    let out = run(&f, &cfg, vec![vec![key]], vec![vec![pt]]).unwrap();
    assert_eq!(format_value(&out.bob_outputs[0][0], ValueFormat::Hex), want);
    // Online, Bob receives one label per linked wire, per garbler input wire
    // and two per OT: far less than the tables.
    let online = &out.report.phases[3];
    let labels = 10 * 128 + 11 * 128 + 2 * 128;
    assert!(
        online.bytes_alice_to_bob < 16 * labels as u64 + 200,
        "{online:?}"
    );
}

#[test]
fn cbc_composition_equals_the_library_circuit() {
    let mut rng = Rng(7);
    let f = Function::new(&compgc::aes_cbc_spec(3), &[]).unwrap();
    assert_eq!(f.instances(), 33);
    let flat = f.flatten().unwrap();
    let lib = builtin("aes128-cbc:3").unwrap();
    for _ in 0..3 {
        let ins = vec![rng.bits(128), rng.bits(384)];
        assert_eq!(flat.eval(&ins).unwrap(), lib.eval(&ins).unwrap());
    }
    check_random(f, &mut rng, 2, true);
}

/// The textbook DP, for comparison.
fn levenshtein(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, y) in b.iter().enumerate() {
            let v = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(row[j] + 1);
            row.push(v);
        }
        prev = row;
    }
    prev[b.len()]
}

fn string_bits(s: &[u8]) -> Vec<bool> {
    // REVERSED byte order: symbol i is byte i of the hex value.
    let hex: String = s.iter().map(|c| format!("{c:02x}")).collect();
    parse_value(&format!("0x{hex}"), 8 * s.len()).unwrap()
}

#[test]
fn levenshtein_from_cells_matches_the_dp() {
    let l = 5;
    let f = Arc::new(
        compgc::resolve_function("builtin:levenshtein:5")
            .unwrap()
            .unwrap(),
    );
    assert_eq!(f.instances(), 25);
    let cfg = f.run_config().unwrap();
    let lib = builtin("levenshtein:5").unwrap();
    let pairs: [(&[u8], &[u8]); 3] = [
        (b"kitte", b"sitti"),
        (b"aaaaa", b"bbbbb"),
        (b"abcde", b"abcde"),
    ];
    let (mut a_in, mut b_in, mut want) = (vec![], vec![], vec![]);
    for (x, y) in pairs {
        assert_eq!(x.len(), l);
        let ins = vec![string_bits(x), string_bits(y)];
        let d = levenshtein(x, y);
        let flat = cfg.circuit.eval(&ins).unwrap();
        assert_eq!(flat, lib.eval(&ins).unwrap());
        let v = flat[0]
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &b)| acc | (usize::from(b) << k));
        assert_eq!(v, d, "{x:?} {y:?}");
        a_in.push(vec![ins[0].clone()]);
        b_in.push(vec![ins[1].clone()]);
        want.push(flat);
    }
    let mut cfg = cfg;
    cfg.executions = 3;
    let out = run(&f, &cfg, a_in, b_in).unwrap();
    assert_eq!(out.bob_outputs, want);
}

/// A random function: `n` instances of a few random component types, each
/// input wire fed by a party bit, a constant, or a CHAIN from an earlier
/// component, in random ranges.
fn random_function(rng: &mut Rng) -> Function {
    let n_types = 1 + rng.below(3);
    let types: Vec<ComponentType> = (0..n_types)
        .map(|t| {
            let (gr, ga, ou) = (1 + rng.below(3), 5 + rng.below(40), 1 + rng.below(3));
            let c = random_circuit(rng, gr, ga, ou);
            ComponentType::from_circuit(&format!("r{t}"), c).unwrap()
        })
        .collect();
    let n = 2 + rng.below(6);
    let ty: Vec<usize> = (0..n).map(|_| rng.below(n_types)).collect();
    // Instances are numbered per `components` entry: one entry per instance.
    let components = ty
        .iter()
        .map(|&t| ComponentEntry {
            kind: format!("r{t}"),
            num: 1,
        })
        .collect();
    let (g_in, e_in) = (1 + rng.below(10), 1 + rng.below(10));
    let mut spec = SpecFile {
        metadata: Metadata {
            name: "random".into(),
            garbler_inputs: g_in,
            evaluator_inputs: e_in,
            outputs: 0,
            garbler_transform: None,
        },
        components,
        inputs: vec![],
        input_mapping: vec![],
        constants: vec![],
        instructions: vec![],
        output: vec![],
    };
    for g in 0..n {
        let t = &types[ty[g]];
        let mut w = 0;
        while w < t.inputs() {
            let len = (1 + rng.below(4)).min(t.inputs() - w);
            match rng.below(if g == 0 { 2 } else { 3 }) {
                0 => {
                    let len = len.min(g_in + e_in);
                    let start = rng.below(g_in + e_in - len + 1);
                    spec.input_mapping.push(InputMap {
                        start_input_idx: start,
                        end_input_idx: start + len - 1,
                        gc_id: g,
                        start_wire_idx: w,
                        end_wire_idx: w + len - 1,
                    });
                    w += len;
                    continue;
                }
                1 => spec.constants.push(ConstMap {
                    value: rng
                        .bits(len)
                        .iter()
                        .map(|&b| if b { '1' } else { '0' })
                        .collect(),
                    gc_id: g,
                    start_wire_idx: w,
                    end_wire_idx: w + len - 1,
                }),
                _ => {
                    let from = rng.below(g);
                    let outs = types[ty[from]].outputs();
                    let len = len.min(outs);
                    let fw = rng.below(outs - len + 1);
                    spec.instructions.push(Instruction::Chain {
                        from_gc_id: from,
                        from_wire_id_start: fw,
                        from_wire_id_end: fw + len - 1,
                        to_gc_id: g,
                        to_wire_id_start: w,
                        to_wire_id_end: w + len - 1,
                    });
                    w += len;
                    continue;
                }
            }
            w += len;
        }
        spec.instructions.push(Instruction::Eval { gc_id: g });
    }
    for i in 0..1 + rng.below(3) {
        let g = rng.below(n);
        let outs = types[ty[g]].outputs();
        let s = rng.below(outs);
        let e = s + rng.below(outs - s);
        spec.output.push(OutputMap {
            name: Some(format!("o{i}")),
            gc_id: g,
            start_wire_idx: s,
            end_wire_idx: e,
        });
        spec.metadata.outputs += e - s + 1;
    }
    Function::new(&spec, &types).unwrap()
}

#[test]
fn random_compositions_of_random_components() {
    let mut rng = Rng(0xc0de);
    for i in 0..25 {
        let f = random_function(&mut rng);
        check_random(f, &mut rng, 1 + i % 2, i % 3 == 0);
    }
}

#[test]
fn any_circuit_runs_as_one_component_through_the_registry() {
    let mut rng = Rng(99);
    let mut cfg = common::cfg_for(builtin("add16").unwrap());
    cfg.executions = 2;
    let a = random_inputs(&mut rng, &cfg, Role::Alice, 2);
    let b = random_inputs(&mut rng, &cfg, Role::Bob, 2);
    let out = common::run_memory("compgc", &cfg, a.clone(), b.clone()).unwrap();
    for x in 0..2 {
        assert_eq!(
            out.bob_outputs[x],
            cfg.circuit.eval(&assemble(&cfg, &a[x], &b[x])).unwrap()
        );
    }
}

#[test]
fn parties_with_different_specs_refuse_to_run() {
    let f1 = Arc::new(Function::new(&compgc::aes_cbc_spec(1), &[]).unwrap());
    let mut spec = compgc::aes_cbc_spec(1);
    spec.metadata.name = "renamed".into();
    let f2 = Arc::new(Function::new(&spec, &[]).unwrap());
    let cfg = f1.run_config().unwrap();
    let p = |f: &Arc<Function>| CompgcParams {
        function: Some(f.clone()),
        ..Default::default()
    };
    let (ca, cb) = memory_pair();
    let r = run_local(
        "compgc",
        "x",
        compgc::new_party(Role::Alice, cfg.clone(), p(&f1)).unwrap(),
        compgc::new_party(Role::Bob, cfg.clone(), p(&f2)).unwrap(),
        &cfg,
        vec![vec![vec![false; 128]]],
        vec![vec![vec![false; 128]]],
        LocalNet {
            alice: ca,
            bob: cb,
            name: "memory".into(),
        },
    );
    assert!(matches!(r, Err(brickyard_core::Error::Config(m)) if m.contains("different function")));
}
