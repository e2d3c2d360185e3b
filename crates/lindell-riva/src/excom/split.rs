//! Split commitments (Sec. 3.1): for message `m_j` and `i = 1..s`,
//! `[commit(m_j ⊕ r_{j,i}), commit(r_{j,i})]`. All randomness of message
//! `j` (the `r_{j,i}` and both commitments' openings) is expanded from one
//! seed (Sec. 3.1.2 takes SC's randomness from G(σ) in the same way, and
//! Fig. A.2 derives a bundle's randomness from its seed), so a checked
//! message is opened by `(m_j, seed_j)`.

use super::hashcom::{block_input, commit, commit_block, commit_blocks, Commitment, Opening, Role};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use zeroize::{Zeroize, Zeroizing};

/// The expanded randomness of one message's `s` split commitments.
pub(crate) struct SplitRandomness {
    /// `r_{j,i}`, `s` values of the message length.
    pub r: Vec<Zeroizing<Vec<u8>>>,
    /// Openings of side 0 and side 1 for each `i`.
    pub open: Vec<[Opening; 2]>,
}

impl Drop for SplitRandomness {
    fn drop(&mut self) {
        self.open.zeroize();
    }
}

impl SplitRandomness {
    pub(crate) fn expand(seed: Block, s: u32, msg_bytes: usize) -> Self {
        let mut prg = Prg::from_seed(seed);
        let mut r = Vec::with_capacity(s as usize);
        let mut open = Vec::with_capacity(s as usize);
        for _ in 0..s {
            let mut v = Zeroizing::new(vec![0u8; msg_bytes]);
            prg.fill_bytes(&mut v);
            r.push(v);
            let mut o = [[0u8; 16]; 2];
            prg.fill_bytes(&mut o[0]);
            prg.fill_bytes(&mut o[1]);
            open.push(o);
        }
        SplitRandomness { r, open }
    }

    /// The value under side `side` of split `i`: `m ⊕ r_i` or `r_i`.
    pub(crate) fn side_value(&self, m: &[u8], i: usize, side: u8) -> Zeroizing<Vec<u8>> {
        Zeroizing::new(if side == 0 {
            xor(m, &self.r[i])
        } else {
            self.r[i].to_vec()
        })
    }

    /// The `2s` commitments of message `j`, side 0 then side 1 per `i`.
    pub(crate) fn commitments(&self, j: usize, m: &[u8]) -> Vec<Commitment> {
        let mut out = vec![Commitment([0; 32]); 2 * self.r.len()];
        if m.len() == 16 {
            // 16-byte messages (a 128-bit mask) are block commitments:
            // all 2s hashed in one batch.
            let mut blocks = Vec::with_capacity(out.len());
            for i in 0..self.r.len() {
                for side in 0..2u8 {
                    let v = self.side_value(m, i, side);
                    let mut v16 = [0u8; 16];
                    v16.copy_from_slice(&v);
                    blocks.push(block_input(
                        split_role(j, i, side),
                        &v16,
                        &self.open[i][side as usize],
                    ));
                    v16.zeroize();
                }
            }
            commit_blocks(&blocks, &mut out);
            blocks.zeroize();
            return out;
        }
        for i in 0..self.r.len() {
            for side in 0..2u8 {
                out[2 * i + side as usize] = split_commit(
                    j,
                    i,
                    side,
                    &self.side_value(m, i, side),
                    &self.open[i][side as usize],
                );
            }
        }
        out
    }
}

fn split_role(j: usize, i: usize, side: u8) -> Role {
    Role::Split {
        j: j as u64,
        i: i as u32,
        side,
    }
}

/// One side's commitment: a block commitment (`hashcom::block_input`)
/// for a 16-byte value, else `commit`.
pub(crate) fn split_commit(j: usize, i: usize, side: u8, v: &[u8], o: &Opening) -> Commitment {
    match <&[u8; 16]>::try_from(v) {
        Ok(v16) => commit_block(&block_input(split_role(j, i, side), v16, o)),
        Err(_) => commit(split_role(j, i, side), v, o),
    }
}

/// Bytewise XOR of equal-length slices.
pub(crate) fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}
