//! `jimu`: building blocks of JIMU (Zhu–Huang, Asiacrypt 2017) that live at
//! the protocol layer. See `docs/protocols/jimu.md`.
//!
//! | paper | code |
//! |---|---|
//! | Lemma 6.1 (entropy left after Compress) | [`compress_bound`] |
//! | Sec. 6.3 (cut-and-choose `B`, `T`) | [`params`] |
//! | Sec. 5.1 Setup, the random oracle H (perm seeds, D_i, seed images) | [`seeds`] |
//! | Sec. 2.2, 6.2 (256/384-bit half-gates, Compress) | `brickyard_garble::wide` |
//! | Sec. 5.1 the protocol (Setup … Output) | [`protocol`] |
#![deny(missing_docs)]

pub mod cheat;
pub mod compress_bound;
pub mod delta_zk;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod params;
pub mod protocol;
pub mod seeds;

pub use cheat::{Cheat, Cheats};
pub use params::CutAndChoose;
pub use protocol::party::{new_party, new_party_sized, JimuAlice, JimuBob};
pub use protocol::setup::STEP_5B;
pub use protocol::store::PoolSize;
pub use protocol::JimuOptions;

/// Symbols `ℓ_w` of a wire label over GF(2^8) for computational security
/// `k` (Sec. 6.2, Lemma 6.1): 32 (256-bit labels) for k = 88, 48 (384-bit)
/// for k = 127; anything else is refused.
pub fn label_symbols(k: u32) -> brickyard_core::Result<(u32, u32)> {
    match k {
        88 => Ok((32, 21)),
        127 => Ok((48, 32)),
        _ => Err(brickyard_core::Error::config(format!(
            "jimu: k = {k} (the paper's settings are 88 and 127)"
        ))),
    }
}
