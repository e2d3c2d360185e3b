//! parse → write → parse: identical evaluation always, identical structure
//! for canonical circuits, including outputs that need `EQW` copies.

mod common;

use brickyard_circuit::{
    builtin, parse_bristol, write_bristol_fashion, Bit, BitVec, Circuit, CircuitBuilder,
};
use common::Rng;

fn wires(gs: &[brickyard_circuit::Group]) -> Vec<Vec<u32>> {
    gs.iter().map(|g| g.wires.clone()).collect()
}

fn random_inputs(c: &Circuit, rng: &mut Rng) -> Vec<Vec<u64>> {
    c.inputs
        .iter()
        .map(|g| (0..g.width()).map(|_| rng.next_u64()).collect())
        .collect()
}

/// Writes, re-parses and checks structure, evaluation and a textual fixpoint.
fn check(c: &Circuit, rng: &mut Rng) {
    c.validate().unwrap();
    let text = write_bristol_fashion(c);
    let d = parse_bristol(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    d.validate().unwrap();
    if c.is_canonical() {
        assert_eq!(d.gates, c.gates);
        assert_eq!(d.num_wires, c.num_wires);
        assert_eq!(wires(&d.inputs), wires(&c.inputs));
        assert_eq!(wires(&d.outputs), wires(&c.outputs));
    }
    for _ in 0..2 {
        let ins = random_inputs(c, rng);
        assert_eq!(c.eval64(&ins).unwrap(), d.eval64(&ins).unwrap());
    }
    assert_eq!(write_bristol_fashion(&d), text, "writing is not a fixpoint");
}

#[test]
fn builtins_round_trip() {
    let mut rng = Rng::new(11);
    for name in [
        "add8",
        "sub8",
        "mul8",
        "lt8",
        "eq8",
        "hamming9",
        "levenshtein-cell:4",
        "levenshtein:3",
        "aes128-round",
    ] {
        let c = builtin(name).unwrap();
        assert!(c.is_canonical(), "{name}");
        check(&c, &mut rng);
    }
}

/// Outputs that are inputs, duplicated, constant or negated all need real
/// wires in their output slots.
#[test]
fn awkward_outputs_round_trip() {
    let mut b = CircuitBuilder::new();
    let x = b.input("x", 3);
    let y = b.input("y", 2);
    let s = b.and_bit(x.bit(0), y.bit(1));
    b.output("copy_of_input", &x.slice(1..3));
    b.output("dup", &BitVec(vec![s, s, !s]));
    b.output("consts", &BitVec(vec![Bit::ZERO, Bit::ONE, Bit::ZERO]));
    b.output("again", &BitVec(vec![s, x.bit(0), !x.bit(0)]));
    let c = b.finish();
    let mut rng = Rng::new(12);
    check(&c, &mut rng);
    for v in 0..32u8 {
        let xs: Vec<bool> = (0..3).map(|i| v >> i & 1 == 1).collect();
        let ys: Vec<bool> = (3..5).map(|i| v >> i & 1 == 1).collect();
        let sv = xs[0] && ys[1];
        let out = c.eval(&[xs.clone(), ys]).unwrap();
        assert_eq!(
            out,
            vec![
                xs[1..3].to_vec(),
                vec![sv, sv, !sv],
                vec![false, true, false],
                vec![sv, xs[0], !xs[0]]
            ]
        );
    }
}

#[test]
fn shared_files_write_fixpoint() {
    let Some(dir) = common::shared_circuits() else {
        return;
    };
    let mut rng = Rng::new(13);
    for f in [
        "bristol_fashion/neg64.txt",
        "bristol_fashion/zero_equal.txt",
        "bristol_format/adder_32bit.txt",
    ] {
        let c = brickyard_circuit::load(dir.join(f)).unwrap();
        check(&c, &mut rng);
    }
}
