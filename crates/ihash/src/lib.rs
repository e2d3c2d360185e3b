//! XOR-homomorphic interactive hash IHash_{ℓ,σ} (Zhu–Huang, JIMU, Sec. 4.2).
//!
//! Alice (sender) i-hashes messages of ℓ symbols of GF(2^σ); Bob (receiver)
//! keeps ⟨m⟩ = the w symbols of m's systematic Reed–Solomon codeword at his
//! secret watch set W, verifies any claimed message against it on his own,
//! and ⟨a⟩ ⊕ ⟨b⟩ = ⟨a ⊕ b⟩. Steps of the paper → code:
//! * Setup (w-out-of-n OT): [`setup`] via [`Sender::setup`] / [`Receiver::setup`];
//! * Hash Step 1 (PRG rows, parity corrections): [`Sender::hash_random`],
//!   [`Receiver::hash_random`]; Step 2 (consistency check): [`check`] and the
//!   end of those two; Step 3 (chosen messages): `hash_chosen`;
//! * Verify: [`Verifier::verify`]; parameters: [`Params`].
#![deny(missing_docs)]

pub mod bench;
mod binom;
#[cfg(feature = "adversary")]
mod cheat;
pub mod check;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod layout;
pub mod params;
pub mod receiver;
pub mod rs;
pub mod sender;
pub mod setup;
mod shamir;
pub mod verdict;
pub mod verifier;

#[cfg(feature = "adversary")]
pub use cheat::Cheat;
pub use layout::{xor_into, Rows};
pub use params::Params;
pub use receiver::{ChosenTranscript, Receiver};
pub use rs::Code;
pub use sender::{replay_random, Sender};
pub use setup::SeedImages;
pub use verifier::Verifier;

/// The cheat type when the `adversary` feature is on, uninhabited otherwise.
#[cfg(feature = "adversary")]
pub(crate) type CheatOpt = Cheat;
/// The cheat type when the `adversary` feature is on, uninhabited otherwise.
#[cfg(not(feature = "adversary"))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum CheatOpt {}
