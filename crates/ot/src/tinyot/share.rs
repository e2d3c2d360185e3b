//! Authenticated shares ⟦x⟧ in the TinyOT format (NNOB12; TinyTable Sec. 4).
//!
//! `x = x_A ⊕ x_B`. Each party holds its share bit, the IT-MAC on it under
//! the *peer's* global key, and its own key for the peer's share:
//! `M_A[x_A] = K_B[x_A] ⊕ x_A·Δ_B` (held by A) and symmetrically for B.
//! MACs are XOR-linear, so ⟦x⟧ ⊕ ⟦y⟧ and public scalings are local.

use brickyard_core::Block;
use serde::{Deserialize, Serialize};

/// Which side of the symmetric protocol this party plays (fixes message
/// order and the role-dependent bit of Δ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    /// Party A (speaks first).
    Alice,
    /// Party B.
    Bob,
}

/// My half of an authenticated bit ⟦x⟧ (the output of F_aBit on both
/// sides, paired): my share, my MAC on it, my key for the peer's share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthShare {
    /// My additive share `x_me`.
    pub bit: bool,
    /// `M[x_me] = K_peer[x_me] ⊕ x_me·Δ_peer`.
    pub mac: Block,
    /// `K_me[x_peer]`: the peer's MAC is `K_me[x_peer] ⊕ x_peer·Δ_me`.
    pub key: Block,
}

impl AuthShare {
    /// ⟦x⟧ ⊕ ⟦y⟧ (local).
    #[inline]
    pub fn xor(self, o: AuthShare) -> AuthShare {
        AuthShare {
            bit: self.bit ^ o.bit,
            mac: self.mac ^ o.mac,
            key: self.key ^ o.key,
        }
    }

    /// `c·⟦x⟧` for a public bit `c` (local).
    #[inline]
    pub fn scale(self, c: bool) -> AuthShare {
        AuthShare {
            bit: self.bit & c,
            mac: self.mac.and_bit(c),
            key: self.key.and_bit(c),
        }
    }
}

/// An authenticated AND triple ⟦x⟧, ⟦y⟧, ⟦z = x·y⟧ (the output of F_aAND).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AndTriple {
    /// ⟦x⟧, uniformly random.
    pub x: AuthShare,
    /// ⟦y⟧, uniformly random.
    pub y: AuthShare,
    /// ⟦x·y⟧.
    pub z: AuthShare,
}

impl AndTriple {
    /// `[x, y, z]`, the layout TinyTable's preprocessing uses.
    pub fn to_array(self) -> [AuthShare; 3] {
        [self.x, self.y, self.z]
    }
}
