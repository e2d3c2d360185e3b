//! The composed plain circuit of a function: what the linked components
//! compute, for the plaintext evaluator, for `RunConfig` (input and output
//! groups, the run digest) and for the naive baseline that garbles it whole.

use super::function::{Function, Step};
use super::spec::SpecParty;
use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder, Gate};
use brickyard_core::{Error, Result};
use brickyard_driver::RunConfig;
use std::sync::Arc;

/// Copies `c` into `b` with its input wires bound to `inputs` (all groups
/// concatenated); returns its output bits (all groups concatenated).
fn inline(b: &mut CircuitBuilder, c: &Circuit, inputs: &[Bit]) -> Vec<Bit> {
    let mut w: Vec<Bit> = vec![Bit::ZERO; c.num_wires as usize];
    for (wire, &bit) in c.inputs.iter().flat_map(|g| &g.wires).zip(inputs) {
        w[*wire as usize] = bit;
    }
    for g in &c.gates {
        match *g {
            Gate::Xor { a, b: y, out } => w[out as usize] = b.xor_bit(w[a as usize], w[y as usize]),
            Gate::And { a, b: y, out } => w[out as usize] = b.and_bit(w[a as usize], w[y as usize]),
            Gate::Inv { a, out } => w[out as usize] = !w[a as usize],
        }
    }
    c.outputs
        .iter()
        .flat_map(|g| &g.wires)
        .map(|&x| w[x as usize])
        .collect()
}

impl Function {
    /// The composed circuit: user-facing input groups in spec order, the
    /// garbler transform, every component inlined in EVAL order with CHAINs
    /// as wire aliases, and the output groups.
    pub fn flatten(&self) -> Result<Circuit> {
        let mut b = CircuitBuilder::new();
        let mut garbler: Vec<Bit> = Vec::new();
        let mut evaluator: Vec<Bit> = Vec::new();
        for g in &self.groups {
            let v = b.input(&g.name, g.width);
            match g.party {
                SpecParty::Garbler => garbler.extend(v.iter()),
                SpecParty::Evaluator => evaluator.extend(v.iter()),
            }
        }
        if let Some(t) = &self.transform {
            garbler = inline(&mut b, t, &garbler);
        }
        let mut ins: Vec<Vec<Bit>> = self
            .gc_type
            .iter()
            .map(|&t| vec![Bit::ZERO; self.types[t as usize].inputs()])
            .collect();
        let mut outs: Vec<Vec<Bit>> = vec![Vec::new(); self.instances()];
        for &(i, d) in &self.alice_dests {
            ins[d.gc as usize][d.wire as usize] = garbler[i as usize];
        }
        for &(e, d) in &self.bob_ot {
            ins[d.gc as usize][d.wire as usize] = evaluator[e as usize];
        }
        for &(j, d) in &self.bob_links {
            let e = self.bob_ot[j as usize].0;
            ins[d.gc as usize][d.wire as usize] = evaluator[e as usize];
        }
        for &(v, d) in &self.consts {
            ins[d.gc as usize][d.wire as usize] = Bit::constant(v);
        }
        for s in &self.steps {
            match *s {
                Step::Eval(g) => {
                    let c = &self.types[self.gc_type[g as usize] as usize].circuit;
                    outs[g as usize] = inline(&mut b, c, &ins[g as usize]);
                }
                Step::Chain {
                    from,
                    from_wire,
                    to,
                    to_wire,
                    len,
                } => {
                    for k in 0..len as usize {
                        ins[to as usize][to_wire as usize + k] =
                            outs[from as usize][from_wire as usize + k];
                    }
                }
            }
        }
        let mut at = 0;
        for (name, width) in &self.output_groups {
            let bits: BitVec = self.outputs[at..at + width]
                .iter()
                .map(|&(g, w)| outs[g as usize][w as usize])
                .collect();
            b.output(name, &bits);
            at += width;
        }
        b.try_finish()
            .map_err(|e| Error::config(format!("compgc: cannot flatten `{}`: {e}", self.name)))
    }

    /// The run configuration of this function: the flattened circuit, Alice
    /// owning the garbler groups and Bob the evaluator groups.
    pub fn run_config(&self) -> Result<RunConfig> {
        let circuit = self.flatten()?;
        let by = |p: SpecParty| -> Vec<usize> {
            self.groups
                .iter()
                .enumerate()
                .filter(|(_, g)| g.party == p)
                .map(|(i, _)| i)
                .collect()
        };
        let mut cfg = RunConfig::new(Arc::new(circuit))?;
        cfg.alice_groups = by(SpecParty::Garbler);
        cfg.bob_groups = by(SpecParty::Evaluator);
        cfg.validate()?;
        Ok(cfg)
    }
}
