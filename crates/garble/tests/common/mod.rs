//! Test support: random circuits, a plaintext evaluator, and a Bristol
//! Fashion loader for the shared circuit files.
#![allow(dead_code)]

use brickyard_circuit::{Circuit, Gate, Group};
use brickyard_core::Block;
use brickyard_garble::Prg;
use std::path::PathBuf;

/// Deterministic test randomness.
pub fn prg(seed: u128) -> Prg {
    Prg::from_seed(Block(seed))
}

pub fn below(prg: &mut Prg, n: usize) -> usize {
    (prg.random_block().0 % n as u128) as usize
}

/// A random circuit: `groups` input groups of random widths, `gates` random
/// XOR/AND/INV gates over random earlier wires (biased towards recent wires
/// so AND-depth grows), and three output groups of random wires (inputs and
/// repeats allowed).
pub fn random_circuit(prg: &mut Prg, groups: usize, gates: usize) -> Circuit {
    let mut next = 0u32;
    let inputs: Vec<Group> = (0..groups)
        .map(|g| {
            let w = 1 + below(prg, 9) as u32;
            let wires = (next..next + w).collect();
            next += w;
            Group {
                name: format!("in{g}"),
                wires,
            }
        })
        .collect();
    let mut gs = Vec::with_capacity(gates);
    for _ in 0..gates {
        let pick = |prg: &mut Prg| -> u32 {
            if below(prg, 2) == 0 {
                below(prg, next as usize) as u32
            } else {
                next - 1 - below(prg, (next as usize).min(8)) as u32
            }
        };
        let (a, b) = (pick(prg), pick(prg));
        let out = next;
        next += 1;
        gs.push(match below(prg, 5) {
            0 | 1 => Gate::Xor { a, b, out },
            2 | 3 => Gate::And { a, b, out },
            _ => Gate::Inv { a, out },
        });
    }
    let outputs = (0..3)
        .map(|g| Group {
            name: format!("out{g}"),
            wires: (0..1 + below(prg, 6))
                .map(|_| below(prg, next as usize) as u32)
                .collect(),
        })
        .collect();
    Circuit {
        num_wires: next,
        inputs,
        outputs,
        gates: gs,
    }
}

/// Plaintext evaluation: input bits in group order, output bits in group order.
pub fn eval_plain(c: &Circuit, input_bits: &[bool]) -> Vec<bool> {
    let mut v = vec![false; c.num_wires as usize];
    let wires = c.inputs.iter().flat_map(|g| g.wires.iter());
    for (&w, &b) in wires.zip(input_bits) {
        v[w as usize] = b;
    }
    for g in &c.gates {
        match *g {
            Gate::Xor { a, b, out } => v[out as usize] = v[a as usize] ^ v[b as usize],
            Gate::And { a, b, out } => v[out as usize] = v[a as usize] & v[b as usize],
            Gate::Inv { a, out } => v[out as usize] = !v[a as usize],
        }
    }
    c.outputs
        .iter()
        .flat_map(|g| g.wires.iter())
        .map(|&w| v[w as usize])
        .collect()
}

/// Path of a shared Bristol Fashion circuit (`../shared` beside the repo).
pub fn shared_circuit(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    root.join("shared/circuits/bristol_fashion").join(name)
}

/// A shared Bristol Fashion circuit, through the circuit crate's loader
/// (which also normalises `EQ`/`EQW`).
pub fn load_bristol(name: &str) -> Circuit {
    brickyard_circuit::load(shared_circuit(name)).expect("shared circuit file")
}

/// The circuit crate's plaintext evaluator, on bits in group order.
pub fn eval_reference(c: &Circuit, input_bits: &[bool]) -> Vec<bool> {
    let mut groups = Vec::new();
    let mut rest = input_bits;
    for g in &c.inputs {
        let (now, later) = rest.split_at(g.width());
        groups.push(now.to_vec());
        rest = later;
    }
    c.eval(&groups).expect("plaintext evaluation").concat()
}

/// Bits of a byte string in the REVERSED order of the shared AES/SHA files:
/// wire k = bit k of the bytes read as a big-endian integer.
pub fn reversed_bits(bytes: &[u8]) -> Vec<bool> {
    let n = bytes.len();
    (0..8 * n)
        .map(|k| (bytes[n - 1 - k / 8] >> (k % 8)) & 1 == 1)
        .collect()
}

pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}
