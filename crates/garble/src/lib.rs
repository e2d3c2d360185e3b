//! Free-XOR half-gates garbling (Zahur–Rosulek–Evans 2015) with
//! point-and-permute, layer at a time.
//!
//! A circuit is compiled once into a [`GarblePlan`]; each garbling walks its
//! AND-depth layers, hashing every layer's ANDs in one TCCR batch so AES sees
//! long runs of blocks. Tables can be streamed ([`garble_streaming`],
//! [`garble_to_channel`], [`evaluate_streaming`]) so memory stays bounded, or
//! kept ([`garble`], [`evaluate`]) for protocols that check or link circuits
//! later. [`garble_and`] / [`eval_and`] expose the very same gate code for
//! LEGO-style independent gates. The scheme, tweak layout and INV
//! convention are specified in `docs/protocols/garbling.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bench;
pub mod decode;
pub mod delta;
pub mod evaluator;
pub mod garbler;
pub mod gate;
pub mod many;
pub mod plan;
pub mod tweak;
mod walk;
pub mod wide;

pub use bench::{bench_garble, bench_plan, GarbleBench};
pub use decode::{decode, decode_checked, Decoding};
pub use delta::Delta;
pub use evaluator::{evaluate, evaluate_streaming, EvalOutput};
pub use garbler::{
    garble, garble_into, garble_into_with, garble_streaming, garble_to_channel, GarbleOutput,
    GarbleScratch, GarbledCircuit, Garbler,
};
pub use gate::{eval_and, eval_ands, garble_and, garble_ands, AndScratch};
pub use many::{evaluate_many, evaluate_many_side_by_side};
pub use plan::GarblePlan;
pub use walk::Keep;

/// The PRG the garbler draws Δ and labels from (re-exported so callers and
/// tests need not know where it lives).
pub use brickyard_core::prg::Prg;
