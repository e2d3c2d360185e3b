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
    msg_bytes: usize,
    /// `r_{j,i}`, `s` values of the message length, back to back.
    r: Zeroizing<Vec<u8>>,
    /// Openings of side 0 and side 1 for each `i`.
    pub open: Vec<[Opening; 2]>,
}

impl Drop for SplitRandomness {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.open);
        crate::wipe::wipe(&mut self.r);
    }
}

impl SplitRandomness {
    /// Per `i`: `r_i` (its whole blocks; a partial block's rest is
    /// discarded), then the two openings, one block each: the stream `s`
    /// rounds of `fill_bytes(r_i)`, `fill_bytes(o⁰)`, `fill_bytes(o¹)`
    /// would draw, drawn in one call (thousands of expansions per run).
    pub(crate) fn expand(seed: Block, s: u32, msg_bytes: usize) -> Self {
        let mut prg = Prg::from_seed(seed);
        let nb = msg_bytes.div_ceil(16);
        let per = nb + 2;
        let mut blocks = Zeroizing::new(vec![Block::ZERO; s as usize * per]);
        prg.fill_blocks(&mut blocks);
        let mut r = Zeroizing::new(Vec::with_capacity(s as usize * msg_bytes));
        let mut open = Vec::with_capacity(s as usize);
        for b in blocks.chunks_exact(per) {
            let mut bytes = [0u8; 16];
            for (k, chunk) in (0..msg_bytes).step_by(16).enumerate() {
                bytes.copy_from_slice(&b[k].to_bytes());
                let n = (msg_bytes - chunk).min(16);
                r.extend_from_slice(&bytes[..n]);
            }
            bytes.zeroize();
            open.push([b[nb].to_bytes(), b[nb + 1].to_bytes()]);
        }
        SplitRandomness { msg_bytes, r, open }
    }

    /// `r_i`.
    pub(crate) fn r(&self, i: usize) -> &[u8] {
        &self.r[i * self.msg_bytes..(i + 1) * self.msg_bytes]
    }

    /// Writes the value under side `side` of split `i` into `out`:
    /// `m ⊕ r_i` or `r_i`.
    pub(crate) fn side_value_into(&self, m: &[u8], i: usize, side: u8, out: &mut [u8]) {
        let r = self.r(i);
        if side == 0 {
            for ((o, a), b) in out.iter_mut().zip(m).zip(r) {
                *o = a ^ b;
            }
        } else {
            out.copy_from_slice(r);
        }
    }

    /// The value under side `side` of split `i`: `m ⊕ r_i` or `r_i`.
    pub(crate) fn side_value(&self, m: &[u8], i: usize, side: u8) -> Zeroizing<Vec<u8>> {
        let mut v = Zeroizing::new(vec![0u8; self.msg_bytes]);
        self.side_value_into(m, i, side, &mut v);
        v
    }

    /// The `2s` commitments of message `j`, side 0 then side 1 per `i`.
    pub(crate) fn commitments(&self, j: usize, m: &[u8]) -> Vec<Commitment> {
        let s = self.open.len();
        let mut out = vec![Commitment([0; 32]); 2 * s];
        if m.len() == 16 {
            // 16-byte messages (a 128-bit mask) are block commitments:
            // all 2s hashed in one batch.
            let mut blocks = Vec::with_capacity(out.len());
            let mut v16 = [0u8; 16];
            for i in 0..s {
                for side in 0..2u8 {
                    self.side_value_into(m, i, side, &mut v16);
                    blocks.push(block_input(
                        split_role(j, i, side),
                        &v16,
                        &self.open[i][side as usize],
                    ));
                }
            }
            v16.zeroize();
            commit_blocks(&blocks, &mut out);
            crate::wipe::wipe(&mut blocks);
            return out;
        }
        for i in 0..s {
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

/// `out = a ⊕ b` (equal lengths).
pub(crate) fn xor_into(out: &mut [u8], a: &[u8], b: &[u8]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x ^ y;
    }
}

/// The commitments that `opened` (per split `i`: the value under side
/// `w[i]`, then its opening) opens, for message `j`, into `out`: one
/// batch for 16-byte messages (the verifier checks hundreds of thousands).
pub(crate) fn opened_commitments(
    j: usize,
    opened: &[u8],
    msg_bytes: usize,
    w: &[bool],
    out: &mut Vec<Commitment>,
) {
    out.clear();
    let items = opened.chunks_exact(msg_bytes + 16).zip(w).enumerate();
    if msg_bytes == 16 {
        let mut blocks = Vec::with_capacity(w.len());
        for (i, (chunk, &wi)) in items {
            let (v, r) = chunk.split_at(16);
            let v: &[u8; 16] = v.try_into().unwrap_or(&[0; 16]);
            let r: &[u8; 16] = r.try_into().unwrap_or(&[0; 16]);
            blocks.push(block_input(split_role(j, i, wi as u8), v, r));
        }
        out.resize(blocks.len(), Commitment([0; 32]));
        commit_blocks(&blocks, out);
        return;
    }
    for (i, (chunk, &wi)) in items {
        let (v, r) = chunk.split_at(msg_bytes);
        let r: [u8; 16] = r.try_into().unwrap_or([0; 16]);
        out.push(split_commit(j, i, wi as u8, v, &r));
    }
}
