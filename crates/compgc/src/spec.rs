//! The JSON linking format: how a function is assembled from components.
//!
//! Reconstructed from Sec. 5 of Groce–Ledger–Malozemoff–Yerukhimovich: the
//! file names the component types and how many instances of each the
//! function uses (`components`; instances get function-local ids `gc_id`
//! in listing order), maps party inputs onto component input wires
//! (`input_mapping`), lists `EVAL` / `CHAIN` `instructions` in evaluation
//! order (CHAIN copies an inclusive output-wire range of one component to an
//! input-wire range of another), and says which component output wires are
//! the function's `output`. Wire indices are component-local: input wire
//! `k` is bit `k` of the component's input groups concatenated, output wire
//! `k` likewise. See `docs/protocols/compgc.md` for an example.
//!
//! This module only parses; [`super::function::Function::new`] validates.

use serde::{Deserialize, Serialize};

/// A whole spec file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// Sizes, for a cross-check, and the garbler's plaintext transform.
    pub metadata: Metadata,
    /// Component types and instance counts.
    pub components: Vec<ComponentEntry>,
    /// User-facing input groups (default: one per party).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<InputGroup>,
    /// Party input bits → component input wires.
    pub input_mapping: Vec<InputMap>,
    /// Constant bits → component input wires (Alice sends their labels).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<ConstMap>,
    /// `EVAL` and `CHAIN`, in evaluation order.
    pub instructions: Vec<Instruction>,
    /// Component output wires that form the function's output.
    pub output: Vec<OutputMap>,
}

/// `metadata`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// Human-readable name.
    #[serde(default)]
    pub name: String,
    /// Garbler input bits (after the transform): input indices `0..n`.
    pub garbler_inputs: usize,
    /// Evaluator input bits: input indices `garbler_inputs..+n`.
    pub evaluator_inputs: usize,
    /// Output bits.
    pub outputs: usize,
    /// A circuit (one input group, one output group) the garbler applies to
    /// her user-facing input in the clear before mapping it, e.g.
    /// `aes128-key-schedule`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garbler_transform: Option<String>,
}

/// One entry of `components`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentEntry {
    /// Component type (see [`super::components`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// Instances of it the function uses.
    pub num: usize,
}

/// Which party provides a user-facing input group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpecParty {
    /// Alice.
    Garbler,
    /// Bob.
    Evaluator,
}

/// One user-facing input group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputGroup {
    /// Owner.
    pub party: SpecParty,
    /// Group name.
    pub name: String,
    /// Bits.
    pub width: usize,
}

/// One entry of `input_mapping` (ranges inclusive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputMap {
    /// First input index (garbler bits first, then evaluator bits).
    pub start_input_idx: usize,
    /// Last input index.
    pub end_input_idx: usize,
    /// Destination component.
    pub gc_id: usize,
    /// First destination input wire.
    pub start_wire_idx: usize,
    /// Last destination input wire.
    pub end_wire_idx: usize,
}

/// One entry of `constants`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstMap {
    /// Bit string, character `k` for wire `start_wire_idx + k`.
    pub value: String,
    /// Destination component.
    pub gc_id: usize,
    /// First destination input wire.
    pub start_wire_idx: usize,
    /// Last destination input wire.
    pub end_wire_idx: usize,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", deny_unknown_fields)]
pub enum Instruction {
    /// Evaluate a component (all its input wires must be set).
    #[serde(rename = "EVAL")]
    Eval {
        /// The component.
        gc_id: usize,
    },
    /// Link output wires of an evaluated component to input wires of a
    /// component not evaluated yet.
    #[serde(rename = "CHAIN")]
    Chain {
        /// Source component.
        from_gc_id: usize,
        /// First source output wire.
        from_wire_id_start: usize,
        /// Last source output wire.
        from_wire_id_end: usize,
        /// Destination component.
        to_gc_id: usize,
        /// First destination input wire.
        to_wire_id_start: usize,
        /// Last destination input wire.
        to_wire_id_end: usize,
    },
}

/// One entry of `output`. Consecutive entries with the same `name` form one
/// output group (the first entry's wires are its low bits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputMap {
    /// Output group name (default `out<i>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Source component.
    pub gc_id: usize,
    /// First output wire.
    pub start_wire_idx: usize,
    /// Last output wire.
    pub end_wire_idx: usize,
}
