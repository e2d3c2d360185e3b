//! The shared Bristol Fashion circuits, garbled and evaluated, against
//! published test vectors and the plaintext evaluator.

mod common;

use brickyard_circuit::Circuit;
use brickyard_garble::*;
use common::*;

fn garbled_eval(c: &Circuit, bits: &[bool], seed: u128) -> Vec<bool> {
    let plan = GarblePlan::new(c).unwrap();
    let mut g = Garbler::from_prg(prg(seed));
    let (gc, out, zero) = g.garble(&plan, seed as u64, Keep::Outputs).unwrap();
    let res = evaluate(&plan, &gc, &g.encode(&zero, bits).unwrap(), Keep::Outputs).unwrap();
    decode(&res.output_labels, &out.decoding()).unwrap()
}

#[test]
fn aes_128_fips_197_vector() {
    let c = load_bristol("aes_128.txt");
    assert_eq!(c.and_count(), 6400);
    let key = hex("000102030405060708090a0b0c0d0e0f");
    let pt = hex("00112233445566778899aabbccddeeff");
    let bits = [reversed_bits(&key), reversed_bits(&pt)].concat();
    let ct = reversed_bits(&hex("69c4e0d86a7b0430d8cdb78070b4c55a"));
    assert_eq!(eval_plain(&c, &bits), ct, "test evaluator broken");
    assert_eq!(
        eval_reference(&c, &bits),
        ct,
        "circuit crate evaluator disagrees"
    );
    assert_eq!(garbled_eval(&c, &bits, 11), ct);
}

#[test]
fn aes_128_random_inputs_match_plaintext() {
    let c = load_bristol("aes_128.txt");
    let mut p = prg(12);
    for i in 0..3 {
        let bits = p.random_bits(256);
        assert_eq!(garbled_eval(&c, &bits, 100 + i), eval_reference(&c, &bits));
    }
}

#[test]
fn sha256_empty_message_vector() {
    let c = load_bristol("sha256.txt");
    let mut block = vec![0u8; 64];
    block[0] = 0x80;
    let iv = hex("6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19");
    let bits = [reversed_bits(&block), reversed_bits(&iv)].concat();
    let digest = reversed_bits(&hex(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ));
    assert_eq!(garbled_eval(&c, &bits, 13), digest);
}

#[test]
fn arithmetic_circuits_match_plaintext() {
    let mut p = prg(14);
    for name in [
        "adder64.txt",
        "mult64.txt",
        "zero_equal.txt",
        "udivide64.txt",
    ] {
        let c = load_bristol(name);
        let bits = p.random_bits(c.input_width());
        assert_eq!(garbled_eval(&c, &bits, 15), eval_plain(&c, &bits), "{name}");
    }
}

/// The compact layout fuses XOR chains into 3-input gates, reorders XORs
/// within a step and reuses slots; the dense one does none of that. Both
/// must give the same tables and output labels bit for bit (the hash sees
/// only labels and tweaks), which checks the fusion on real circuits.
#[test]
fn compact_and_dense_layouts_garble_identically() {
    for (name, seed) in [("aes_128.txt", 21u128), ("sha256.txt", 22)] {
        let c = load_bristol(name);
        let plan = GarblePlan::new(&c).unwrap();
        let mut g = Garbler::from_prg(prg(seed));
        let zero = g.input_zero_labels(&plan);
        let d = g.delta().clone();
        let (gc, out) = garble(&plan, &d, &zero, 5, Keep::Outputs).unwrap();
        let (gd, outd) = garble(&plan, &d, &zero, 5, Keep::AllWires).unwrap();
        assert_eq!(gc, gd, "{name}: tables");
        assert_eq!(*out.output_zero_labels, *outd.output_zero_labels, "{name}");
        let bits = prg(seed + 1).random_bits(zero.len());
        let labels = g.encode(&zero, &bits).unwrap();
        let ec = evaluate(&plan, &gc, &labels, Keep::Outputs).unwrap();
        let ed = evaluate(&plan, &gc, &labels, Keep::AllWires).unwrap();
        assert_eq!(ec.output_labels, ed.output_labels, "{name}: evaluation");
        let got = decode(&ec.output_labels, &out.decoding()).unwrap();
        assert_eq!(got, eval_reference(&c, &bits), "{name}: plaintext");
    }
}
