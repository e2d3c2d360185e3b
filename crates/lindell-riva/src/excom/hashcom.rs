//! Commitments in the random-oracle model (Sec. 2.1, Sec. 5):
//! `commit(x; r) = ExtractCom(x; r) = H(x; r)` with H = BLAKE3 in
//! derive-key mode and a 128-bit random `r`. Binding is collision
//! resistance of H; hiding and extractability hold when H is modelled as a
//! random oracle (the paper's Theorem 4.1 assumption). Every commitment
//! hashes its role and position, so an opening cannot be moved to another
//! slot.

use serde::{Deserialize, Serialize};

/// A 32-byte commitment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitment(pub [u8; 32]);

/// Randomness of one commitment.
pub type Opening = [u8; 16];

/// What a commitment is to, hashed in so that openings cannot be swapped.
#[derive(Clone, Copy, Debug)]
pub enum Role {
    /// Bob's cut-and-choose selection (σ and seed_π).
    Selection,
    /// Bob's challenge `W_j` for bucket `j`.
    Challenge(u64),
    /// Side `side` of split commitment `i` of message `j`.
    Split {
        /// Message index.
        j: u64,
        /// Split index `1..=s` (stored from 0).
        i: u32,
        /// 0: `m ⊕ r_i`; 1: `r_i`.
        side: u8,
    },
    /// `ExtractCom(seed_j)` of bundle `j` (Fig. A.2).
    Seed(u64),
    /// `ExtractCom(λ_j)` of bundle `j`.
    Lambda(u64),
    /// Position `pos` of input wire `wire`'s label pair in bundle `j`.
    Label {
        /// Bundle index.
        j: u64,
        /// Input wire (position in the circuit's input order).
        wire: u32,
        /// 0 or 1 (for Alice's wires: permuted by the mask `m_j`).
        pos: u8,
    },
    /// The one commitment to all output labels of bundle `j`.
    Output(u64),
}

const CONTEXT: &str = "brickyard lindell-riva ROM commitment v1";

/// `H(role ‖ value; r)`.
pub fn commit(role: Role, value: &[u8], r: &Opening) -> Commitment {
    let mut h = blake3::Hasher::new_derive_key(CONTEXT);
    match role {
        Role::Selection => {
            h.update(&[0]);
        }
        Role::Challenge(j) => {
            h.update(&[1]);
            h.update(&j.to_le_bytes());
        }
        Role::Split { j, i, side } => {
            h.update(&[2, side]);
            h.update(&j.to_le_bytes());
            h.update(&i.to_le_bytes());
        }
        Role::Seed(j) => {
            h.update(&[3]);
            h.update(&j.to_le_bytes());
        }
        Role::Lambda(j) => {
            h.update(&[4]);
            h.update(&j.to_le_bytes());
        }
        Role::Label { j, wire, pos } => {
            h.update(&[5, pos]);
            h.update(&j.to_le_bytes());
            h.update(&wire.to_le_bytes());
        }
        Role::Output(j) => {
            h.update(&[6]);
            h.update(&j.to_le_bytes());
        }
    }
    h.update(&(value.len() as u64).to_le_bytes());
    h.update(value);
    h.update(r);
    Commitment(*h.finalize().as_bytes())
}
