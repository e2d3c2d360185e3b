//! The π cache (`GarblePlan::new_pi_cached` vs `GarblePlan::new`) is an
//! optimisation only: the same Δ, input labels and tweak offset give the
//! same tables and the same labels, bit for bit, in both layouts.

mod common;

use brickyard_circuit::Circuit;
use brickyard_garble::*;
use common::*;

fn same_garbling(c: &Circuit, seed: u128) -> (usize, usize) {
    let cached = GarblePlan::new_pi_cached(c).unwrap();
    let plain = GarblePlan::new(c).unwrap();
    assert_eq!(plain.pi_cache_use(), (0, 0));
    let mut p = prg(seed);
    let bits = p.random_bits(c.input_width());
    for keep in [Keep::Outputs, Keep::AllWires] {
        let mut g = Garbler::from_prg(prg(seed));
        let zero = g.input_zero_labels(&cached);
        let d = g.delta().clone();
        let (gc1, o1) = garble(&cached, &d, &zero, seed as u64, keep).unwrap();
        let (gc2, o2) = garble(&plain, &d, &zero, seed as u64, keep).unwrap();
        assert_eq!(gc1, gc2, "tables differ ({keep:?})");
        assert_eq!(*o1.output_zero_labels, *o2.output_zero_labels);
        assert_eq!(
            o1.wire_zero_labels.as_deref(),
            o2.wire_zero_labels.as_deref()
        );
        let labels = g.encode(&zero, &bits).unwrap();
        let e1 = evaluate(&cached, &gc1, &labels, keep).unwrap();
        let e2 = evaluate(&plain, &gc2, &labels, keep).unwrap();
        assert_eq!(e1.output_labels, e2.output_labels);
        assert_eq!(e1.wire_labels.as_deref(), e2.wire_labels.as_deref());
        assert_eq!(
            decode(&e1.output_labels, &o1.decoding()).unwrap(),
            eval_plain(c, &bits)
        );
    }
    cached.pi_cache_use()
}

#[test]
fn random_circuits_give_identical_tables() {
    let mut p = prg(41);
    let mut used = 0;
    for round in 0..40 {
        let gates = [1, 5, 40, 300, 2000][round % 5];
        let c = random_circuit(&mut p, 1 + round % 3, gates);
        used += same_garbling(&c, 100 + round as u128).0;
    }
    assert!(used > 0, "no random circuit exercised the π cache");
}

#[test]
fn shared_circuits_give_identical_tables() {
    let (batches, jobs) = same_garbling(&load_bristol("aes_128.txt"), 7);
    // AES-128: 7 200 distinct AND-input values for 12 800 reads.
    assert!(
        batches > 0 && jobs < 12_800,
        "{batches} batches, {jobs} jobs"
    );
    same_garbling(&load_bristol("sha256.txt"), 8);
    same_garbling(&load_bristol("adder64.txt"), 9);
}
