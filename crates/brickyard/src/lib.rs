//! Brickyard: secure two-party computation (2PC) in the offline/online
//! setting.
//!
//! Alice and Bob compute `f(x, y)` on private inputs and learn only the
//! output. This crate is the entry point for programs: pick a protocol by
//! name, load or build a circuit, and run one party over a [`Channel`] (or
//! both parties in one process for tests), optionally from preprocessing
//! kept in a [`Store`]. It is a thin layer over the phase driver of
//! `brickyard-protocols`; every run reports the same per-phase table.
//!
//! ```
//! use brickyard::{net, Computation};
//!
//! // 5 + 7 on the builtin 32-bit adder: Alice owns input group 0, Bob group 1.
//! let c = Computation::builtin("yao", "add32")?;
//! let run = c.run_local(
//!     &[brickyard::bits(5, 32)],
//!     &[brickyard::bits(7, 32)],
//!     net::memory("memory"),
//! )?;
//! assert_eq!(brickyard::to_u128(&run.bob_outputs[0][0]), Some(12));
//! println!("{}", run.report.table());
//! # Ok::<(), brickyard::Error>(())
//! ```
//!
//! Where to go next: [`Computation`] (one run's parameters and the ways to
//! run it), [`protocols`] (what is available), [`circuit`] (loading and
//! building circuits, value conversions), [`net`] (channels), and
//! [`StoreLocation`] (preprocess now, compute later).
//!
//! Errors are [`Error`] values whose variant says what went wrong: a
//! detected cheat is `Error::Cheating { check }` naming the failed check,
//! a bad run configuration is `Error::Config`, and so on.
#![deny(missing_docs)]

pub mod circuit;
mod computation;
pub mod net;
mod protocol;
mod store;

pub use circuit::{bits, to_u128};
pub use computation::Computation;
pub use protocol::{protocols, ProtocolInfo};
pub use store::StoreLocation;

pub use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder};
pub use brickyard_core::{Channel, ChannelStats, Error, Result};
pub use brickyard_protocols::driver::{LocalNet, LocalPhase, LocalRun, PartyRun, PhaseSet};
pub use brickyard_protocols::report::{OnlineStats, PhaseStats, Report, PHASE_NAMES};
pub use brickyard_protocols::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
pub use brickyard_store::{Store, StoreInfo};

/// The layers below this crate, for what the facade does not cover
/// (protocol-specific options such as TinyTable's MAC scheme, cheating
/// strategies, store internals). Their APIs change more often than this
/// crate's.
pub mod layers {
    pub use brickyard_circuit as circuit;
    pub use brickyard_core as core;
    pub use brickyard_protocols as protocols;
    pub use brickyard_store as store;
}
