//! Commitments in the random-oracle model (Sec. 2.1, Sec. 5):
//! `commit(x; r) = ExtractCom(x; r) = H(x; r)` with H = BLAKE3 in
//! derive-key mode and a 128-bit random `r`. Binding is collision
//! resistance of H; hiding and extractability hold when H is modelled as a
//! random oracle (the paper's Theorem 4.1 assumption). Every commitment
//! hashes its role and position, so an opening cannot be moved to another
//! slot.

use serde::{Deserialize, Serialize};

/// A 32-byte commitment.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, bytemuck::Pod, bytemuck::Zeroable,
)]
#[repr(transparent)]
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

/// The bytes of `role` (tag and indices), and how many are used.
fn role_head(role: Role) -> ([u8; 14], usize) {
    let mut head = [0u8; 14];
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
    (head, n)
}

/// `H(role ‖ value; r)`.
pub fn commit(role: Role, value: &[u8], r: &Opening) -> Commitment {
    let (head, n) = role_head(role);
    let mut h = BASE.clone();
    if value.len() <= 64 {
        // Role, length, value and r in one buffer: one update (a short
        // commitment's whole input is one 64-byte block).
        let mut buf = [0u8; 22 + 64 + 16];
        buf[..n].copy_from_slice(&head[..n]);
        buf[n..n + 8].copy_from_slice(&(value.len() as u64).to_le_bytes());
        let mut at = n + 8;
        buf[at..at + value.len()].copy_from_slice(value);
        at += value.len();
        buf[at..at + 16].copy_from_slice(r);
        h.update(&buf[..at + 16]);
    } else {
        h.update(&head[..n]);
        h.update(&(value.len() as u64).to_le_bytes());
        h.update(value);
        h.update(r);
    }
    Commitment(*h.finalize().as_bytes())
}

/// The input of a *block commitment* to a 16-byte `value`: the bytes
/// `commit` would hash (`role ‖ len ‖ value ‖ r`, at most 54 bytes) padded
/// with zeros to exactly one 64-byte BLAKE3 block. The commitment is H of
/// this block ([`commit_blocks`]); the fixed length is what lets many of
/// them be hashed side by side. The length field (16) and the total
/// length (64) keep these inputs apart from every `commit` input.
pub fn block_input(role: Role, value: &[u8; 16], r: &Opening) -> [u8; 64] {
    // The label roles (millions per preprocessing) have a 14-byte head:
    // fixed offsets, so the block is four 16-byte words put together by
    // shifts (`role ‖ len` in the first; `value` at byte 22 and `r` at
    // byte 38 straddle the others) and four stores, instead of byte
    // copies into a zeroed block. Same bytes as the general path (tested).
    if let Role::Label { j, wire, pos } | Role::LabelH2 { j, wire, pos } = role {
        let tag: u128 = if matches!(role, Role::Label { .. }) {
            5
        } else {
            7
        };
        let (v, r) = (u128::from_le_bytes(*value), u128::from_le_bytes(*r));
        let head = tag | (pos as u128) << 8 | (j as u128) << 16 | (wire as u128) << 80 | 16 << 112;
        let words = [head, v << 48, v >> 80 | r << 48, r >> 80];
        let mut b = [0u8; 64];
        for (out, w) in b.chunks_exact_mut(16).zip(words) {
            out.copy_from_slice(&w.to_le_bytes());
        }
        return b;
    }
    block_input_general(role, value, r)
}

/// [`block_input`] for any role (the label roles' fast path must equal it).
fn block_input_general(role: Role, value: &[u8; 16], r: &Opening) -> [u8; 64] {
    let (head, n) = role_head(role);
    let mut b = [0u8; 64];
    b[..n].copy_from_slice(&head[..n]);
    b[n..n + 8].copy_from_slice(&16u64.to_le_bytes());
    b[n + 8..n + 24].copy_from_slice(value);
    b[n + 24..n + 40].copy_from_slice(r);
    b
}

/// The block commitment of one [`block_input`]: `H(block)`.
pub fn commit_block(block: &[u8; 64]) -> Commitment {
    let mut h = BASE.clone();
    h.update(block);
    Commitment(*h.finalize().as_bytes())
}

/// `out[i] = H(blocks[i])` ([`commit_block`] of each), many blocks per
/// call: BLAKE3's multi-input kernel hashes 4–16 independent one-block
/// inputs at once in the lanes of the widest SIMD unit the CPU has
/// (AVX2: 8), where one commitment at a time uses a quarter of a 128-bit
/// unit's lanes. The flags are those of a one-chunk, one-block root hash
/// in derive-key mode, so each output is byte for byte `H(block)`
/// (`batch_equals_one_at_a_time`). The kernel is BLAKE3's own
/// (`blake3::platform`, a hidden but public API of the crate: the test
/// above guards its meaning across versions).
///
/// # Panics
/// If `out` and `blocks` differ in length (a caller bug).
pub fn commit_blocks(blocks: &[[u8; 64]], out: &mut [Commitment]) {
    assert_eq!(blocks.len(), out.len(), "commit_blocks: lengths");
    const CHUNK_START: u8 = 1;
    const CHUNK_END: u8 = 2;
    const ROOT: u8 = 8;
    const DERIVE_KEY_MATERIAL: u8 = 64;
    // At most this many inputs per call (a small reference array on the stack).
    const STEP: usize = 64;
    let key = &*KEY_WORDS;
    let platform = &*PLATFORM;
    for (bs, os) in blocks.chunks(STEP).zip(out.chunks_mut(STEP)) {
        let mut refs: [&[u8; 64]; STEP] = [&bs[0]; STEP];
        for (r, b) in refs.iter_mut().zip(bs) {
            *r = b;
        }
        platform.hash_many(
            &refs[..bs.len()],
            key,
            0,
            blake3::IncrementCounter::No,
            DERIVE_KEY_MATERIAL,
            CHUNK_START,
            CHUNK_END | ROOT,
            bytemuck::cast_slice_mut(os),
        );
    }
}

/// The derive-key mode key of [`CONTEXT`] as BLAKE3 words.
static KEY_WORDS: std::sync::LazyLock<[u32; 8]> = std::sync::LazyLock::new(|| {
    let k = blake3::hazmat::hash_derive_key_context(CONTEXT);
    let mut w = [0u32; 8];
    for (w, c) in w.iter_mut().zip(k.chunks_exact(4)) {
        *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    w
});

static PLATFORM: std::sync::LazyLock<blake3::platform::Platform> =
    std::sync::LazyLock::new(blake3::platform::Platform::detect);

#[cfg(test)]
mod tests {
    use super::*;

    /// The label roles' fixed-offset block equals the general layout.
    #[test]
    fn label_block_fast_path_equals_the_general_layout() {
        // Distinct bytes, so a word put at the wrong offset shows.
        let v: [u8; 16] = std::array::from_fn(|i| 0xa0 + i as u8);
        let r: [u8; 16] = std::array::from_fn(|i| 0x31 + 3 * i as u8);
        let cases = [
            (0u64, 0u32, 0u8),
            (5, 9, 1),
            (0x0102_0304_0506_0708, 0x0a0b_0c0d, 1),
            (u64::MAX, u32::MAX, 1),
        ];
        for (j, wire, pos) in cases {
            for role in [Role::Label { j, wire, pos }, Role::LabelH2 { j, wire, pos }] {
                assert_eq!(block_input(role, &v, &r), block_input_general(role, &v, &r));
            }
        }
    }

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

    /// The batch kernel gives `H(block)` for every block, whatever the
    /// count (SIMD groups and their remainders), and equals the hash of the
    /// block by the public hasher.
    #[test]
    fn batch_equals_one_at_a_time() {
        let mut prg = brickyard_core::prg::Prg::from_seed(brickyard_core::Block(7));
        for count in [0usize, 1, 3, 8, 15, 16, 17, 63, 64, 65, 200] {
            let blocks: Vec<[u8; 64]> = (0..count)
                .map(|i| {
                    let mut v = [0u8; 16];
                    let mut r = [0u8; 16];
                    prg.fill_bytes(&mut v);
                    prg.fill_bytes(&mut r);
                    let role = Role::LabelH2 {
                        j: i as u64,
                        wire: 3 * i as u32,
                        pos: (i % 2) as u8,
                    };
                    block_input(role, &v, &r)
                })
                .collect();
            let mut out = vec![Commitment([0; 32]); count];
            commit_blocks(&blocks, &mut out);
            for (b, c) in blocks.iter().zip(&out) {
                let mut h = blake3::Hasher::new_derive_key(CONTEXT);
                h.update(b);
                assert_eq!(c.0, *h.finalize().as_bytes());
                assert_eq!(*c, commit_block(b));
            }
        }
        // The block form is role ‖ len ‖ value ‖ r ‖ zeros.
        let b = block_input(Role::Lambda(9), &[1; 16], &[2; 16]);
        let mut want = [0u8; 64];
        want[0] = 4;
        want[1..9].copy_from_slice(&9u64.to_le_bytes());
        want[9..17].copy_from_slice(&16u64.to_le_bytes());
        want[17..33].copy_from_slice(&[1; 16]);
        want[33..49].copy_from_slice(&[2; 16]);
        assert_eq!(b, want);
    }
}
