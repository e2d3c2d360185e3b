//! KOS OT extension (Keller–Orsini–Scholl, CRYPTO 2015) with the corrected
//! consistency check of the revised ePrint 2015/546: IKNP plus one
//! 128-row mask block per check batch and a per-column universal-hash check
//! over GF(2^128) (see [`columns`] and `docs/protocols/ot.md`, "KOS").
//!
//! The API mirrors [`crate::iknp`] so protocols can switch between the
//! semi-honest and the actively secure extension by type alone. Outputs of
//! a batch are only handed out after its check passed; a failed check is
//! `Cheating { check: "kos-consistency" }` and poisons the session.

pub mod bench;
pub(crate) mod columns;
mod receiver;
mod sender;

pub use columns::CHECK_NAME;
pub use receiver::KosReceiver;
pub use sender::KosSender;

/// OTs per consistency check. Each batch costs one extra flight pair
/// (challenge seed, then the receiver's 129-block answer) and 128 mask
/// OTs; both sides keep the batch's column matrix (16 bytes per OT, 4 MiB)
/// until the check, which is why a batch is bounded.
pub const KOS_BATCH: usize = 1 << 18;
