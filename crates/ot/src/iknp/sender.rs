//! The IKNP extension sender (base-OT receiver; holds Δ).

use super::{col_blocks, fill_tweaks, transpose_append, CHOSEN_BATCH_OTS, CHUNK_OTS, KAPPA};
use crate::base;
use crate::rot::{CotSenderBatch, RotSenderBatch};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Sender side of an IKNP session. Its secret is Δ (the base-OT choice
/// bits) and the 128 column PRGs; both are wiped on drop.
pub struct IknpSender {
    delta: Block,
    prgs: Vec<Prg>,
    /// Index of the next OT of this session: the hash tweak.
    index: u64,
    /// Column matrix of the current chunk (128 columns, column-major).
    cols: Vec<Block>,
}

impl std::fmt::Debug for IknpSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IknpSender {{ index: {} }}", self.index)
    }
}

impl Drop for IknpSender {
    fn drop(&mut self) {
        self.delta.zeroize();
        self.cols.zeroize();
    }
}

impl IknpSender {
    /// Runs the 128 base OTs with a fresh random Δ.
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Self> {
        let delta = prg.random_block();
        Self::setup_with_delta(ch, prg, delta)
    }

    /// Runs the base OTs with a chosen Δ, so correlated OTs come out in the
    /// free-XOR form of a garbler whose global offset is `delta` (typically
    /// with `lsb = 1` for point-and-permute; one known bit of Δ leaves 127
    /// bits of hash security).
    pub fn setup_with_delta(ch: &mut Channel, prg: &mut Prg, delta: Block) -> Result<Self> {
        let choices: Vec<bool> = (0..KAPPA).map(|j| delta.bit(j)).collect();
        let mut seeds = base::receive_random(ch, prg, &choices)?;
        let prgs = seeds.iter().map(|&k| Prg::from_seed(k)).collect();
        seeds.zeroize();
        Ok(IknpSender {
            delta,
            prgs,
            index: 0,
            cols: Vec::new(),
        })
    }

    /// The global correlation: receiver gets `q_i ⊕ c_i·Δ`.
    pub fn delta(&self) -> Block {
        self.delta
    }

    /// Number of OTs extended so far in this session.
    pub fn ots_done(&self) -> u64 {
        self.index
    }

    /// Receives one chunk's `u` columns and appends the `m` rows `q_i`.
    fn extend_chunk(&mut self, ch: &mut Channel, m: usize, out: &mut Vec<Block>) -> Result<()> {
        let nb = col_blocks(m);
        self.cols.resize(KAPPA * nb, Block::ZERO);
        // u arrives straight into the matrix; then q_j = G_j ⊕ Δ_j·u_j.
        ch.recv_blocks(&mut self.cols)?;
        let mut pad = [Block::ZERO; CHUNK_OTS / KAPPA];
        for (j, col) in self.cols.chunks_exact_mut(nb).enumerate() {
            let keep_u = Block::ONES.and_bit(self.delta.bit(j));
            let pad = &mut pad[..nb];
            self.prgs[j].fill_blocks(pad);
            for (c, p) in col.iter_mut().zip(pad.iter()) {
                *c = (*c & keep_u) ^ *p;
            }
        }
        pad.zeroize();
        transpose_append(&self.cols, m, out);
        self.index += m as u64;
        Ok(())
    }

    /// `n` correlated OTs: returns `q_i`; the receiver with choice `c_i`
    /// gets `q_i ⊕ c_i·Δ`. No hashing: the output is only safe to use where
    /// a Δ-correlation is intended (free-XOR labels), never as two
    /// independent keys.
    pub fn correlated(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<Block>> {
        let mut out = Vec::with_capacity(n);
        let mut left = n;
        while left > 0 {
            let m = left.min(CHUNK_OTS);
            self.extend_chunk(ch, m, &mut out)?;
            left -= m;
        }
        Ok(out)
    }

    /// `n` random OTs: returns `(m0_i, m1_i)` with
    /// `m_b = TCCR(q_i ⊕ b·Δ, index_i)`; the receiver learns `m_{c_i}`.
    pub fn random(&mut self, ch: &mut Channel, n: usize) -> Result<Vec<(Block, Block)>> {
        let mut out = Vec::with_capacity(n);
        self.hashed_chunks(ch, n, |h0, h1| {
            out.extend(h0.iter().copied().zip(h1.iter().copied()));
        })?;
        Ok(out)
    }

    /// Random OTs stored for later use (see [`crate::beaver`]).
    pub fn random_batch(&mut self, ch: &mut Channel, n: usize) -> Result<RotSenderBatch> {
        let start = self.index;
        let mut m0 = Vec::with_capacity(n);
        let mut m1 = Vec::with_capacity(n);
        self.hashed_chunks(ch, n, |h0, h1| {
            m0.extend_from_slice(h0);
            m1.extend_from_slice(h1);
        })?;
        Ok(RotSenderBatch::new(start, m0, m1))
    }

    /// Correlated OTs stored for later use (see [`crate::beaver`]).
    pub fn correlated_batch(&mut self, ch: &mut Channel, n: usize) -> Result<CotSenderBatch> {
        let start = self.index;
        let q = self.correlated(ch, n)?;
        Ok(CotSenderBatch::new(start, self.delta, q))
    }

    /// Chosen-message OT: the receiver learns `msgs[i].c_i`. One message
    /// from each party per [`CHOSEN_BATCH_OTS`] OTs.
    pub fn chosen(&mut self, ch: &mut Channel, msgs: &[(Block, Block)]) -> Result<()> {
        let mut ys: Vec<Block> = Vec::with_capacity(2 * msgs.len().min(CHOSEN_BATCH_OTS));
        for batch in msgs.chunks(CHOSEN_BATCH_OTS) {
            ys.clear();
            let mut pos = 0;
            self.hashed_chunks(ch, batch.len(), |h0, h1| {
                for ((&(x0, x1), &a), &b) in batch[pos..].iter().zip(h0).zip(h1) {
                    ys.push(x0 ^ a);
                    ys.push(x1 ^ b);
                }
                pos += h0.len();
            })?;
            ch.send_blocks(&ys)?;
            ch.flush()?;
        }
        ys.zeroize();
        Ok(())
    }

    /// Extends `n` OTs chunk by chunk and hands each chunk's hashed pairs
    /// `(H(q_i), H(q_i ⊕ Δ))` to `sink`.
    fn hashed_chunks(
        &mut self,
        ch: &mut Channel,
        n: usize,
        mut sink: impl FnMut(&[Block], &[Block]),
    ) -> Result<()> {
        let mut q = Vec::with_capacity(n.min(CHUNK_OTS));
        let mut h1 = Vec::with_capacity(n.min(CHUNK_OTS));
        let mut tweaks = vec![Block::ZERO; n.min(CHUNK_OTS)];
        let mut left = n;
        while left > 0 {
            let m = left.min(CHUNK_OTS);
            let start = self.index;
            q.clear();
            self.extend_chunk(ch, m, &mut q)?;
            h1.clear();
            h1.extend(q.iter().map(|&x| x ^ self.delta));
            let tw = &mut tweaks[..m];
            fill_tweaks(start, tw);
            tccr_batch(&mut q, tw);
            tccr_batch(&mut h1, tw);
            sink(&q, &h1);
            left -= m;
        }
        q.zeroize();
        h1.zeroize();
        Ok(())
    }
}
