//! `evaluate_many` (several garblings of one plan) and
//! `evaluate_many_side_by_side` (interleaved a stage at a time, on every
//! CPU) give exactly the labels `evaluate` gives on each, in every plan
//! form (compact with folds, π-cached, dense), and reject bad lengths.

mod common;

use brickyard_circuit::Circuit;
use brickyard_core::Block;
use brickyard_garble::*;
use common::*;

/// Garbles `copies` times (different Δ, labels and tweak offsets), then
/// checks `evaluate_many` against `evaluate` label for label, and the
/// decoded outputs against the plaintext.
fn check(c: &Circuit, plan: &GarblePlan, copies: usize, seed: u128, keep: Keep) {
    let mut p = prg(seed);
    let mut made = Vec::new();
    for k in 0..copies {
        let mut g = Garbler::from_prg(prg(seed * 100 + k as u128));
        let (gc, out, zero) = g.garble(plan, k as u64 * 7, keep).unwrap();
        let bits = p.random_bits(c.input_width());
        let labels = g.encode(&zero, &bits).unwrap();
        made.push((gc, out, labels, bits));
    }
    let jobs: Vec<(&GarbledCircuit, &[Block])> =
        made.iter().map(|(gc, _, l, _)| (gc, &l[..])).collect();
    let many = evaluate_many(plan, &jobs, keep).unwrap();
    let lanes = evaluate_many_side_by_side(plan, &jobs, keep).unwrap();
    assert_eq!(many.len(), copies);
    assert_eq!(lanes.len(), copies);
    let both = made.iter().zip(&many).chain(made.iter().zip(&lanes));
    for ((gc, out, labels, bits), got) in both {
        let one = evaluate(plan, gc, labels, keep).unwrap();
        assert_eq!(got.output_labels, one.output_labels);
        assert_eq!(
            got.wire_labels.as_ref().map(|v| v.to_vec()),
            one.wire_labels.as_ref().map(|v| v.to_vec())
        );
        let bits_out = decode(&got.output_labels, &out.decoding()).unwrap();
        assert_eq!(bits_out, eval_plain(c, bits));
    }
}

#[test]
fn many_equals_one_at_a_time_on_random_circuits() {
    let mut p = prg(11);
    for round in 0..24 {
        let gates = [1, 5, 40, 300][round % 4];
        let c = random_circuit(&mut p, 1 + round % 3, gates);
        let copies = 1 + round % 7;
        check(
            &c,
            &GarblePlan::new(&c).unwrap(),
            copies,
            round as u128,
            Keep::Outputs,
        );
        check(
            &c,
            &GarblePlan::new(&c).unwrap(),
            copies,
            round as u128,
            Keep::AllWires,
        );
        check(
            &c,
            &GarblePlan::new_pi_cached(&c).unwrap(),
            copies,
            round as u128,
            Keep::Outputs,
        );
    }
}

#[test]
fn many_equals_one_at_a_time_on_aes_and_sha() {
    for name in ["aes_128.txt", "sha256.txt"] {
        let c = load_bristol(name);
        check(&c, &GarblePlan::new(&c).unwrap(), 3, 5, Keep::Outputs);
        check(
            &c,
            &GarblePlan::new_pi_cached(&c).unwrap(),
            2,
            6,
            Keep::Outputs,
        );
    }
}

#[test]
fn bad_lengths_are_malformed() {
    let mut p = prg(12);
    let c = random_circuit(&mut p, 2, 60);
    let plan = GarblePlan::new(&c).unwrap();
    let mut g = Garbler::from_prg(prg(13));
    let (gc, _, zero) = g.garble(&plan, 0, Keep::Outputs).unwrap();
    let labels = g.encode(&zero, &p.random_bits(c.input_width())).unwrap();
    let mut short = gc.clone();
    short.tables.pop();
    for jobs in [
        vec![(&gc, &labels[..]), (&short, &labels[..])],
        vec![(&gc, &labels[..labels.len() - 1])],
    ] {
        let r = evaluate_many(&plan, &jobs, Keep::Outputs);
        assert!(
            matches!(r, Err(brickyard_core::Error::Malformed(_))),
            "expected Malformed"
        );
    }
    assert!(evaluate_many(&plan, &[], Keep::Outputs).unwrap().is_empty());
}
