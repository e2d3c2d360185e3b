//! Real two-party preprocessing (Sec. 4, Fig. 8) — the interface only.
//!
//! Fig. 8 builds the tables from TinyOT-style authenticated shares
//! `⟦x⟧ = (x_A, y_A = α_B·x_A + β_B)` / `(x_B, y_B = α_A·x_B + β_A)`:
//!
//! 1. one AND triple `⟦x⟧, ⟦y⟧, ⟦z = xy⟧` per AND gate;
//! 2. one random `⟦r_w⟧` per input wire and per AND output wire;
//! 3. XOR/NOT masks locally; per AND gate `⟦r_u r_v⟧` by Beaver (open
//!    `r_u + x`, `r_v + y`), then `⟦t_cd⟧ = ⟦r_u r_v⟧ + c⟦r_v⟧ + d⟦r_u⟧ +
//!    cd + ⟦r_o⟧` locally; each party's table entry is its share of `t_cd`,
//!    and the lookup strings are `F(mac^0), F(mac^1)` of the peer's share;
//! 4. open output masks (here: keep them shared and MACed), open input
//!    masks to their owners.
//!
//! The building blocks (aBits, aANDs, Beaver on authenticated shares,
//! batched MAC check) are another helper's work in `crates/ot` and have not
//! landed, so **nothing implements [`TripleSource`] yet** and
//! `Source::Real` is refused with a clear error. This trait is the plug:
//! when the OT crate offers the types, an adapter implements it and the
//! Fig. 8 steps above run against it.

use brickyard_core::{Channel, Result};

/// An authenticated bit share in TinyOT format: my bit, my MAC on it under
/// the peer's key, and my key for the peer's bit of the same sharing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuthShare {
    /// My additive share.
    pub bit: bool,
    /// `α_peer · bit + β_peer` (the peer holds β_peer).
    pub mac: u128,
    /// My `β` for the peer's share.
    pub key: u128,
}

/// A source of TinyOT preprocessing for Fig. 8.
pub trait TripleSource {
    /// My global MAC key `α` (k bits).
    fn alpha(&self) -> u128;
    /// `n` random authenticated bits `⟦r⟧`.
    fn abits(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<AuthShare>>;
    /// `n` authenticated AND triples `(⟦x⟧, ⟦y⟧, ⟦xy⟧)`.
    fn and_triples(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<[AuthShare; 3]>>;
    /// Opens authenticated shares to both parties, checking the peer's MACs
    /// (batched); `Cheating { check }` on a bad MAC.
    fn open(&mut self, ch: &mut Channel, shares: &[AuthShare]) -> Result<Vec<bool>>;
}
