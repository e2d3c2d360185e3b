//! `yao`: semi-honest Yao with half-gates and preprocessed OT — the baseline
//! the other protocols are measured against. See `docs/protocols/yao.md`.
//!
//! | phase | Alice (garbler) | Bob (evaluator) |
//! |---|---|---|
//! | setup | IKNP sender (base OTs) | IKNP receiver |
//! | independent | random OTs for E × (Bob's input bits), in memory or streamed to the store | same, random choices |
//! | dependent | — (the circuit is garbled online, as in CompGC's "naive" baseline) | — |
//! | online | fresh Δ; on Bob's corrections: his label pairs masked by the OTs, her labels, streamed tables, decoding | corrections `d = y ⊕ c`; derandomise, evaluate, decode |
//!
//! Security: semi-honest only. A malicious Alice can garble a different
//! function; a malicious Bob learns nothing beyond the output, but with
//! `--output both` Alice accepts only output labels that authenticate (the
//! check `output-label-authenticity`).

mod alice;
mod bob;
pub mod material;

pub use alice::YaoAlice;
pub use bob::YaoBob;

use crate::RunConfig;

/// Positions of one role's input wires inside the plan's input order (all
/// groups concatenated in group order).
pub(crate) fn input_positions(cfg: &RunConfig, role: crate::Role) -> Vec<usize> {
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
pub(crate) fn flatten(inputs: &crate::PartyInputs) -> Vec<bool> {
    inputs.iter().flatten().copied().collect()
}

/// Splits decoded output bits into output groups.
pub(crate) fn split_outputs(cfg: &RunConfig, bits: &[bool]) -> crate::Outputs {
    let mut out = Vec::with_capacity(cfg.circuit.outputs.len());
    let mut at = 0;
    for g in &cfg.circuit.outputs {
        out.push(bits[at..at + g.width()].to_vec());
        at += g.width();
    }
    out
}
