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
    /// `H2(W)` (Sec. 5, "Additional optimizations in the random-oracle
    /// model"): the commitment to a label of an input wire that is not
    /// Alice's, position `pos` of `wire` in bundle `j`, hashed with an
    /// all-zero `r`. A label (`λ ⊕ W`) is a uniform 128-bit string, and the
    /// other label of the wire differs from the one Bob learns by the
    /// unknown Δ, so the hash hides it without randomness; binding is
    /// collision resistance as for `commit`. The tag keeps H2 apart from H.
    LabelH2 {
        /// Bundle index.
        j: u64,
        /// Input wire.
        wire: u32,
        /// 0 or 1.
        pos: u8,
    },
}

const CONTEXT: &str = "brickyard lindell-riva ROM commitment v1";

/// The derive-key hasher of [`CONTEXT`], built once: deriving the context
/// key is a BLAKE3 compression of its own, as costly as hashing a label
/// commitment's whole input, so every commitment clones this state.
static BASE: std::sync::LazyLock<blake3::Hasher> =
    std::sync::LazyLock::new(|| blake3::Hasher::new_derive_key(CONTEXT));

/// `H(role ‖ value; r)`.
pub fn commit(role: Role, value: &[u8], r: &Opening) -> Commitment {
    // The role's bytes are gathered first so that the hasher sees one
    // short update (a label commitment's whole input is one 64-byte block).
    let mut head = [0u8; 2 + 8 + 4 + 8];
    let n = match role {
        Role::Selection => 1,
        Role::Challenge(j) => {
            head[0] = 1;
            head[1..9].copy_from_slice(&j.to_le_bytes());
            9
        }
        Role::Split { j, i, side } => {
            head[..2].copy_from_slice(&[2, side]);
            head[2..10].copy_from_slice(&j.to_le_bytes());
            head[10..14].copy_from_slice(&i.to_le_bytes());
            14
        }
        Role::Seed(j) => {
            head[0] = 3;
            head[1..9].copy_from_slice(&j.to_le_bytes());
            9
        }
        Role::Lambda(j) => {
            head[0] = 4;
            head[1..9].copy_from_slice(&j.to_le_bytes());
            9
        }
        Role::Label { j, wire, pos } => {
            head[..2].copy_from_slice(&[5, pos]);
            head[2..10].copy_from_slice(&j.to_le_bytes());
            head[10..14].copy_from_slice(&wire.to_le_bytes());
            14
        }
        Role::Output(j) => {
            head[0] = 6;
            head[1..9].copy_from_slice(&j.to_le_bytes());
            9
        }
        Role::LabelH2 { j, wire, pos } => {
            head[..2].copy_from_slice(&[7, pos]);
            head[2..10].copy_from_slice(&j.to_le_bytes());
            head[10..14].copy_from_slice(&wire.to_le_bytes());
            14
        }
    };
    head[n..n + 8].copy_from_slice(&(value.len() as u64).to_le_bytes());
    let mut h = BASE.clone();
    if value.len() <= 64 {
        // Role, length, value and r in one buffer: one update.
        let mut buf = [0u8; 22 + 64 + 16];
        let mut at = n + 8;
        buf[..at].copy_from_slice(&head[..at]);
        buf[at..at + value.len()].copy_from_slice(value);
        at += value.len();
        buf[at..at + 16].copy_from_slice(r);
        h.update(&buf[..at + 16]);
    } else {
        h.update(&head[..n + 8]);
        h.update(value);
        h.update(r);
    }
    Commitment(*h.finalize().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commitment is `H(role ‖ len ‖ value ‖ r)` in derive-key mode,
    /// byte for byte the same as hashing the pieces one by one.
    #[test]
    fn commit_hashes_role_length_value_and_r() {
        let r = [7u8; 16];
        for value in [&[1u8; 16][..], &[2u8; 64][..], &[3u8; 65][..], &[][..]] {
            let role = Role::Label {
                j: 5,
                wire: 9,
                pos: 1,
            };
            let mut h = blake3::Hasher::new_derive_key(CONTEXT);
            h.update(&[5, 1]);
            h.update(&5u64.to_le_bytes());
            h.update(&9u32.to_le_bytes());
            h.update(&(value.len() as u64).to_le_bytes());
            h.update(value);
            h.update(&r);
            assert_eq!(commit(role, value, &r).0, *h.finalize().as_bytes());
        }
        // Roles are separated.
        assert_ne!(
            commit(Role::Seed(1), &[0; 16], &r),
            commit(Role::Lambda(1), &[0; 16], &r)
        );
    }
}
