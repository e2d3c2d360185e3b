//! The Bristol Fashion writer.
//!
//! Bristol Fashion fixes the numbering: inputs are wires `0..n` in group
//! order and outputs are the last wires in output order. The writer therefore
//! renumbers: inputs first, then gate outputs in gate order, except that the
//! gate writing an output wire is numbered into that output's slot at the
//! end. An output slot whose wire cannot be moved there — an input wire, or
//! a wire that already fills an earlier output slot — gets an `EQW` copy
//! gate appended after all other gates. `EQW` is part of Bristol Fashion, so
//! no XOR-with-zero trick is needed; our parser aliases it away again.

use std::fmt::Write;

use crate::ir::{Circuit, Gate, WireId};

/// Writes `c` as Bristol Fashion text.
///
/// `c` should be valid ([`Circuit::validate`]); wires of an invalid circuit
/// that are out of range are written as wire 0 rather than panicking.
pub fn write_bristol_fashion(c: &Circuit) -> String {
    const NONE: WireId = WireId::MAX;
    let n = c.num_wires as usize;
    // 0 = plain, 1 = written by a gate and claimed by an output slot.
    let mut is_gate_out = vec![false; n];
    for g in &c.gates {
        if let Some(s) = is_gate_out.get_mut(g.output() as usize) {
            *s = true;
        }
    }
    let outs: Vec<WireId> = c
        .outputs
        .iter()
        .flat_map(|g| g.wires.iter().copied())
        .collect();
    let n_in = c.input_width();
    let n_out = outs.len();

    // Decide which output slots take a gate's output directly.
    let mut slot_of = vec![NONE; n];
    let mut copies: Vec<(WireId, usize)> = Vec::new(); // (IR wire, slot index)
    for (p, &w) in outs.iter().enumerate() {
        match (is_gate_out.get(w as usize), slot_of.get_mut(w as usize)) {
            (Some(true), Some(s)) if *s == NONE => *s = p as WireId,
            _ => copies.push((w, p)),
        }
    }
    let claimed = c
        .gates
        .iter()
        .filter(|g| slot_of.get(g.output() as usize).is_some_and(|&s| s != NONE))
        .count();
    let internal = c.gates.len() - claimed;
    let total = n_in + internal + n_out;
    let first_out = n_in + internal;

    let mut map = vec![0 as WireId; n];
    for (i, &w) in c.inputs.iter().flat_map(|g| g.wires.iter()).enumerate() {
        if let Some(m) = map.get_mut(w as usize) {
            *m = i as WireId;
        }
    }
    let mut next = n_in;
    for g in &c.gates {
        let o = g.output() as usize;
        let target = match slot_of.get(o) {
            Some(&s) if s != NONE => first_out + s as usize,
            _ => {
                next += 1;
                next - 1
            }
        };
        if let Some(m) = map.get_mut(o) {
            *m = target as WireId;
        }
    }
    let m = |w: WireId| map.get(w as usize).copied().unwrap_or(0);

    let mut s = String::with_capacity(16 * (c.gates.len() + copies.len()) + 64);
    // Writing to a String cannot fail.
    let _ = writeln!(s, "{} {}", c.gates.len() + copies.len(), total);
    let _ = write!(s, "{}", c.inputs.len());
    for g in &c.inputs {
        let _ = write!(s, " {}", g.width());
    }
    let _ = write!(s, "\n{}", c.outputs.len());
    for g in &c.outputs {
        let _ = write!(s, " {}", g.width());
    }
    s.push_str("\n\n");
    for g in &c.gates {
        let _ = match *g {
            Gate::Xor { a, b, out } => writeln!(s, "2 1 {} {} {} XOR", m(a), m(b), m(out)),
            Gate::And { a, b, out } => writeln!(s, "2 1 {} {} {} AND", m(a), m(b), m(out)),
            Gate::Inv { a, out } => writeln!(s, "1 1 {} {} INV", m(a), m(out)),
        };
    }
    for (w, p) in copies {
        let _ = writeln!(s, "1 1 {} {} EQW", m(w), first_out + p);
    }
    s
}
