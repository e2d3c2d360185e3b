//! Where a party's input and output bits sit in the run's circuit: shared by
//! every protocol that lays the circuit's wires out group by group (yao,
//! compgc, lego).

use crate::{Outputs, PartyInputs, Role, RunConfig};

/// Positions of one role's input wires inside the plan's input order (all
/// groups concatenated in group order).
pub fn input_positions(cfg: &RunConfig, role: Role) -> Vec<usize> {
    let mut starts = Vec::with_capacity(cfg.circuit.inputs.len());
    let mut at = 0;
    for g in &cfg.circuit.inputs {
        starts.push(at);
        at += g.width();
    }
    cfg.groups_of(role)
        .iter()
        .flat_map(|&g| starts[g]..starts[g] + cfg.circuit.inputs[g].width())
        .collect()
}

/// One party's input bits flattened in its group order.
pub fn flatten(inputs: &PartyInputs) -> Vec<bool> {
    inputs.iter().flatten().copied().collect()
}

/// Splits decoded output bits into output groups.
pub fn split_outputs(cfg: &RunConfig, bits: &[bool]) -> Outputs {
    let mut out = Vec::with_capacity(cfg.circuit.outputs.len());
    let mut at = 0;
    for g in &cfg.circuit.outputs {
        out.push(bits[at..at + g.width()].to_vec());
        at += g.width();
    }
    out
}
