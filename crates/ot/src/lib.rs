//! Brickyard OT: base OT, OT extension (semi-honest IKNP, malicious KOS),
//! Δ-ROT and TinyOT preprocessing.
//!
//! * [`base`] — Masny–Rindal endemic base OT over Ristretto, secure against
//!   malicious parties (seeds every extension and the commitments);
//! * [`iknp`] — IKNP extension: correlated (free-XOR form), random and
//!   chosen-message OT, any batch size, many extensions per session;
//! * [`kos`] — KOS actively secure extension (revised consistency check);
//! * [`delta_rot`] — LEGO's Δ-ROT: leaky k+s-column extension, then
//!   linear randomness extraction (optionally lsb(Δ) = 1);
//! * [`rot`] — preprocessed OT material as plain serialisable values;
//! * [`tinyot`] — authenticated bits and AND triples (TinyOT / WRK17),
//!   Beaver multiplication and MAC-checked opening;
//! * [`beaver`] — online derandomisation of that material;
//! * [`bench`] — the `brickyard bench ot` measurement.
//!
//! Protocol details and message flow: `docs/protocols/ot.md`; hash choices
//! and security caveats: `docs/security.md`.
#![deny(missing_docs)]

#[cfg(feature = "adversary")]
pub mod adversary;
pub mod base;
pub mod beaver;
pub mod bench;
pub mod delta_rot;
mod ext;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod iknp;
pub mod kos;
mod mem;
pub mod rot;
pub mod tinyot;

pub use iknp::{IknpReceiver, IknpSender};
pub use kos::{KosReceiver, KosSender};
pub use rot::{CotReceiverBatch, CotSenderBatch, RotReceiverBatch, RotSenderBatch};
