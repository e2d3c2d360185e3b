//! Long-label (256/384-bit) half-gates with compression on the shared
//! Bristol circuits: garble, evaluate, decode by colour bits.

mod common;

use brickyard_circuit::Circuit;
use brickyard_core::Block;
use brickyard_garble::wide::*;
use brickyard_garble::GarblePlan;
use common::*;

fn wide_eval<const L: usize>(c: &Circuit, bits: &[bool], seed: u128) -> Vec<bool> {
    let plan = WidePlan::new(&GarblePlan::new(c).unwrap()).unwrap();
    let mut p = prg(seed);
    let delta = WideDelta::<L>::random(&mut p);
    let comp = Compress::sample(&mut p, 16 * L);
    let zero: Vec<Label<L>> = (0..plan.input_count())
        .map(|_| random_label(&mut p))
        .collect();
    let mut tables = Vec::new();
    let out0 = garble_wide(&plan, &delta, &comp, &zero, 9, &mut tables).unwrap();
    assert_eq!(tables.len(), 2 * plan.and_count());
    let inputs: Vec<Label<L>> = zero
        .iter()
        .zip(bits)
        .map(|(z, &b)| xor(z, &and_bit(delta.label(), b)))
        .collect();
    // Bob, with his own copy of A' as sent.
    let bob = Compress::from_rows(comp.rows(), 16 * L).unwrap();
    let got = evaluate_wide(&plan, &bob, &tables, &inputs, 9).unwrap();
    // Every output label is one of the garbler's two.
    for (g, z) in got.iter().zip(out0.iter()) {
        assert!(g == z || *g == xor(z, delta.label()));
    }
    got.iter()
        .zip(out0.iter())
        .map(|(g, z)| lsb(g) ^ lsb(z))
        .collect()
}

#[test]
fn aes_128_fips_197_vector_256_and_384() {
    let c = load_bristol("aes_128.txt");
    let key = hex("000102030405060708090a0b0c0d0e0f");
    let pt = hex("00112233445566778899aabbccddeeff");
    let bits = [reversed_bits(&key), reversed_bits(&pt)].concat();
    let ct = reversed_bits(&hex("69c4e0d86a7b0430d8cdb78070b4c55a"));
    assert_eq!(wide_eval::<L88>(&c, &bits, 31), ct);
    assert_eq!(wide_eval::<L127>(&c, &bits, 32), ct);
}

#[test]
fn sha256_empty_message_vector_256() {
    let c = load_bristol("sha256.txt");
    let mut block = vec![0u8; 64];
    block[0] = 0x80;
    let iv = hex("6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19");
    let bits = [reversed_bits(&block), reversed_bits(&iv)].concat();
    let digest = reversed_bits(&hex(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ));
    assert_eq!(wide_eval::<L88>(&c, &bits, 33), digest);
}

#[test]
fn random_circuits_match_plaintext() {
    let mut p = prg(34);
    for i in 0..30 {
        let c = random_circuit(&mut p, 3, 200);
        let bits = p.random_bits(c.inputs.iter().map(|g| g.width()).sum());
        assert_eq!(
            wide_eval::<L88>(&c, &bits, 40 + i),
            eval_plain(&c, &bits),
            "circuit {i}"
        );
    }
}

#[test]
fn wrong_tables_and_inputs_are_errors_not_panics() {
    let c = load_bristol("aes_128.txt");
    let plan = WidePlan::new(&GarblePlan::new(&c).unwrap()).unwrap();
    let mut p = prg(35);
    let comp = Compress::sample(&mut p, 32);
    let inputs = vec![[Block::ZERO; 2]; plan.input_count()];
    let short = vec![[Block::ZERO; 2]; 2 * plan.and_count() - 1];
    assert!(matches!(
        evaluate_wide(&plan, &comp, &short, &inputs, 0),
        Err(brickyard_core::Error::Malformed(_))
    ));
    let tables = vec![[Block::ZERO; 2]; 2 * plan.and_count()];
    assert!(evaluate_wide(&plan, &comp, &tables, &inputs[1..], 0).is_err());
    // A matrix for 384-bit labels does not fit 256-bit ones.
    let c3 = Compress::sample(&mut p, 48);
    assert!(evaluate_wide(&plan, &c3, &tables, &inputs, 0).is_err());
}

#[test]
fn batches_are_wide_on_aes() {
    // AES-128's 40 AND layers of 160 ANDs: the re-cut batches hold several
    // of the plan's 8-AND stages (234 batches, ~27 ANDs each, when written).
    let c = load_bristol("aes_128.txt");
    let plan = WidePlan::new(&GarblePlan::new(&c).unwrap()).unwrap();
    assert!(
        plan.and_count() >= 20 * plan.batch_count(),
        "{} batches",
        plan.batch_count()
    );
}
