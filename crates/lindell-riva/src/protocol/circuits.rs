//! The two circuits of Fig. A.1 "Setup":
//!
//! * `C(x, y¹, y²) = f(x, E·y¹ ⊕ y²)` — the function on Bob's encoded input,
//!   `y²` a public-input group;
//! * `C'(x, D, d¹, d²) = [D = E'·d¹ ⊕ d²] ? x : 0` — cheating recovery,
//!   `D` and `d²` public-input groups.
//!
//! Input groups are ordered Alice's, Bob's OT-fed, then public, so a
//! bundle's input wires fall into the three classes in that order.

use crate::probe::ProbeMatrix;
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
    for (r, &pos) in bob.iter().enumerate() {
        // y_r = y²_r ⊕ ⊕_{c: E[r][c]=1} y¹_c (free XORs).
        let mut acc = y2[r];
        for (c, &w) in y1.iter().enumerate() {
            if dense.get(r, c) {
                gates.push(Gate::Xor {
                    a: acc,
                    b: w,
                    out: wires,
                });
                acc = wires;
                wires += 1;
            }
        }
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
    let mut d = Vec::with_capacity(D_BITS);
    for r in 0..D_BITS {
        let mut acc = d2.bit(r);
        for c in 0..e2.cols() {
            if dense.get(r, c) {
                acc = b.xor_bit(acc, d1.bit(c));
            }
        }
        d.push(acc);
    }
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
