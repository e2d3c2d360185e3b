//! The two circuits of Fig. A.1 "Setup":
//!
//! * `C(x, y¹, y²) = f(x, E·y¹ ⊕ y²)` — the function on Bob's encoded input,
//!   `y²` a public-input group;
//! * `C'(x, D, d¹, d²) = [D = E'·d¹ ⊕ d²] ? x : 0` — cheating recovery,
//!   `D` and `d²` public-input groups.
//!
//! Input groups are ordered Alice's, Bob's OT-fed, then public, so a
//! bundle's input wires fall into the three classes in that order.

use crate::probe::{BitMatrix, ProbeMatrix};
use brickyard_circuit::builder::CircuitBuilder;
use brickyard_circuit::{Circuit, Gate, Group, WireId};
use brickyard_core::{Error, Result};

/// Bits of the recovery secret `D` (the computational parameter `k`).
pub const D_BITS: usize = 128;

/// Which input wires of a bundle belong to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Alice's input wires (`x`, mask-ordered commitments).
    pub x: usize,
    /// Bob's OT-fed wires (`y¹` or `d¹`).
    pub ot: usize,
    /// Public-input wires (`y²`, or `D ‖ d²`).
    pub public: usize,
}

impl Shape {
    /// All input wires.
    pub fn inputs(&self) -> usize {
        self.x + self.ot + self.public
    }
}

/// Positions of `f`'s input wires in its flattened input order.
fn flat_inputs(f: &Circuit) -> Vec<WireId> {
    f.inputs
        .iter()
        .flat_map(|g| g.wires.iter().copied())
        .collect()
}

/// `C(x, y¹, y²) = f(x, E·y¹ ⊕ y²)`; `alice` and `bob` are positions in
/// `f`'s flattened input order.
pub fn main_circuit(
    f: &Circuit,
    alice: &[usize],
    bob: &[usize],
    e: &ProbeMatrix,
) -> Result<Circuit> {
    let flat = flat_inputs(f);
    if alice.len() + bob.len() != flat.len() || e.rows() != bob.len() {
        return Err(Error::config(
            "lindell-riva: input ownership does not cover the circuit",
        ));
    }
    let (nx, n, l) = (alice.len(), e.cols(), bob.len());
    let mut next: WireId = 0;
    let mut fresh = |k: usize| -> Vec<WireId> {
        let v = (next..next + k as WireId).collect();
        next += k as WireId;
        v
    };
    let x = fresh(nx);
    let y1 = fresh(n);
    let y2 = fresh(l);
    let mut gates = Vec::new();
    let dense = e.dense();
    let mut map: Vec<Option<WireId>> = vec![None; f.num_wires as usize];
    for (k, &pos) in alice.iter().enumerate() {
        map[flat[pos] as usize] = Some(x[k]);
    }
    let mut wires = next;
    // y = E·y¹ ⊕ y² (free XORs).
    let y = encode_xors(&dense, &y1, &y2, &mut |a, b| {
        gates.push(Gate::Xor { a, b, out: wires });
        wires += 1;
        wires - 1
    });
    for (&pos, &acc) in bob.iter().zip(&y) {
        map[flat[pos] as usize] = Some(acc);
    }
    let get = |w: WireId, map: &mut Vec<Option<WireId>>, wires: &mut WireId| -> WireId {
        *map[w as usize].get_or_insert_with(|| {
            *wires += 1;
            *wires - 1
        })
    };
    for g in &f.gates {
        let ng = match *g {
            Gate::Xor { a, b, out } => Gate::Xor {
                a: get(a, &mut map, &mut wires),
                b: get(b, &mut map, &mut wires),
                out: get(out, &mut map, &mut wires),
            },
            Gate::And { a, b, out } => Gate::And {
                a: get(a, &mut map, &mut wires),
                b: get(b, &mut map, &mut wires),
                out: get(out, &mut map, &mut wires),
            },
            Gate::Inv { a, out } => Gate::Inv {
                a: get(a, &mut map, &mut wires),
                out: get(out, &mut map, &mut wires),
            },
        };
        gates.push(ng);
    }
    let outputs = f
        .outputs
        .iter()
        .map(|g| Group {
            name: g.name.clone(),
            wires: g
                .wires
                .iter()
                .map(|&w| get(w, &mut map, &mut wires))
                .collect(),
        })
        .collect();
    let c = Circuit {
        num_wires: wires,
        inputs: vec![
            Group {
                name: "x".into(),
                wires: x,
            },
            Group {
                name: "y1".into(),
                wires: y1,
            },
            Group {
                name: "y2".into(),
                wires: y2,
            },
        ],
        outputs,
        gates,
    };
    c.validate()
        .map_err(|e| Error::config(format!("lindell-riva: wrapped circuit invalid: {e}")))?;
    Ok(c)
}

/// Columns per group of [`encode_xors`] (Four Russians).
const GROUP_BITS: usize = 6;

/// The XOR network of `M·v ⊕ w` (row `r`: `w_r ⊕ ⊕_{c: M[r][c]=1} v_c`),
/// each XOR made by `xor`. The columns are cut into groups of
/// [`GROUP_BITS`]; a group's XOR combinations are made once, when a row
/// first needs them (each from a smaller one and one input), and each row
/// then takes one combination per group ("method of Four Russians"). For
/// the probe-resistant E of AES (128 × 366, about half ones) that is about
/// 11 000 XOR gates instead of 23 000 one per matrix entry: they are free
/// in the garbled circuit but not in time, and C' is almost all of them
/// (its `E'·d¹`), garbled and evaluated B' times per bucket. The function
/// is the same; only the XOR gates that compute it differ.
fn encode_xors<W: Copy>(
    m: &BitMatrix,
    v: &[W],
    w: &[W],
    xor: &mut impl FnMut(W, W) -> W,
) -> Vec<W> {
    let groups: Vec<std::ops::Range<usize>> = (0..v.len())
        .step_by(GROUP_BITS)
        .map(|c| c..(c + GROUP_BITS).min(v.len()))
        .collect();
    let mut made: Vec<Vec<Option<W>>> = groups.iter().map(|g| vec![None; 1 << g.len()]).collect();
    w.iter()
        .enumerate()
        .map(|(r, &acc)| {
            let mut acc = acc;
            for (g, t) in groups.iter().zip(made.iter_mut()) {
                let pattern = g
                    .clone()
                    .enumerate()
                    .filter(|&(_, c)| m.get(r, c))
                    .fold(0usize, |p, (i, _)| p | 1 << i);
                if pattern != 0 {
                    let x = combination(t, &v[g.clone()], pattern, xor);
                    acc = xor(acc, x);
                }
            }
            acc
        })
        .collect()
}

/// The XOR of the inputs (`ins`, one group's) named by `pattern`
/// (nonzero), from the group's table `t`, made (and kept) from the pattern
/// without its lowest bit if missing.
fn combination<W: Copy>(
    t: &mut [Option<W>],
    ins: &[W],
    pattern: usize,
    xor: &mut impl FnMut(W, W) -> W,
) -> W {
    let low = pattern.trailing_zeros() as usize;
    if pattern == 1 << low {
        return ins[low];
    }
    if let Some(x) = t[pattern] {
        return x;
    }
    let rest = combination(t, ins, pattern & (pattern - 1), xor);
    let x = xor(rest, ins[low]);
    t[pattern] = Some(x);
    x
}

/// `C'(x, d¹, D, d²) = [D = E'·d¹ ⊕ d²] ? x : 0` (inputs in that order).
pub fn recovery_circuit(nx: usize, e2: &ProbeMatrix) -> Result<Circuit> {
    if e2.rows() != D_BITS {
        return Err(Error::config("E' must have |D| rows"));
    }
    let dense = e2.dense();
    let mut b = CircuitBuilder::new();
    let x = b.input("x", nx);
    let d1 = b.input("d1", e2.cols());
    let big_d = b.input("D", D_BITS);
    let d2 = b.input("d2", D_BITS);
    let d1: Vec<_> = (0..e2.cols()).map(|c| d1.bit(c)).collect();
    let d2: Vec<_> = (0..D_BITS).map(|r| d2.bit(r)).collect();
    let d = encode_xors(&dense, &d1, &d2, &mut |x, y| b.xor_bit(x, y));
    let d = brickyard_circuit::builder::BitVec(d);
    let eq = b.eq(&big_d, &d);
    let out: Vec<_> = x.iter().map(|xi| b.and_bit(xi, eq)).collect();
    b.output("x", &brickyard_circuit::builder::BitVec(out));
    b.try_finish()
        .map_err(|e| Error::config(format!("lindell-riva: recovery circuit: {e:?}")))
}

/// `f(x, y)` in the clear, `x` and `y` at their flattened positions (Bob's
/// output after recovering `x`).
pub fn eval_plain(
    f: &Circuit,
    alice: &[usize],
    bob: &[usize],
    x: &[bool],
    y: &[bool],
) -> Result<Vec<bool>> {
    let mut flat = vec![false; alice.len() + bob.len()];
    for (&p, &v) in alice.iter().zip(x) {
        flat[p] = v;
    }
    for (&p, &v) in bob.iter().zip(y) {
        flat[p] = v;
    }
    let mut groups = Vec::with_capacity(f.inputs.len());
    let mut at = 0;
    for g in &f.inputs {
        groups.push(flat[at..at + g.width()].to_vec());
        at += g.width();
    }
    let out = f
        .eval(&groups)
        .map_err(|e| Error::config(format!("plain evaluation: {e:?}")))?;
    Ok(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;

    /// The network computes `M·v ⊕ w` (plaintext bits through the same
    /// XOR callback) for random shapes, and needs about half the XORs of
    /// one per matrix entry at the AES size.
    #[test]
    fn encode_xors_computes_the_product_with_fewer_xors() {
        let mut p = Prg::from_seed(Block(41));
        for (rows, cols) in [(1, 1), (3, 7), (128, 366), (20, 13), (128, 6), (5, 64)] {
            let mut m = BitMatrix::zeros(rows, cols);
            let mut ones = 0;
            for r in 0..rows {
                for c in 0..cols {
                    if p.random_bits(1)[0] {
                        m.set(r, c);
                        ones += 1;
                    }
                }
            }
            for _ in 0..4 {
                let v = p.random_bits(cols);
                let w = p.random_bits(rows);
                let mut count = 0usize;
                let got = encode_xors(&m, &v, &w, &mut |a: bool, b: bool| {
                    count += 1;
                    a ^ b
                });
                let want: Vec<bool> = (0..rows)
                    .map(|r| (0..cols).fold(w[r], |acc, c| acc ^ (m.get(r, c) & v[c])))
                    .collect();
                assert_eq!(got, want, "{rows} × {cols}");
                assert!(count <= ones, "{count} XORs for {ones} ones");
                if (rows, cols) == (128, 366) {
                    eprintln!("128 × 366: {count} XORs for {ones} ones");
                    assert!(2 * count < ones + ones / 5, "{count} XORs for {ones} ones");
                }
            }
        }
    }
}
