//! Per-party state as plain serialisable values, so the preprocessing store
//! can persist a session and resume it (commit more, open later) without
//! new base OTs. Everything here is secret: it is zeroized on drop, and
//! `Debug` prints only sizes.

use crate::code::Row;
use brickyard_core::Block;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The committer's session: both base-OT seeds of every position, the next
/// unused PRG block, and for each commitment its message `m_i` and its
/// share `t_i` (= the PRG row of the 0-seeds; see the protocol doc).
#[derive(Clone, Default, Serialize, Deserialize, Zeroize, ZeroizeOnDrop)]
pub struct CommitterState {
    /// `s_j^0` for every code position j.
    pub seeds0: Vec<Block>,
    /// `s_j^1` for every code position j.
    pub seeds1: Vec<Block>,
    /// Global index of the next block of 128 commitments (PRG counter).
    pub next_block: u64,
    /// Committed messages, indexed by commitment id.
    pub msgs: Vec<Block>,
    /// Shares `t_i`, indexed by commitment id.
    pub t: Vec<Row>,
}

/// The receiver's session: its watch bits, the seed it received for every
/// position, the next PRG block, and `w_i = t_i ⊕ (Δ_R ∧ C(m_i))` per
/// commitment.
#[derive(Clone, Default, Serialize, Deserialize, Zeroize, ZeroizeOnDrop)]
pub struct ReceiverState {
    /// Watch bits Δ_R as a row (bit j = choice of base OT j).
    pub watch: Row,
    /// `s_j^{Δ_R[j]}` for every position j.
    pub seeds: Vec<Block>,
    /// Global index of the next block of 128 commitments (PRG counter).
    pub next_block: u64,
    /// `w_i`, indexed by commitment id.
    pub w: Vec<Row>,
}

impl std::fmt::Debug for CommitterState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CommitterState {{ commitments: {}, next_block: {} }}",
            self.msgs.len(),
            self.next_block
        )
    }
}

impl std::fmt::Debug for ReceiverState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ReceiverState {{ commitments: {}, next_block: {} }}",
            self.w.len(),
            self.next_block
        )
    }
}
