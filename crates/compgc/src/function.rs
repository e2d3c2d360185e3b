//! A validated function spec, lowered to what the two parties execute.
//!
//! Validation happens once, here, so the online code can index without
//! checks: every component input wire has exactly one source (party input,
//! constant or CHAIN), every component is evaluated exactly once, and no
//! instruction reads a component before its EVAL. Both parties lower the
//! same spec (checked by digest at the start of the online phase), so the
//! order in which Alice sends labels is implied and needs no framing.

use super::components::ComponentType;
use super::error::SpecError;
use super::spec::{Instruction, SpecFile, SpecParty};
use brickyard_circuit::Circuit;
use std::sync::Arc;

/// Upper bound on instances per function: keeps a hostile spec from
/// allocating without bound before anything is checked.
const MAX_INSTANCES: usize = 1 << 24;

/// A component input wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dest {
    /// Function-local component id.
    pub gc: u32,
    /// Input wire of that component.
    pub wire: u32,
}

/// One lowered instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Evaluate component `gc`.
    Eval(u32),
    /// Link `len` output wires of `from` (from `from_wire`) to input wires
    /// of `to` (from `to_wire`): one link label per wire.
    Chain {
        /// Source component.
        from: u32,
        /// First source output wire.
        from_wire: u32,
        /// Destination component.
        to: u32,
        /// First destination input wire.
        to_wire: u32,
        /// Wires.
        len: u32,
    },
}

/// A user-facing input group of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserGroup {
    /// Owner.
    pub party: SpecParty,
    /// Name.
    pub name: String,
    /// Bits.
    pub width: usize,
}

/// A garbler transform computed in the clear: `None` for a wrong width.
pub type NativeTransform = fn(&[bool]) -> Option<Vec<bool>>;

/// A validated, lowered function.
#[derive(Clone)]
pub struct Function {
    /// Name from the metadata.
    pub name: String,
    /// Distinct component types, in order of first appearance.
    pub types: Vec<ComponentType>,
    /// Per component id: index into `types`.
    pub gc_type: Vec<u32>,
    /// Per component id: which of this function's instances of its type it is.
    pub gc_slot: Vec<u32>,
    /// Instances per type.
    pub type_counts: Vec<usize>,
    /// The garbler's plaintext transform, if any.
    pub transform: Option<Arc<Circuit>>,
    /// The same transform in the clear, where one exists
    /// ([`super::keysched::expand_bits`]): Alice applies it in every
    /// execution, and gate-by-gate evaluation of the circuit costs more
    /// than the rest of her online work.
    pub transform_native: Option<NativeTransform>,
    /// User-facing input groups, in circuit order.
    pub groups: Vec<UserGroup>,
    /// Garbler bits after the transform.
    pub garbler_bits: usize,
    /// Evaluator bits.
    pub evaluator_bits: usize,
    /// Garbler bit → component input wire, one label each.
    pub alice_dests: Vec<(u32, Dest)>,
    /// Evaluator bit → its first component input wire, one OT each.
    pub bob_ot: Vec<(u32, Dest)>,
    /// Further uses of an evaluator bit: (index into `bob_ot`, wire), one
    /// link label each.
    pub bob_links: Vec<(u32, Dest)>,
    /// Constant → component input wire, one label each.
    pub consts: Vec<(bool, Dest)>,
    /// Instructions in evaluation order.
    pub steps: Vec<Step>,
    /// Output bits: (component, output wire).
    pub outputs: Vec<(u32, u32)>,
    /// Output groups: (name, width).
    pub output_groups: Vec<(String, usize)>,
    /// BLAKE3 of the canonical spec: both parties must run the same one.
    pub digest: [u8; 32],
}

fn range(what: &str, start: usize, end: usize, limit: usize) -> Result<usize, SpecError> {
    if start > end || end >= limit {
        return Err(SpecError::IndexOutOfRange(format!(
            "{what}: range {start}..={end} is not within 0..{limit}"
        )));
    }
    Ok(end - start + 1)
}

fn same_len(what: String, from: usize, to: usize) -> Result<(), SpecError> {
    if from != to {
        return Err(SpecError::RangeLengthMismatch { what, from, to });
    }
    Ok(())
}

fn drive(driven: &mut [Vec<bool>], g: usize, w: usize) -> Result<Dest, SpecError> {
    let slot = &mut driven[g][w];
    if *slot {
        return Err(SpecError::WireChainedTwice { gc_id: g, wire: w });
    }
    *slot = true;
    Ok(Dest {
        gc: g as u32,
        wire: w as u32,
    })
}

fn parse_bits(s: &str) -> Result<Vec<bool>, SpecError> {
    let body = s.strip_prefix('b').unwrap_or(s);
    body.chars()
        .map(|c| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            _ => Err(SpecError::BadConstant(format!(
                "`{s}` is not a bit string (characters 0/1, optional leading b)"
            ))),
        })
        .collect()
}

impl Function {
    /// Parses and validates a JSON spec.
    pub fn from_json(bytes: &[u8]) -> Result<Function, SpecError> {
        let spec: SpecFile =
            serde_json::from_slice(bytes).map_err(|e| SpecError::Json(e.to_string()))?;
        Function::new(&spec, &[])
    }

    /// Validates a parsed spec. `extra` are component types known by name
    /// besides the resolvable ones (e.g. a whole circuit run as one).
    pub fn new(spec: &SpecFile, extra: &[ComponentType]) -> Result<Function, SpecError> {
        let md = &spec.metadata;
        let mut types: Vec<ComponentType> = Vec::new();
        let mut type_counts: Vec<usize> = Vec::new();
        let mut gc_type = Vec::new();
        let mut gc_slot = Vec::new();
        for entry in &spec.components {
            if gc_type.len() + entry.num > MAX_INSTANCES {
                return Err(SpecError::Metadata(format!(
                    "more than {MAX_INSTANCES} component instances"
                )));
            }
            let t = match types.iter().position(|t| t.name == entry.kind) {
                Some(t) => t,
                None => {
                    let ty = match extra.iter().find(|t| t.name == entry.kind) {
                        Some(t) => t.clone(),
                        None => ComponentType::resolve(&entry.kind)
                            .map_err(|e| SpecError::UnknownComponent(e.to_string()))?,
                    };
                    types.push(ty);
                    type_counts.push(0);
                    types.len() - 1
                }
            };
            for _ in 0..entry.num {
                gc_type.push(t as u32);
                gc_slot.push(type_counts[t] as u32);
                type_counts[t] += 1;
            }
        }
        let n_gc = gc_type.len();
        if n_gc == 0 {
            return Err(SpecError::Metadata("no component instances".into()));
        }
        let ins = |g: usize| types[gc_type[g] as usize].inputs();
        let outs = |g: usize| types[gc_type[g] as usize].outputs();
        let gc = |g: usize| -> Result<usize, SpecError> {
            if g < n_gc {
                Ok(g)
            } else {
                Err(SpecError::GcIdOutOfRange {
                    gc_id: g,
                    count: n_gc,
                })
            }
        };

        // The transform and the user-facing groups.
        let transform = match &md.garbler_transform {
            None => None,
            Some(name) => {
                let c = super::components::resolve_circuit(name)
                    .map_err(|e| SpecError::Transform(e.to_string()))?;
                if c.inputs.len() != 1 || c.outputs.len() != 1 {
                    return Err(SpecError::Transform(format!(
                        "`{name}` must have one input and one output group"
                    )));
                }
                if c.outputs[0].width() != md.garbler_inputs {
                    return Err(SpecError::Transform(format!(
                        "`{name}` outputs {} bits but metadata.garbler_inputs is {}",
                        c.outputs[0].width(),
                        md.garbler_inputs
                    )));
                }
                Some(Arc::new(c))
            }
        };
        let user_garbler = transform
            .as_ref()
            .map_or(md.garbler_inputs, |t| t.inputs[0].width());
        let groups: Vec<UserGroup> = if spec.inputs.is_empty() {
            [
                (SpecParty::Garbler, "garbler", user_garbler),
                (SpecParty::Evaluator, "evaluator", md.evaluator_inputs),
            ]
            .into_iter()
            .filter(|g| g.2 > 0)
            .map(|(party, name, width)| UserGroup {
                party,
                name: name.into(),
                width,
            })
            .collect()
        } else {
            spec.inputs
                .iter()
                .map(|g| UserGroup {
                    party: g.party,
                    name: g.name.clone(),
                    width: g.width,
                })
                .collect()
        };
        for (party, want) in [
            (SpecParty::Garbler, user_garbler),
            (SpecParty::Evaluator, md.evaluator_inputs),
        ] {
            let got: usize = groups
                .iter()
                .filter(|g| g.party == party)
                .map(|g| g.width)
                .sum();
            if got != want {
                return Err(SpecError::Metadata(format!(
                    "{party:?} input groups have {got} bits, metadata says {want}"
                )));
            }
        }

        // Sources of component input wires.
        let mut driven: Vec<Vec<bool>> = (0..n_gc).map(|g| vec![false; ins(g)]).collect();
        let total_in = md.garbler_inputs + md.evaluator_inputs;
        let mut alice_dests = Vec::new();
        let mut bob_ot: Vec<(u32, Dest)> = Vec::new();
        let mut bob_first: Vec<Option<u32>> = vec![None; md.evaluator_inputs];
        let mut bob_links = Vec::new();
        for (i, m) in spec.input_mapping.iter().enumerate() {
            let g = gc(m.gc_id)?;
            let what = format!("input_mapping[{i}]");
            let n_in = range(&what, m.start_input_idx, m.end_input_idx, total_in)?;
            let n_w = range(&what, m.start_wire_idx, m.end_wire_idx, ins(g))?;
            same_len(what, n_in, n_w)?;
            for k in 0..n_in {
                let d = drive(&mut driven, g, m.start_wire_idx + k)?;
                let idx = m.start_input_idx + k;
                if idx < md.garbler_inputs {
                    alice_dests.push((idx as u32, d));
                } else {
                    let e = idx - md.garbler_inputs;
                    match bob_first[e] {
                        None => {
                            bob_first[e] = Some(bob_ot.len() as u32);
                            bob_ot.push((e as u32, d));
                        }
                        Some(j) => bob_links.push((j, d)),
                    }
                }
            }
        }
        let mut consts = Vec::new();
        for (i, c) in spec.constants.iter().enumerate() {
            let g = gc(c.gc_id)?;
            let what = format!("constants[{i}]");
            let n_w = range(&what, c.start_wire_idx, c.end_wire_idx, ins(g))?;
            let bits = parse_bits(&c.value)?;
            if bits.len() != n_w {
                return Err(SpecError::BadConstant(format!(
                    "{what}: {} bits for {n_w} wires",
                    bits.len()
                )));
            }
            for (k, b) in bits.into_iter().enumerate() {
                consts.push((b, drive(&mut driven, g, c.start_wire_idx + k)?));
            }
        }

        // Instructions, in order.
        let mut evaluated = vec![0usize; n_gc];
        let mut steps = Vec::with_capacity(spec.instructions.len());
        for (i, ins_) in spec.instructions.iter().enumerate() {
            match *ins_ {
                Instruction::Eval { gc_id } => {
                    let g = gc(gc_id)?;
                    if evaluated[g] > 0 {
                        return Err(SpecError::EvalCount {
                            gc_id: g,
                            times: evaluated[g] + 1,
                        });
                    }
                    if let Some(w) = driven[g].iter().position(|d| !d) {
                        return Err(SpecError::InputNeverProvided { gc_id: g, wire: w });
                    }
                    evaluated[g] = 1;
                    steps.push(Step::Eval(g as u32));
                }
                Instruction::Chain {
                    from_gc_id,
                    from_wire_id_start,
                    from_wire_id_end,
                    to_gc_id,
                    to_wire_id_start,
                    to_wire_id_end,
                } => {
                    let (f, t) = (gc(from_gc_id)?, gc(to_gc_id)?);
                    let what = format!("instructions[{i}] (CHAIN {f} -> {t})");
                    let n_f = range(&what, from_wire_id_start, from_wire_id_end, outs(f))?;
                    let n_t = range(&what, to_wire_id_start, to_wire_id_end, ins(t))?;
                    same_len(what, n_f, n_t)?;
                    for (g, ok) in [(f, evaluated[f] > 0), (t, evaluated[t] == 0)] {
                        if !ok {
                            return Err(SpecError::ReadsUnevaluated {
                                instruction: i,
                                gc_id: g,
                            });
                        }
                    }
                    for k in 0..n_t {
                        drive(&mut driven, t, to_wire_id_start + k)?;
                    }
                    steps.push(Step::Chain {
                        from: f as u32,
                        from_wire: from_wire_id_start as u32,
                        to: t as u32,
                        to_wire: to_wire_id_start as u32,
                        len: n_t as u32,
                    });
                }
            }
        }
        if let Some(g) = evaluated.iter().position(|&e| e == 0) {
            return Err(SpecError::EvalCount { gc_id: g, times: 0 });
        }

        // Outputs.
        let mut outputs = Vec::new();
        let mut output_groups: Vec<(String, usize)> = Vec::new();
        let mut last_name: Option<&str> = None;
        for (i, o) in spec.output.iter().enumerate() {
            let g = gc(o.gc_id)?;
            let n = range(
                &format!("output[{i}]"),
                o.start_wire_idx,
                o.end_wire_idx,
                outs(g),
            )?;
            outputs.extend((o.start_wire_idx..=o.end_wire_idx).map(|w| (g as u32, w as u32)));
            match (&o.name, last_name) {
                (Some(n1), Some(n0)) if n1 == n0 => {
                    if let Some(last) = output_groups.last_mut() {
                        last.1 += n;
                    }
                }
                _ => output_groups.push((o.name.clone().unwrap_or_else(|| format!("out{i}")), n)),
            }
            last_name = o.name.as_deref();
        }
        if outputs.len() != md.outputs || outputs.is_empty() {
            return Err(SpecError::Metadata(format!(
                "`output` has {} bits, metadata says {} (must be at least 1)",
                outputs.len(),
                md.outputs
            )));
        }
        let mut h = blake3::Hasher::new_derive_key("brickyard compgc function v1");
        h.update(&postcard::to_stdvec(spec).unwrap_or_default());
        for t in &types {
            h.update(&postcard::to_stdvec(&*t.circuit).unwrap_or_default());
        }
        Ok(Function {
            name: md.name.clone(),
            types,
            gc_type,
            gc_slot,
            type_counts,
            transform_native: match md.garbler_transform.as_deref() {
                Some(super::keysched::NAME) => Some(super::keysched::expand_bits),
                _ => None,
            },
            transform,
            groups,
            garbler_bits: md.garbler_inputs,
            evaluator_bits: md.evaluator_inputs,
            alice_dests,
            bob_ot,
            bob_links,
            consts,
            steps,
            outputs,
            output_groups,
            digest: *h.finalize().as_bytes(),
        })
    }

    /// Number of component instances.
    pub fn instances(&self) -> usize {
        self.gc_type.len()
    }

    /// Width of the garbler's user-facing input (before the transform).
    pub fn garbler_user_bits(&self) -> usize {
        self.transform
            .as_ref()
            .map_or(self.garbler_bits, |t| t.inputs[0].width())
    }

    /// Link labels Alice sends per execution (CHAINed wires plus extra uses
    /// of evaluator bits).
    pub fn link_labels(&self) -> usize {
        let chained: usize = self
            .steps
            .iter()
            .map(|s| match s {
                Step::Chain { len, .. } => *len as usize,
                Step::Eval(_) => 0,
            })
            .sum();
        chained + self.bob_links.len()
    }

    /// Applies the garbler transform to Alice's user-facing bits.
    pub fn garbler_spec_bits(&self, user: &[bool]) -> brickyard_core::Result<Vec<bool>> {
        if let Some(native) = self.transform_native {
            return native(user).ok_or_else(|| {
                brickyard_core::Error::config(format!(
                    "garbler transform: {} bits for a 128-bit key",
                    user.len()
                ))
            });
        }
        match &self.transform {
            None => Ok(user.to_vec()),
            Some(t) => Ok(t
                .eval(&[user.to_vec()])
                .map_err(|e| brickyard_core::Error::config(format!("garbler transform: {e}")))?
                .remove(0)),
        }
    }
}
