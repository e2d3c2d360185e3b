//! The two circuits of Fig. A.1 "Setup":
//!
//! * `C(x, y¹, y²) = f(x, E·y¹ ⊕ y²)` — the function on Bob's encoded input,
//!   `y²` a public-input group;
//! * `C'(x, D, d¹, d²) = [D = E'·d¹ ⊕ d²] ? x : 0` — cheating recovery,
//!   `D` and `d²` public-input groups.
//!
//! Input groups are ordered Alice's, Bob's OT-fed, then public, so a
//! bundle's input wires fall into the three classes in that order.
//!
//! Each circuit comes in two forms with the same AND gates in the same
//! order: the one Alice garbles ([`main_circuit`], [`recovery_circuit`]),
//! and the one Bob evaluates ([`main_circuit_evaluated`],
//! [`recovery_circuit_evaluated`]), whose inputs are the wires of `E·y¹`
//! (resp. `E'·d¹`) instead of `y¹` (`d¹`). The encoding's XOR gates depend
//! on Bob's OT-fed wires alone, whose labels he holds from the offline
//! stage: he runs them there, on labels ([`XorNet`]), and online only the
//! rest. With free XOR an XOR gate's evaluated label is the XOR of its
//! inputs' labels, and the AND gates (their order is the tables' order and
//! hash tweaks, `brickyard_garble::GarblePlan`) are those of the garbled
//! form, so Alice's tables evaluate unchanged on either.

use crate::probe::{BitMatrix, ProbeMatrix};
use brickyard_circuit::builder::CircuitBuilder;
use brickyard_circuit::{Circuit, Gate, Group, WireId};
use brickyard_core::block::xor_in_place;
use brickyard_core::{Block, Error, Result};

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

/// Which form of C or C' to build (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Bob's OT-fed wires are inputs; the encoding's XOR gates inside.
    Garbled,
    /// The encoding's outputs (`E·y¹`, `E'·d¹`, one wire per row) are
    /// inputs.
    Evaluated,
}

/// `C(x, y¹, y²) = f(x, E·y¹ ⊕ y²)`, the form Alice garbles; `alice` and
/// `bob` are positions in `f`'s flattened input order.
pub fn main_circuit(
    f: &Circuit,
    alice: &[usize],
    bob: &[usize],
    e: &ProbeMatrix,
) -> Result<Circuit> {
    main_of(f, alice, bob, &e.dense(), Form::Garbled)
}

/// C as Bob evaluates it: inputs `x`, `E·y¹` (one wire per row of E),
/// `y²`; the same AND gates as [`main_circuit`].
pub fn main_circuit_evaluated(
    f: &Circuit,
    alice: &[usize],
    bob: &[usize],
    e: &ProbeMatrix,
) -> Result<Circuit> {
    main_of(f, alice, bob, &e.dense(), Form::Evaluated)
}

fn main_of(
    f: &Circuit,
    alice: &[usize],
    bob: &[usize],
    dense: &BitMatrix,
    form: Form,
) -> Result<Circuit> {
    let flat = flat_inputs(f);
    if alice.len() + bob.len() != flat.len() || dense.rows() != bob.len() {
        return Err(Error::config(
            "lindell-riva: input ownership does not cover the circuit",
        ));
    }
    let (nx, l) = (alice.len(), bob.len());
    let fed = match form {
        Form::Garbled => dense.cols(),
        Form::Evaluated => l,
    };
    let mut next: WireId = 0;
    let mut fresh = |k: usize| -> Vec<WireId> {
        let v = (next..next + k as WireId).collect();
        next += k as WireId;
        v
    };
    let x = fresh(nx);
    let y1 = fresh(fed);
    let y2 = fresh(l);
    let mut gates = Vec::new();
    let mut map: Vec<Option<WireId>> = vec![None; f.num_wires as usize];
    for (k, &pos) in alice.iter().enumerate() {
        map[flat[pos] as usize] = Some(x[k]);
    }
    let mut wires = next;
    // y = E·y¹ ⊕ y² (free XORs): E·y¹ first, as wires of its own.
    let y = {
        let mut xor = |a, b| {
            gates.push(Gate::Xor { a, b, out: wires });
            wires += 1;
            wires - 1
        };
        let rows = match form {
            Form::Garbled => encode_rows(dense, &y1, &mut xor),
            Form::Evaluated => given_rows(dense, &y1),
        };
        add_public(&rows, &y2, &mut xor)
    };
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
                name: match form {
                    Form::Garbled => "y1",
                    Form::Evaluated => "Ey1",
                }
                .into(),
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

/// Columns per group of [`encode_rows`] (Four Russians).
const GROUP_BITS: usize = 6;

/// The XOR network of `M·v` (row `r`: `⊕_{c: M[r][c]=1} v_c`, `None` for
/// a zero row), each XOR made by `xor`. The columns are cut into groups
/// of [`GROUP_BITS`]; a group's XOR combinations are made once, when a
/// row first needs them (each from a smaller one and one input), and each
/// row then takes one combination per group ("method of Four Russians").
/// For the probe-resistant E of AES (128 × 366, about half ones) that is
/// about 11 000 XOR gates instead of 23 000 one per matrix entry. The
/// rows are wires of their own (the public part is XORed on afterwards,
/// [`add_public`]), so that the network is a function of `v` alone: the
/// garbled circuits hold it as gates, and Bob runs the same network on
/// the labels of `v` offline ([`XorNet`]).
fn encode_rows<W: Copy>(m: &BitMatrix, v: &[W], xor: &mut impl FnMut(W, W) -> W) -> Vec<Option<W>> {
    row_terms(m, v, xor)
        .into_iter()
        .map(|t| t.into_iter().reduce(&mut *xor))
        .collect()
}

/// Per row of [`encode_rows`], the combinations it XORs together (one per
/// group it has ones in), the combinations made by `xor`.
fn row_terms<W: Copy>(m: &BitMatrix, v: &[W], xor: &mut impl FnMut(W, W) -> W) -> Vec<Vec<W>> {
    let groups: Vec<std::ops::Range<usize>> = (0..v.len())
        .step_by(GROUP_BITS)
        .map(|c| c..(c + GROUP_BITS).min(v.len()))
        .collect();
    let mut made: Vec<Vec<Option<W>>> = groups.iter().map(|g| vec![None; 1 << g.len()]).collect();
    (0..m.rows())
        .map(|r| {
            let mut terms = Vec::new();
            for (g, t) in groups.iter().zip(made.iter_mut()) {
                let pattern = g
                    .clone()
                    .enumerate()
                    .filter(|&(_, c)| m.get(r, c))
                    .fold(0usize, |p, (i, _)| p | 1 << i);
                if pattern != 0 {
                    terms.push(combination(t, &v[g.clone()], pattern, xor));
                }
            }
            terms
        })
        .collect()
}

/// The rows of `M·v` given as wires `ev` (one per row; a zero row's wire
/// is read by nothing, as [`encode_rows`] has no wire for it).
fn given_rows<W: Copy>(m: &BitMatrix, ev: &[W]) -> Vec<Option<W>> {
    (0..m.rows())
        .map(|r| (0..m.cols()).any(|c| m.get(r, c)).then_some(ev[r]))
        .collect()
}

/// `M·v ⊕ w` from the rows of `M·v`.
fn add_public<W: Copy>(rows: &[Option<W>], w: &[W], xor: &mut impl FnMut(W, W) -> W) -> Vec<W> {
    rows.iter()
        .zip(w)
        .map(|(&e, &w)| match e {
            Some(e) => xor(e, w),
            None => w,
        })
        .collect()
}

/// The XOR network of `M·v` ([`encode_rows`], the gates C or C' computes
/// `E·y¹` or `E'·d¹` with), recorded once so Bob can run it on labels,
/// group of columns by group: a group's combinations, then its term of
/// every row that has ones in it, XORed into the row's sum. Each row's
/// chain of XOR gates takes its terms in group order, as here; only the
/// interleaving of rows differs, so that one group's combinations (a few
/// KB) and the rows' sums stay in L1.
#[derive(Clone, Debug)]
pub struct XorNet {
    inputs: usize,
    rows: usize,
    groups: Vec<NetGroup>,
    /// XOR gates (as C has them).
    xors: usize,
    /// Per row, whether it has an odd number of ones.
    odd: Vec<bool>,
}

/// One group of [`GROUP_BITS`] columns of a [`XorNet`]. Its slots:
/// `0..width` its columns, `width + k` the XOR of the two slots of
/// `combos[k]`; `terms` are `(row, slot)` in row order.
#[derive(Clone, Debug)]
struct NetGroup {
    first: usize,
    width: usize,
    combos: Vec<[u32; 2]>,
    terms: Vec<[u32; 2]>,
}

impl XorNet {
    /// The network of `m`'s rows.
    pub fn new(m: &ProbeMatrix) -> Self {
        Self::of(&m.dense())
    }

    fn of(m: &BitMatrix) -> Self {
        let inputs = m.cols();
        let v: Vec<u32> = (0..inputs as u32).collect();
        let mut made = Vec::new();
        let per_row = row_terms(m, &v, &mut |a, b| {
            made.push([a, b]);
            (inputs + made.len() - 1) as u32
        });
        let mut groups: Vec<NetGroup> = (0..inputs)
            .step_by(GROUP_BITS)
            .map(|first| NetGroup {
                first,
                width: GROUP_BITS.min(inputs - first),
                combos: Vec::new(),
                terms: Vec::new(),
            })
            .collect();
        // Group and local slot of every slot: an input's from its column,
        // a combination's from its input operand (`combination` XORs a
        // smaller combination of the same group with one of its inputs).
        let mut at: Vec<(usize, u32)> = (0..inputs)
            .map(|c| (c / GROUP_BITS, (c % GROUP_BITS) as u32))
            .collect();
        for &[a, b] in &made {
            let g = at[b as usize].0;
            debug_assert_eq!(at[a as usize].0, g);
            let grp = &mut groups[g];
            let local = (grp.width + grp.combos.len()) as u32;
            grp.combos.push([at[a as usize].1, at[b as usize].1]);
            at.push((g, local));
        }
        let mut xors = made.len();
        for (r, terms) in per_row.iter().enumerate() {
            xors += terms.len().saturating_sub(1);
            for &t in terms {
                let (g, local) = at[t as usize];
                groups[g].terms.push([r as u32, local]);
            }
        }
        let odd = (0..m.rows())
            .map(|r| (0..m.cols()).filter(|&c| m.get(r, c)).count() % 2 == 1)
            .collect();
        XorNet {
            inputs,
            rows: m.rows(),
            groups,
            xors,
            odd,
        }
    }

    /// Rows of `M` (wires of `M·v`).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of `M` (wires of `v`).
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// XOR gates of the network (as C has them: a row of `t` terms is a
    /// chain of `t − 1`).
    pub fn xors(&self) -> usize {
        self.xors
    }

    /// Per row, whether it XORs an odd number of `v`'s wires: the XOR of
    /// that many labels each masked by one `λ` is masked by `λ` once,
    /// of an even number not at all.
    pub fn odd(&self) -> &[bool] {
        &self.odd
    }

    /// The labels of `M·v`'s wires from the labels of `v`'s, for `count`
    /// label vectors at once (the members of one part of a bucket):
    /// `v[t * count + m]` is wire `t` of vector `m` (as a part's OT
    /// messages arrive), and the result holds each vector's rows (a zero
    /// row's wire, read by nothing, gets zero). The network's XOR gates
    /// evaluated as free XOR evaluates them, each on `count` contiguous
    /// labels so that its index work is paid once for all of them. On
    /// labels each masked by one `λ`, a row comes out masked by `λ` iff
    /// [`XorNet::odd`] says so. `scratch` holds a group's slots.
    pub fn apply_many(
        &self,
        count: usize,
        v: &[Block],
        scratch: &mut Vec<Block>,
    ) -> Result<Vec<Vec<Block>>> {
        if count == 0 || Some(v.len()) != self.inputs.checked_mul(count) {
            return Err(Error::malformed(
                "lindell-riva: OT labels of the wrong length",
            ));
        }
        let mut sums = vec![Block::ZERO; self.rows * count];
        for g in &self.groups {
            // Every slot is written (the group's inputs, then each
            // combination in turn) before it is read: no clearing.
            let total = (g.width + g.combos.len()) * count;
            if scratch.len() < total {
                scratch.resize(total, Block::ZERO);
            }
            scratch[..g.width * count]
                .copy_from_slice(&v[g.first * count..(g.first + g.width) * count]);
            for (k, &[a, b]) in g.combos.iter().enumerate() {
                // `of` made each combination from earlier slots only.
                let (a, b, at) = (
                    a as usize * count,
                    b as usize * count,
                    (g.width + k) * count,
                );
                let (done, new) = scratch.split_at_mut(at);
                for ((n, x), y) in new[..count]
                    .iter_mut()
                    .zip(&done[a..a + count])
                    .zip(&done[b..b + count])
                {
                    *n = *x ^ *y;
                }
            }
            for &[r, t] in &g.terms {
                let (r, t) = (r as usize * count, t as usize * count);
                xor_in_place(&mut sums[r..r + count], &scratch[t..t + count]);
            }
        }
        Ok((0..count)
            .map(|m| (0..self.rows).map(|r| sums[r * count + m]).collect())
            .collect())
    }
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

/// `C'(x, d¹, D, d²) = [D = E'·d¹ ⊕ d²] ? x : 0` (inputs in that order),
/// the form Alice garbles.
pub fn recovery_circuit(nx: usize, e2: &ProbeMatrix) -> Result<Circuit> {
    recovery_of(nx, &e2.dense(), Form::Garbled)
}

/// C' as Bob evaluates it: inputs `x`, `E'·d¹` (|D| wires), `D`, `d²`;
/// the same AND gates as [`recovery_circuit`].
pub fn recovery_circuit_evaluated(nx: usize, e2: &ProbeMatrix) -> Result<Circuit> {
    recovery_of(nx, &e2.dense(), Form::Evaluated)
}

fn recovery_of(nx: usize, dense: &BitMatrix, form: Form) -> Result<Circuit> {
    if dense.rows() != D_BITS {
        return Err(Error::config("E' must have |D| rows"));
    }
    let mut b = CircuitBuilder::new();
    let x = b.input("x", nx);
    // `d¹` (Garbled) or `E'·d¹` (Evaluated).
    let fed: Vec<_> = match form {
        Form::Garbled => {
            let d1 = b.input("d1", dense.cols());
            (0..dense.cols()).map(|c| d1.bit(c)).collect()
        }
        Form::Evaluated => {
            let ed1 = b.input("Ed1", D_BITS);
            (0..D_BITS).map(|r| ed1.bit(r)).collect()
        }
    };
    let big_d = b.input("D", D_BITS);
    let d2 = b.input("d2", D_BITS);
    let d2: Vec<_> = (0..D_BITS).map(|r| d2.bit(r)).collect();
    let rows = match form {
        Form::Garbled => encode_rows(dense, &fed, &mut |x, y| b.xor_bit(x, y)),
        Form::Evaluated => given_rows(dense, &fed),
    };
    let d = add_public(&rows, &d2, &mut |x, y| b.xor_bit(x, y));
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
    use brickyard_garble::{evaluate, evaluate_many, garble, Delta, GarblePlan, Keep};

    fn random_matrix(p: &mut Prg, rows: usize, cols: usize) -> (BitMatrix, usize) {
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
        (m, ones)
    }

    /// The network computes `M·v` (plaintext bits through the same XOR
    /// callback) for random shapes, `add_public` then `M·v ⊕ w`, with
    /// about half the XORs of one per matrix entry at the AES size; the
    /// recorded network ([`XorNet`]) computes the same rows.
    #[test]
    fn encode_rows_computes_the_product_with_fewer_xors() {
        let mut p = Prg::from_seed(Block(41));
        for (rows, cols) in [(1, 1), (3, 7), (128, 366), (20, 13), (128, 6), (5, 64)] {
            let (m, ones) = random_matrix(&mut p, rows, cols);
            let net = XorNet::of(&m);
            for _ in 0..4 {
                let v = p.random_bits(cols);
                let w = p.random_bits(rows);
                let mut count = 0usize;
                let mut xor = |a: bool, b: bool| {
                    count += 1;
                    a ^ b
                };
                let e = encode_rows(&m, &v, &mut xor);
                let got = add_public(&e, &w, &mut xor);
                let want_e: Vec<bool> = (0..rows)
                    .map(|r| (0..cols).fold(false, |acc, c| acc ^ (m.get(r, c) & v[c])))
                    .collect();
                let want: Vec<bool> = want_e.iter().zip(&w).map(|(a, b)| a ^ b).collect();
                assert_eq!(got, want, "{rows} × {cols}");
                assert_eq!(
                    e.iter().map(|r| r.unwrap_or(false)).collect::<Vec<_>>(),
                    want_e
                );
                assert!(count <= ones, "{count} XORs for {ones} ones");
                if (rows, cols) == (128, 366) {
                    eprintln!("128 × 366: {count} XORs for {ones} ones");
                    assert!(2 * count < ones + ones / 5, "{count} XORs for {ones} ones");
                }
                // The recorded network on blocks whose low bit is v.
                let vb: Vec<Block> = v.iter().map(|&b| Block(b as u128)).collect();
                let out = net.apply_many(1, &vb, &mut Vec::new()).unwrap();
                let bits: Vec<bool> = out[0].iter().map(|b| b.0 == 1).collect();
                assert_eq!(bits, want_e, "{rows} × {cols}");
                // Three vectors interleaved: each gets its own rows.
                let vs: Vec<Vec<bool>> = (0..3).map(|_| p.random_bits(cols)).collect();
                let wide: Vec<Block> = (0..cols)
                    .flat_map(|t| vs.iter().map(move |v| Block(v[t] as u128)))
                    .collect();
                let outs = net.apply_many(3, &wide, &mut Vec::new()).unwrap();
                for (v, o) in vs.iter().zip(&outs) {
                    let vb: Vec<Block> = v.iter().map(|&b| Block(b as u128)).collect();
                    assert_eq!(o, &net.apply_many(1, &vb, &mut Vec::new()).unwrap()[0]);
                }
                // The same gates as C's, less the XORs with w.
                let nonzero = e.iter().filter(|r| r.is_some()).count();
                assert_eq!(net.xors() + nonzero, count);
            }
            let odd: Vec<bool> = (0..rows)
                .map(|r| (0..cols).filter(|&c| m.get(r, c)).count() % 2 == 1)
                .collect();
            assert_eq!(net.odd(), &odd[..]);
        }
        let short = XorNet::of(&BitMatrix::zeros(2, 3));
        assert!(short
            .apply_many(1, &[Block::ZERO; 2], &mut Vec::new())
            .is_err());
        assert!(short.apply_many(0, &[], &mut Vec::new()).is_err());
        assert!(short
            .apply_many(2, &[Block::ZERO; 3], &mut Vec::new())
            .is_err());
    }

    /// Alice garbles the full form (`nx` wires of x, the network's inputs,
    /// `public` wires); Bob evaluates the reduced form on the labels of x,
    /// the rows the network made from the `λ`-masked labels of its inputs
    /// with `λ` taken off by parity, and the public labels. Both forms
    /// must have the same AND gates in the same order (equal tables
    /// count), and the reduced evaluation must give the full one's output
    /// labels, which decode to the plain evaluation.
    fn same_output_labels(full: &Circuit, reduced: &Circuit, net: &XorNet, nx: usize, p: &mut Prg) {
        let plan = GarblePlan::new(full).unwrap();
        let plan_r = GarblePlan::new(reduced).unwrap();
        assert_eq!(plan.and_count(), plan_r.and_count());
        assert_eq!(plan.table_blocks(), plan_r.table_blocks());
        assert_eq!(full.and_count(), reduced.and_count());
        let (n, rows) = (net.inputs(), net.rows());
        let inputs = plan.input_wires().len();
        let public = inputs - nx - n;
        assert_eq!(plan_r.input_wires().len(), nx + rows + public);
        for _ in 0..3 {
            let delta = Delta::random(p);
            let zero: Vec<Block> = (0..inputs).map(|_| p.random_block()).collect();
            let (gc, out) = garble(&plan, &delta, &zero, 0, Keep::Outputs).unwrap();
            let bits = p.random_bits(inputs);
            let labels: Vec<Block> = zero
                .iter()
                .zip(&bits)
                .map(|(&z, &b)| if b { z ^ delta.block() } else { z })
                .collect();
            let want = evaluate(&plan, &gc, &labels, Keep::Outputs).unwrap();
            let lambda = p.random_block();
            let masked: Vec<Block> = labels[nx..nx + n].iter().map(|&l| l ^ lambda).collect();
            let mut rows_l = net
                .apply_many(1, &masked, &mut Vec::new())
                .unwrap()
                .remove(0);
            for (l, &odd) in rows_l.iter_mut().zip(net.odd()) {
                if odd {
                    *l ^= lambda;
                }
            }
            let mut red = labels[..nx].to_vec();
            red.extend_from_slice(&rows_l);
            red.extend_from_slice(&labels[nx + n..]);
            let got = evaluate(&plan_r, &gc, &red, Keep::Outputs).unwrap();
            assert_eq!(got.output_labels, want.output_labels);
            let many =
                evaluate_many(&plan_r, &[(&gc, &red[..]), (&gc, &red[..])], Keep::Outputs).unwrap();
            assert!(many.iter().all(|o| o.output_labels == want.output_labels));
            // And they are the right output: W⁰ ⊕ f·Δ.
            let mut groups = Vec::new();
            let mut at = 0;
            for g in &full.inputs {
                groups.push(bits[at..at + g.width()].to_vec());
                at += g.width();
            }
            let plain: Vec<bool> = full.eval(&groups).unwrap().into_iter().flatten().collect();
            for ((&w, &z), &b) in want
                .output_labels
                .iter()
                .zip(out.output_zero_labels.iter())
                .zip(&plain)
            {
                assert_eq!(w, if b { z ^ delta.block() } else { z });
            }
        }
    }

    /// C and C' (random E, E' from the probe-resistant construction, and
    /// random dense matrices with a zero row) on AES-128 and a small
    /// random circuit: Bob's reduced forms on precomputed labels give
    /// Alice's full forms' output labels.
    #[test]
    fn evaluated_forms_give_the_garbled_forms_output_labels() {
        let mut p = Prg::from_seed(Block(77));
        let mut rng = brickyard_testkit::Rng(5);
        let small = brickyard_testkit::random_circuit(&mut rng, 3, 60, 5);
        let aes = brickyard_circuit::library::builtin("aes128").unwrap();
        for (f, seeds) in [(&small, 3), (&aes, 2)] {
            let n_in = f.inputs.iter().map(|g| g.width()).sum::<usize>();
            let nx = n_in / 2;
            let alice: Vec<usize> = (0..nx).collect();
            let bob: Vec<usize> = (nx..n_in).collect();
            let l = bob.len();
            for _ in 0..seeds {
                let e = crate::probe::ProbeSpec::choose(l, 40, &mut p)
                    .unwrap()
                    .build()
                    .unwrap();
                let (full, red) = (
                    main_circuit(f, &alice, &bob, &e).unwrap(),
                    main_circuit_evaluated(f, &alice, &bob, &e).unwrap(),
                );
                same_output_labels(&full, &red, &XorNet::new(&e), nx, &mut p);
                let e2 = crate::probe::ProbeSpec::choose(D_BITS, 40, &mut p)
                    .unwrap()
                    .build()
                    .unwrap();
                let (full, red) = (
                    recovery_circuit(nx, &e2).unwrap(),
                    recovery_circuit_evaluated(nx, &e2).unwrap(),
                );
                same_output_labels(&full, &red, &XorNet::new(&e2), nx, &mut p);
            }
            // Dense random matrices, row 1 zero (its row wire unread).
            let (mut m, _) = random_matrix(&mut p, l, 2 * l + 3);
            m = zero_row(&m, 1);
            let (full, red) = (
                main_of(f, &alice, &bob, &m, Form::Garbled).unwrap(),
                main_of(f, &alice, &bob, &m, Form::Evaluated).unwrap(),
            );
            same_output_labels(&full, &red, &XorNet::of(&m), nx, &mut p);
            let (m2, _) = random_matrix(&mut p, D_BITS, 150);
            let m2 = zero_row(&m2, 0);
            let (full, red) = (
                recovery_of(nx, &m2, Form::Garbled).unwrap(),
                recovery_of(nx, &m2, Form::Evaluated).unwrap(),
            );
            same_output_labels(&full, &red, &XorNet::of(&m2), nx, &mut p);
        }
    }

    fn zero_row(m: &BitMatrix, z: usize) -> BitMatrix {
        let mut out = BitMatrix::zeros(m.rows(), m.cols());
        for r in (0..m.rows()).filter(|&r| r != z) {
            for c in (0..m.cols()).filter(|&c| m.get(r, c)) {
                out.set(r, c);
            }
        }
        out
    }
}
