//! Wrong inputs from the peer give typed errors, and wrong keys give wrong
//! or rejected outputs (each assertion here fails if garbling ignored the
//! thing being tampered with).

mod common;

use brickyard_core::channel::memory_pair;
use brickyard_core::{Block, Error};
use brickyard_garble::*;
use common::*;

struct Setup {
    c: brickyard_circuit::Circuit,
    plan: GarblePlan,
    g: Garbler,
    gc: GarbledCircuit,
    out: GarbleOutput,
    zero: Vec<Block>,
    bits: Vec<bool>,
}

fn setup(seed: u128) -> Setup {
    let c = load_bristol("aes_128.txt");
    let plan = GarblePlan::new(&c).unwrap();
    let mut g = Garbler::from_prg(prg(seed));
    let (gc, out, zero) = g.garble(&plan, 0, Keep::Outputs).unwrap();
    let bits = prg(seed + 1).random_bits(256);
    Setup {
        c,
        plan,
        g,
        gc,
        out,
        zero: zero.to_vec(),
        bits,
    }
}

#[test]
fn wrong_lengths_are_malformed() {
    let s = setup(20);
    let labels = s.g.encode(&s.zero, &s.bits).unwrap();
    for len in [0, s.gc.tables.len() - 1, s.gc.tables.len() + 1] {
        let mut gc = s.gc.clone();
        gc.tables.resize(len, Block(3));
        assert!(matches!(
            evaluate(&s.plan, &gc, &labels, Keep::Outputs),
            Err(Error::Malformed(_))
        ));
    }
    assert!(matches!(
        evaluate(&s.plan, &s.gc, &labels[1..], Keep::Outputs),
        Err(Error::Malformed(_))
    ));
    let dec = s.out.decoding();
    assert!(matches!(
        decode(&labels[..5], &dec),
        Err(Error::Malformed(_))
    ));
}

#[test]
fn truncated_stream_is_an_error_not_a_panic() {
    let s = setup(21);
    let labels = s.g.encode(&s.zero, &s.bits).unwrap();
    let (mut a, mut b) = memory_pair();
    a.send_blocks(&s.gc.tables[..1000]).unwrap();
    a.flush().unwrap();
    drop(a);
    let r = evaluate_streaming(&s.plan, &labels, 0, Keep::Outputs, &mut b);
    assert!(r.is_err());
}

#[test]
fn wrong_delta_gives_rejected_output() {
    let s = setup(22);
    // Inputs encoded under another Δ: 1-labels are not the garbler's.
    let other = Garbler::with_delta(Delta::new(s.g.delta().block() ^ Block(2)), prg(99));
    let labels = other.encode(&s.zero, &s.bits).unwrap();
    let res = evaluate(&s.plan, &s.gc, &labels, Keep::Outputs).unwrap();
    let r = decode_checked(&res.output_labels, &s.out.output_zero_labels, s.g.delta());
    assert!(matches!(r, Err(Error::Cheating { .. })));
    let plain = eval_plain(&s.c, &s.bits);
    assert_ne!(
        decode(&res.output_labels, &s.out.decoding()).unwrap(),
        plain
    );
}

#[test]
fn swapped_input_labels_flip_the_input() {
    let s = setup(23);
    let mut labels = s.g.encode(&s.zero, &s.bits).unwrap();
    labels[7] ^= s.g.delta().block(); // the other label of input wire 7
    let res = evaluate(&s.plan, &s.gc, &labels, Keep::Outputs).unwrap();
    let got = decode(&res.output_labels, &s.out.decoding()).unwrap();
    let mut flipped = s.bits.clone();
    flipped[7] = !flipped[7];
    assert_eq!(got, eval_plain(&s.c, &flipped));
    assert_ne!(got, eval_plain(&s.c, &s.bits));
}

#[test]
fn tampered_table_or_wrong_offset_is_rejected() {
    let s = setup(24);
    let labels = s.g.encode(&s.zero, &s.bits).unwrap();
    let mut gc = s.gc.clone();
    // A ciphertext is only used when the held colour bit selects it, so
    // tamper with the first 100 gates: some are used on any input.
    for t in &mut gc.tables[..200] {
        *t ^= Block(1 << 40);
    }
    let res = evaluate(&s.plan, &gc, &labels, Keep::Outputs).unwrap();
    assert!(decode_checked(&res.output_labels, &s.out.output_zero_labels, s.g.delta()).is_err());
    let mut gc = s.gc.clone();
    gc.tweak_offset = 1;
    let res = evaluate(&s.plan, &gc, &labels, Keep::Outputs).unwrap();
    assert!(decode_checked(&res.output_labels, &s.out.output_zero_labels, s.g.delta()).is_err());
    // The untouched circuit passes the same check.
    let res = evaluate(&s.plan, &s.gc, &labels, Keep::Outputs).unwrap();
    let ok = decode_checked(&res.output_labels, &s.out.output_zero_labels, s.g.delta()).unwrap();
    assert_eq!(ok, eval_plain(&s.c, &s.bits));
}

#[test]
fn inv_convention_zero_label_is_input_zero_label_xor_delta() {
    use brickyard_circuit::{Circuit, Gate, Group};
    let c = Circuit {
        num_wires: 2,
        inputs: vec![Group {
            name: "a".into(),
            wires: vec![0],
        }],
        outputs: vec![Group {
            name: "o".into(),
            wires: vec![1],
        }],
        gates: vec![Gate::Inv { a: 0, out: 1 }],
    };
    let plan = GarblePlan::new(&c).unwrap();
    let mut g = Garbler::from_prg(prg(25));
    let (gc, out, zero) = g.garble(&plan, 0, Keep::Outputs).unwrap();
    assert!(gc.tables.is_empty());
    assert_eq!(out.output_zero_labels[0], zero[0] ^ g.delta().block());
    let res = evaluate(&plan, &gc, &[zero[0]], Keep::Outputs).unwrap();
    assert_eq!(res.output_labels[0], zero[0], "evaluator copies");
    assert_eq!(
        decode(&res.output_labels, &out.decoding()).unwrap(),
        vec![true]
    );
}
