//! XOR-homomorphic UC commitments from OT, a PRG and a linear code.
#![deny(missing_docs)]

#[cfg(not(target_endian = "little"))]
compile_error!("brickyard-commit casts u64 rows to wire bytes and assumes a little-endian target");

mod alloc;
mod bch;
#[cfg(test)]
mod cheat;
pub mod code;
pub mod committer;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod material;
mod open_committer;
mod open_receiver;
mod par;
pub mod params;
pub mod program;
pub mod receiver;
mod sets;
mod sliced;
mod wire;

pub use committer::{Committer, PendingCommit};
pub use material::{CommitterState, ReceiverState};
pub use program::{CheckBatch, OpenBatch, XorProgram};
pub use receiver::{PendingReceive, Receiver};
pub use sets::ItemSets;
pub mod bench;
#[cfg(test)]
mod tests;
