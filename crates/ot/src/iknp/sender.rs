//! The IKNP extension sender (base-OT receiver; holds Δ).

use super::{col_blocks, transpose_to, Interrupted, CHOSEN_BATCH_OTS, CHUNK_OTS, KAPPA};
use crate::base;
use crate::rot::RotSenderBatch;
use brickyard_core::hash::cr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Sender side of an IKNP session. Its secret is Δ (the base-OT choice
/// bits) and the 128 column PRGs; both are wiped on drop, as are the
/// scratch buffers.
pub struct IknpSender {
    delta: Block,
    prgs: Vec<Prg>,
    /// Index of the next OT of this session (Beaver checks both sides agree).
    index: u64,
    /// Set when an I/O error interrupted an extension: the two parties'
    /// PRG positions may now differ, so the session refuses further use.
    broken: Interrupted,
    /// Column matrix of the current chunk (128 columns, column-major).
    cols: Vec<Block>,
    /// Transposed rows when a chunk is not a whole number of tiles.
    rows: Vec<Block>,
    /// Hash buffers of one chunk: `q_i` and `q_i ⊕ Δ`.
    h0: Vec<Block>,
    h1: Vec<Block>,
    /// Padded replies of one chosen-message super-batch (sent to the peer,
    /// hence not secret).
    ys: Vec<Block>,
}

crate::ext::sender_api!(IknpSender);

impl Drop for IknpSender {
    fn drop(&mut self) {
        self.delta.zeroize();
        self.cols.zeroize();
        self.rows.zeroize();
        self.h0.zeroize();
        self.h1.zeroize();
    }
}

impl IknpSender {
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
            broken: Interrupted::default(),
            cols: Vec::new(),
            rows: Vec::new(),
            h0: Vec::new(),
            h1: Vec::new(),
            ys: Vec::new(),
        })
    }

    /// Receives one chunk's `u` columns and writes the rows `q_i` to `out`
    /// (at most [`CHUNK_OTS`] of them).
    fn extend_chunk(&mut self, ch: &mut Channel, out: &mut [Block]) -> Result<()> {
        self.broken.check()?;
        let nb = col_blocks(out.len());
        self.cols.resize(KAPPA * nb, Block::ZERO);
        // u arrives straight into the matrix; then q_j = G_j ⊕ Δ_j·u_j.
        let r = ch.recv_blocks(&mut self.cols);
        self.broken.track(r)?;
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
        transpose_to(&self.cols, &mut self.rows, out);
        self.index += out.len() as u64;
        Ok(())
    }

    /// Correlated OTs into `out`: `out[i] = q_i`; the receiver with choice
    /// `c_i` gets `q_i ⊕ c_i·Δ`. No hashing: the output is only safe to use
    /// where a Δ-correlation is intended (free-XOR labels), never as two
    /// independent keys.
    pub fn correlated_into(&mut self, ch: &mut Channel, out: &mut [Block]) -> Result<()> {
        for chunk in out.chunks_mut(CHUNK_OTS) {
            self.extend_chunk(ch, chunk)?;
        }
        Ok(())
    }

    /// Random OTs into `out`: `(m0_i, m1_i)` with
    /// `m_b = CR(q_i ⊕ b·Δ)`; the receiver learns `m_{c_i}`.
    pub fn random_into(&mut self, ch: &mut Channel, out: &mut [(Block, Block)]) -> Result<()> {
        for chunk in out.chunks_mut(CHUNK_OTS) {
            self.hashed_chunk(ch, chunk.len())?;
            for ((o, &a), &b) in chunk.iter_mut().zip(&self.h0).zip(&self.h1) {
                *o = (a, b);
            }
        }
        Ok(())
    }

    /// Random OTs stored for later use (see [`crate::beaver`]).
    pub fn random_batch(&mut self, ch: &mut Channel, n: usize) -> Result<RotSenderBatch> {
        let start = self.index;
        let mut m0 = Vec::with_capacity(n);
        let mut m1 = Vec::with_capacity(n);
        let mut left = n;
        while left > 0 {
            let m = left.min(CHUNK_OTS);
            self.hashed_chunk(ch, m)?;
            m0.extend_from_slice(&self.h0);
            m1.extend_from_slice(&self.h1);
            left -= m;
        }
        Ok(RotSenderBatch::new(start, m0, m1))
    }

    /// Chosen-message OT: the receiver learns `msgs[i].c_i`. One message
    /// from each party per [`CHOSEN_BATCH_OTS`] OTs.
    pub fn chosen(&mut self, ch: &mut Channel, msgs: &[(Block, Block)]) -> Result<()> {
        let mut ys = std::mem::take(&mut self.ys);
        ys.resize(2 * msgs.len().min(CHOSEN_BATCH_OTS), Block::ZERO);
        let r = self.chosen_with(ch, msgs, &mut ys);
        self.ys = ys;
        r
    }

    fn chosen_with(
        &mut self,
        ch: &mut Channel,
        msgs: &[(Block, Block)],
        ys: &mut [Block],
    ) -> Result<()> {
        for batch in msgs.chunks(CHOSEN_BATCH_OTS) {
            let ys = &mut ys[..2 * batch.len()];
            for (pairs, y) in batch.chunks(CHUNK_OTS).zip(ys.chunks_mut(2 * CHUNK_OTS)) {
                self.hashed_chunk(ch, pairs.len())?;
                let hashes = self.h0.iter().zip(&self.h1);
                for ((&(x0, x1), (&a, &b)), y) in
                    pairs.iter().zip(hashes).zip(y.chunks_exact_mut(2))
                {
                    y[0] = x0 ^ a;
                    y[1] = x1 ^ b;
                }
            }
            // The padded pairs go to the peer, so they are not secret and are
            // not wiped (a volatile wipe of 32 MiB per batch costs more than
            // the OTs).
            let r = ch.send_blocks(ys).and_then(|_| ch.flush());
            self.broken.track(r)?;
        }
        Ok(())
    }

    /// Extends `m ≤ CHUNK_OTS` OTs and leaves `H(q_i)` in `h0` and
    /// `H(q_i ⊕ Δ)` in `h1`.
    fn hashed_chunk(&mut self, ch: &mut Channel, m: usize) -> Result<()> {
        let mut h0 = std::mem::take(&mut self.h0);
        h0.resize(m, Block::ZERO);
        let r = self.extend_chunk(ch, &mut h0);
        self.h0 = h0;
        r?;
        self.h1.clear();
        self.h1.extend(self.h0.iter().map(|&x| x ^ self.delta));
        // Semi-honest IKNP needs only correlation robustness (GKWY19): the
        // receiver's t_i are uniform and Δ is secret. KOS keeps TCCR.
        cr_batch(&mut self.h0);
        cr_batch(&mut self.h1);
        Ok(())
    }
}
