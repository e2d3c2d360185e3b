//! Why a function spec was refused. A spec is user input (a file): every
//! mistake is one of these, never a panic.

use brickyard_core::Error;

/// A refused function spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// Not JSON of the expected shape.
    Json(String),
    /// `metadata` disagrees with the rest, or a size is zero/out of range.
    Metadata(String),
    /// A component type that does not resolve.
    UnknownComponent(String),
    /// A `gc_id` beyond the instances declared in `components`.
    GcIdOutOfRange {
        /// The id.
        gc_id: usize,
        /// Instances declared.
        count: usize,
    },
    /// A wire or input index beyond its range (or a range with start > end).
    IndexOutOfRange(String),
    /// Two ranges that must have the same length do not.
    RangeLengthMismatch {
        /// Where.
        what: String,
        /// Source length.
        from: usize,
        /// Destination length.
        to: usize,
    },
    /// A component input wire given a value twice (chained, mapped or
    /// constant more than once).
    WireChainedTwice {
        /// Component.
        gc_id: usize,
        /// Input wire.
        wire: usize,
    },
    /// A component is evaluated while one of its input wires has no value.
    InputNeverProvided {
        /// Component.
        gc_id: usize,
        /// Input wire.
        wire: usize,
    },
    /// An instruction reads a component's outputs before its EVAL (or
    /// writes its inputs after it, or the output names an unevaluated one).
    ReadsUnevaluated {
        /// Index of the offending instruction (`usize::MAX` = the output).
        instruction: usize,
        /// Component.
        gc_id: usize,
    },
    /// A component evaluated twice or never.
    EvalCount {
        /// Component.
        gc_id: usize,
        /// How often it is evaluated.
        times: usize,
    },
    /// A constant that is not a bit string of the range's length.
    BadConstant(String),
    /// The garbler transform does not resolve or does not fit.
    Transform(String),
}

impl SpecError {
    /// A stable short name per kind (tests and scripts match on it).
    pub fn kind(&self) -> &'static str {
        match self {
            SpecError::Json(_) => "json",
            SpecError::Metadata(_) => "metadata",
            SpecError::UnknownComponent(_) => "unknown-component",
            SpecError::GcIdOutOfRange { .. } => "gc-id-out-of-range",
            SpecError::IndexOutOfRange(_) => "index-out-of-range",
            SpecError::RangeLengthMismatch { .. } => "range-length-mismatch",
            SpecError::WireChainedTwice { .. } => "wire-chained-twice",
            SpecError::InputNeverProvided { .. } => "input-never-provided",
            SpecError::ReadsUnevaluated { .. } => "reads-unevaluated",
            SpecError::EvalCount { .. } => "eval-count",
            SpecError::BadConstant(_) => "bad-constant",
            SpecError::Transform(_) => "transform",
        }
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Json(m) => write!(f, "not a valid spec: {m}"),
            SpecError::Metadata(m) => write!(f, "metadata: {m}"),
            SpecError::UnknownComponent(m) => write!(f, "{m}"),
            SpecError::GcIdOutOfRange { gc_id, count } => write!(
                f,
                "gc_id {gc_id} out of range: `components` declares {count} instance(s)"
            ),
            SpecError::IndexOutOfRange(m) => write!(f, "{m}"),
            SpecError::RangeLengthMismatch { what, from, to } => write!(
                f,
                "{what}: source range has {from} wire(s), destination range {to}"
            ),
            SpecError::WireChainedTwice { gc_id, wire } => write!(
                f,
                "input wire {wire} of gc {gc_id} is given a value more than once"
            ),
            SpecError::InputNeverProvided { gc_id, wire } => write!(
                f,
                "gc {gc_id} is evaluated but its input wire {wire} is never provided"
            ),
            SpecError::ReadsUnevaluated { instruction, gc_id } => {
                if *instruction == usize::MAX {
                    write!(f, "the output reads gc {gc_id}, which is never evaluated")
                } else {
                    write!(
                        f,
                        "instruction {instruction} violates evaluation order: gc {gc_id} must be evaluated after its inputs are chained and before its outputs are read"
                    )
                }
            }
            SpecError::EvalCount { gc_id, times } => {
                write!(f, "gc {gc_id} is evaluated {times} times (must be once)")
            }
            SpecError::BadConstant(m) => write!(f, "constant: {m}"),
            SpecError::Transform(m) => write!(f, "garbler_transform: {m}"),
        }
    }
}

impl std::error::Error for SpecError {}

impl From<SpecError> for Error {
    fn from(e: SpecError) -> Error {
        Error::Config(format!("compgc spec ({}): {e}", e.kind()))
    }
}
