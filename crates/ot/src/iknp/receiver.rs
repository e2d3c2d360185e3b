//! The IKNP extension receiver (base-OT sender; holds both column seeds).

use super::{
    col_blocks, fill_tweaks, pack_bits, transpose_append, unpack_bits, CHOSEN_BATCH_OTS, CHUNK_OTS,
    KAPPA,
};
use crate::base;
use crate::rot::{CotReceiverBatch, RotReceiverBatch};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Where a chunk's choice bits come from.
enum Choices<'a> {
    /// Given by the caller.
    Given(&'a [bool]),
    /// Drawn from the PRG (random-choice OTs for preprocessing); the drawn
    /// bits are appended to the vector.
    Random(&'a mut Prg, &'a mut Vec<bool>),
}

/// Receiver side of an IKNP session: two PRGs per column, seeded by the
/// base-OT sender's key pairs, wiped on drop.
pub struct IknpReceiver {
    prgs: Vec<(Prg, Prg)>,
    /// Index of the next OT of this session: the hash tweak.
    index: u64,
    /// `t` columns of the current chunk.
    t_cols: Vec<Block>,
    /// `u` columns of the current chunk (sent to the sender).
    u_cols: Vec<Block>,
    /// Packed choice bits of the current chunk.
    r: Vec<Block>,
}

impl std::fmt::Debug for IknpReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IknpReceiver {{ index: {} }}", self.index)
    }
}

impl Drop for IknpReceiver {
    fn drop(&mut self) {
        self.t_cols.zeroize();
        self.u_cols.zeroize();
        self.r.zeroize();
    }
}

impl IknpReceiver {
    /// Runs the 128 base OTs (as their sender).
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Self> {
        let mut seeds = base::send_random(ch, prg, KAPPA)?;
        let prgs = seeds
            .iter()
            .map(|&(k0, k1)| (Prg::from_seed(k0), Prg::from_seed(k1)))
            .collect();
        seeds.zeroize();
        Ok(IknpReceiver {
            prgs,
            index: 0,
            t_cols: Vec::new(),
            u_cols: Vec::new(),
            r: Vec::new(),
        })
    }

    /// Number of OTs extended so far in this session.
    pub fn ots_done(&self) -> u64 {
        self.index
    }

    /// Sends one chunk's `u` columns for `m` OTs and appends the rows `t_i`.
    fn extend_chunk(
        &mut self,
        ch: &mut Channel,
        m: usize,
        choices: &mut Choices<'_>,
        out: &mut Vec<Block>,
    ) -> Result<()> {
        let nb = col_blocks(m);
        self.r.resize(nb, Block::ZERO);
        match choices {
            Choices::Given(bits) => {
                let (now, rest) = bits.split_at(m);
                pack_bits(now, &mut self.r);
                *bits = rest;
            }
            Choices::Random(prg, bits) => {
                prg.fill_blocks(&mut self.r);
                unpack_bits(&self.r, m, bits);
            }
        }
        self.t_cols.resize(KAPPA * nb, Block::ZERO);
        self.u_cols.resize(KAPPA * nb, Block::ZERO);
        let cols = self
            .t_cols
            .chunks_exact_mut(nb)
            .zip(self.u_cols.chunks_exact_mut(nb));
        for ((t, u), (g0, g1)) in cols.zip(self.prgs.iter_mut()) {
            g0.fill_blocks(t);
            g1.fill_blocks(u);
            for ((u, t), r) in u.iter_mut().zip(t.iter()).zip(self.r.iter()) {
                *u ^= *t ^ *r;
            }
        }
        ch.send_blocks(&self.u_cols)?;
        transpose_append(&self.t_cols, m, out);
        self.index += m as u64;
        Ok(())
    }

    fn extend(
        &mut self,
        ch: &mut Channel,
        n: usize,
        mut choices: Choices<'_>,
    ) -> Result<Vec<Block>> {
        let mut out = Vec::with_capacity(n);
        let mut left = n;
        while left > 0 {
            let m = left.min(CHUNK_OTS);
            self.extend_chunk(ch, m, &mut choices, &mut out)?;
            left -= m;
        }
        ch.flush()?;
        Ok(out)
    }

    /// Correlated OTs: returns `t_i = q_i ⊕ c_i·Δ`.
    pub fn correlated(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        self.extend(ch, choices.len(), Choices::Given(choices))
    }

    /// Random OTs with chosen choice bits: returns `m_{c_i}`.
    pub fn random(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        let start = self.index;
        let mut t = self.correlated(ch, choices)?;
        hash_rows(start, &mut t);
        Ok(t)
    }

    /// Random OTs with random choice bits, stored for later use (see
    /// [`crate::beaver`]).
    pub fn random_batch(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        n: usize,
    ) -> Result<RotReceiverBatch> {
        let start = self.index;
        let mut bits = Vec::with_capacity(n);
        let mut t = self.extend(ch, n, Choices::Random(prg, &mut bits))?;
        hash_rows(start, &mut t);
        Ok(RotReceiverBatch::new(start, bits, t))
    }

    /// Correlated OTs with random choice bits, stored for later use.
    pub fn correlated_batch(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        n: usize,
    ) -> Result<CotReceiverBatch> {
        let start = self.index;
        let mut bits = Vec::with_capacity(n);
        let t = self.extend(ch, n, Choices::Random(prg, &mut bits))?;
        Ok(CotReceiverBatch::new(start, bits, t))
    }

    /// Chosen-message OT: returns `x_{c_i}` of the sender's pairs.
    pub fn chosen(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        let mut out = Vec::with_capacity(choices.len());
        let mut ys = Vec::new();
        for batch in choices.chunks(CHOSEN_BATCH_OTS) {
            let start = self.index;
            let mut h = self.extend(ch, batch.len(), Choices::Given(batch))?;
            hash_rows(start, &mut h);
            ys.resize(2 * batch.len(), Block::ZERO);
            ch.recv_blocks(&mut ys)?;
            out.extend(
                batch
                    .iter()
                    .zip(&h)
                    .zip(ys.chunks_exact(2))
                    .map(|((&c, &h), y)| y[c as usize] ^ h),
            );
            h.zeroize();
        }
        ys.zeroize();
        Ok(out)
    }
}

/// `t_i ← TCCR(t_i, start + i)`, in chunks that stay in cache.
fn hash_rows(start: u64, t: &mut [Block]) {
    let mut tweaks = vec![Block::ZERO; t.len().min(CHUNK_OTS)];
    for (k, chunk) in t.chunks_mut(CHUNK_OTS).enumerate() {
        let tw = &mut tweaks[..chunk.len()];
        fill_tweaks(start + (k * CHUNK_OTS) as u64, tw);
        tccr_batch(chunk, tw);
    }
}
