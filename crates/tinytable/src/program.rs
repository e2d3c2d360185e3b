//! The circuit TinyTable evaluates: linear gates (free, Sec. 2.1–2.2) and
//! "table gates" — a public function `f: {0,1}^n → {0,1}^m` looked up in a
//! scrambled table (an AND gate is `n = 2, m = 1`; the AES S-box of Sec. 2.3
//! is `n = m = 8`).
//!
//! The Boolean IR of `brickyard-circuit` has no table gates, so TinyTable
//! compiles into this form: [`Program::from_circuit`] (binary version, one
//! AND table per AND gate, layers straight from `Circuit::layering()`) or
//! [`super::aes_sbox::aes128_sbox_program`] (S-box version). Every table
//! gate of a program uses the same function, which keeps every table record
//! the same size (one store kind, fixed-size records).

use brickyard_circuit::{Circuit, Gate};
use brickyard_core::{Error, Result};

/// A linear gate, evaluated locally on masked values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lin {
    /// `out = a ⊕ b`: masked value `e_a ⊕ e_b`, mask `r_a ⊕ r_b` (free XOR).
    Xor(u32, u32, u32),
    /// `out = ¬a`: masked value `e_a` unchanged, mask `1 ⊕ r_a` (NOT
    /// removal, Sec. 2.2: the online phase does nothing).
    Not(u32, u32),
}

/// The public function of every table gate of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFn {
    /// Name in reports (`and`, `aes-sbox`).
    pub name: &'static str,
    /// Input bits `n` (≤ 8).
    pub n_in: u32,
    /// Output bits `m` (≤ 8).
    pub n_out: u32,
    /// `f(x)` for every `x < 2^n`; input bit `j` of `x` is the gate's input
    /// wire `j`, output bit `j` its output wire `j`.
    pub values: Vec<u8>,
}

impl TableFn {
    /// The AND gate: `f(x) = x0 ∧ x1`.
    pub fn and() -> TableFn {
        TableFn {
            name: "and",
            n_in: 2,
            n_out: 1,
            values: vec![0, 0, 0, 1],
        }
    }
    /// Number of table entries, `2^n`.
    pub fn entries(&self) -> usize {
        1 << self.n_in
    }
}

/// One AND-depth (table-depth) layer: the linear gates computable so far,
/// then table gates that depend only on wires available after them. All
/// table gates of a layer are opened in one flight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layer {
    /// Linear gates in a valid sequential order.
    pub linear: Vec<Lin>,
    /// Input wires of this layer's table gates, `n_in` per gate.
    pub table_ins: Vec<u32>,
    /// Output wires of this layer's table gates, `n_out` per gate.
    pub table_outs: Vec<u32>,
    /// Index of the first table gate of this layer in the program's global
    /// table numbering (which is also the order of table records).
    pub first_table: usize,
}

impl Layer {
    /// Number of table gates in the layer.
    pub fn tables(&self, f: &TableFn) -> usize {
        self.table_outs.len() / f.n_out as usize
    }
}

/// A TinyTable program: wires, table function, layers, input and output
/// groups (with the same wire conventions as the source circuit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Total wires.
    pub num_wires: u32,
    /// The function of every table gate.
    pub table: TableFn,
    /// Layers in evaluation order (the last may hold only linear gates).
    pub layers: Vec<Layer>,
    /// Wires of each input group.
    pub inputs: Vec<Vec<u32>>,
    /// Wires of each output group.
    pub outputs: Vec<Vec<u32>>,
}

impl Program {
    /// The binary version (Sec. 2, free XOR 2.1, NOT removal 2.2): one AND
    /// table per AND gate, layered by `Circuit::layering()`, so the online
    /// phase has one round per AND layer.
    pub fn from_circuit(c: &Circuit) -> Program {
        let mut layers = Vec::new();
        let mut first = 0usize;
        for l in c.layering().layers {
            let linear = l
                .linear
                .iter()
                .filter_map(|g| match *g {
                    Gate::Xor { a, b, out } => Some(Lin::Xor(a, b, out)),
                    Gate::Inv { a, out } => Some(Lin::Not(a, out)),
                    // `layering` puts ANDs in `ands` only.
                    Gate::And { .. } => None,
                })
                .collect();
            let mut table_ins = Vec::with_capacity(2 * l.ands.len());
            let mut table_outs = Vec::with_capacity(l.ands.len());
            for &(a, b, out) in &l.ands {
                table_ins.extend([a, b]);
                table_outs.push(out);
            }
            let n = table_outs.len();
            layers.push(Layer {
                linear,
                table_ins,
                table_outs,
                first_table: first,
            });
            first += n;
        }
        Program {
            num_wires: c.num_wires,
            table: TableFn::and(),
            layers,
            inputs: c.inputs.iter().map(|g| g.wires.clone()).collect(),
            outputs: c.outputs.iter().map(|g| g.wires.clone()).collect(),
        }
    }

    /// Total table gates.
    pub fn table_count(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.tables(&self.table))
            .sum::<usize>()
    }

    /// Layers that open at least one table (= online rounds for tables).
    pub fn table_layers(&self) -> usize {
        self.layers
            .iter()
            .filter(|l| !l.table_outs.is_empty())
            .count()
    }

    /// Total output wires.
    pub fn output_width(&self) -> usize {
        self.outputs.iter().map(Vec::len).sum()
    }

    /// Plaintext evaluation (for tests and for checking a compiled program
    /// against its source circuit).
    pub fn eval(&self, inputs: &[Vec<bool>]) -> Result<Vec<Vec<bool>>> {
        if inputs.len() != self.inputs.len() {
            return Err(Error::config("wrong number of input groups"));
        }
        let mut v = vec![false; self.num_wires as usize];
        for (g, vals) in self.inputs.iter().zip(inputs) {
            if g.len() != vals.len() {
                return Err(Error::config("input width mismatch"));
            }
            for (&w, &b) in g.iter().zip(vals) {
                v[w as usize] = b;
            }
        }
        let (n, m) = (self.table.n_in as usize, self.table.n_out as usize);
        for l in &self.layers {
            eval_linear(&l.linear, &mut v);
            for (ins, outs) in l.table_ins.chunks(n).zip(l.table_outs.chunks(m)) {
                let x = ins
                    .iter()
                    .enumerate()
                    .fold(0usize, |x, (j, &w)| x | (v[w as usize] as usize) << j);
                let y = self.table.values[x];
                for (j, &w) in outs.iter().enumerate() {
                    v[w as usize] = (y >> j) & 1 == 1;
                }
            }
        }
        Ok(self
            .outputs
            .iter()
            .map(|g| g.iter().map(|&w| v[w as usize]).collect())
            .collect())
    }
}

/// Applies linear gates to plain bits (also used on masks by the dealer
/// with `Not` meaning "flip", and on masked values online with `Not` as a
/// copy — callers pick via [`eval_linear`] / [`eval_linear_masked`]).
pub fn eval_linear(lin: &[Lin], v: &mut [bool]) {
    for g in lin {
        match *g {
            Lin::Xor(a, b, o) => v[o as usize] = v[a as usize] ^ v[b as usize],
            Lin::Not(a, o) => v[o as usize] = !v[a as usize],
        }
    }
}

/// Linear gates on masked values `e`: XOR is XOR, NOT is a copy (Sec. 2.2).
pub fn eval_linear_masked(lin: &[Lin], e: &mut [u8]) {
    for g in lin {
        match *g {
            Lin::Xor(a, b, o) => e[o as usize] = e[a as usize] ^ e[b as usize],
            Lin::Not(a, o) => e[o as usize] = e[a as usize],
        }
    }
}

/// A gate waiting for layering: linear, or a table gate `(ins, outs)`.
type Pending = std::result::Result<Lin, (Vec<u32>, Vec<u32>)>;

/// Builds a program gate by gate and layers it by table depth (for
/// programs that do not come from a [`Circuit`], e.g. the S-box AES).
pub struct ProgramBuilder {
    num_wires: u32,
    depth: Vec<u32>,
    table: TableFn,
    gates: Vec<(u32, Pending)>,
    inputs: Vec<Vec<u32>>,
}

impl ProgramBuilder {
    /// An empty program whose table gates compute `table`.
    pub fn new(table: TableFn) -> Self {
        ProgramBuilder {
            num_wires: 0,
            depth: Vec::new(),
            table,
            gates: Vec::new(),
            inputs: Vec::new(),
        }
    }
    fn wire(&mut self, depth: u32) -> u32 {
        self.num_wires += 1;
        self.depth.push(depth);
        self.num_wires - 1
    }
    /// A new input group of `width` wires.
    pub fn input(&mut self, width: usize) -> Vec<u32> {
        let g: Vec<u32> = (0..width).map(|_| self.wire(0)).collect();
        self.inputs.push(g.clone());
        g
    }
    /// `a ⊕ b`.
    pub fn xor(&mut self, a: u32, b: u32) -> u32 {
        let d = self.depth[a as usize].max(self.depth[b as usize]);
        let o = self.wire(d);
        self.gates.push((d, Ok(Lin::Xor(a, b, o))));
        o
    }
    /// `¬a`.
    pub fn not(&mut self, a: u32) -> u32 {
        let d = self.depth[a as usize];
        let o = self.wire(d);
        self.gates.push((d, Ok(Lin::Not(a, o))));
        o
    }
    /// A table gate on `ins` (`n_in` wires, bit j = wire j).
    pub fn table(&mut self, ins: &[u32]) -> Vec<u32> {
        assert_eq!(ins.len(), self.table.n_in as usize, "table arity");
        let d = ins
            .iter()
            .map(|&w| self.depth[w as usize])
            .max()
            .unwrap_or(0)
            + 1;
        let outs: Vec<u32> = (0..self.table.n_out).map(|_| self.wire(d)).collect();
        self.gates.push((d, Err((ins.to_vec(), outs.clone()))));
        outs
    }
    /// Finishes with the given output groups.
    pub fn finish(self, outputs: Vec<Vec<u32>>) -> Program {
        let max = self.depth.iter().copied().max().unwrap_or(0) as usize;
        let mut layers: Vec<Layer> = (0..=max).map(|_| Layer::default()).collect();
        for (d, g) in self.gates {
            match g {
                Ok(lin) => layers[d as usize].linear.push(lin),
                Err((ins, outs)) => {
                    let l = &mut layers[d as usize - 1];
                    l.table_ins.extend(ins);
                    l.table_outs.extend(outs);
                }
            }
        }
        let mut first = 0;
        for l in &mut layers {
            l.first_table = first;
            first += l.tables(&self.table);
        }
        Program {
            num_wires: self.num_wires,
            table: self.table,
            layers,
            inputs: self.inputs,
            outputs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_program_matches_circuit() {
        let c = brickyard_circuit::builtin("add8").unwrap();
        let p = Program::from_circuit(&c);
        assert_eq!(p.table_count(), c.and_count());
        assert_eq!(p.table_layers() as u32, c.and_depth());
        for (a, b) in [(3u64, 250u64), (255, 255), (17, 0)] {
            let bits = |x: u64| (0..8).map(|i| (x >> i) & 1 == 1).collect::<Vec<_>>();
            let inp = vec![bits(a), bits(b)];
            assert_eq!(p.eval(&inp).unwrap(), c.eval(&inp).unwrap());
        }
    }
}
