//! The IKNP extension receiver (base-OT sender; holds both column seeds).

use super::{col_blocks, transpose_to, Interrupted, CHOSEN_BATCH_OTS, CHUNK_OTS, KAPPA};
use crate::base;
use crate::ext::Choices;
use brickyard_core::hash::cr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Receiver side of an IKNP session: two PRGs per column, seeded by the
/// base-OT sender's key pairs; the PRGs and scratch buffers are wiped on
/// drop.
pub struct IknpReceiver {
    prgs: Vec<(Prg, Prg)>,
    /// Index of the next OT of this session (Beaver checks both sides agree).
    index: u64,
    /// Set when an I/O error interrupted an extension: the two parties'
    /// PRG positions may now differ, so the session refuses further use.
    broken: Interrupted,
    /// `t` columns of the current chunk.
    t_cols: Vec<Block>,
    /// `u` columns of the current chunk (sent to the sender).
    u_cols: Vec<Block>,
    /// Packed choice bits of the current chunk.
    r: Vec<Block>,
    /// Transposed rows when a chunk is not a whole number of tiles.
    rows: Vec<Block>,
    /// The sender's padded pairs of one chosen-message super-batch (public:
    /// they came over the wire, so they are not wiped).
    ys: Vec<Block>,
}

crate::ext::receiver_api!(IknpReceiver);

impl Drop for IknpReceiver {
    fn drop(&mut self) {
        self.t_cols.zeroize();
        self.u_cols.zeroize();
        self.r.zeroize();
        self.rows.zeroize();
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
            broken: Interrupted::default(),
            t_cols: Vec::new(),
            u_cols: Vec::new(),
            r: Vec::new(),
            rows: Vec::new(),
            ys: Vec::new(),
        })
    }

    /// Sends one chunk's `u` columns for `out.len() ≤ CHUNK_OTS` OTs and
    /// writes the rows `t_i` (hashed if `hash`) to `out`.
    fn extend_chunk(
        &mut self,
        ch: &mut Channel,
        choices: &mut Choices<'_>,
        hash: bool,
        out: &mut [Block],
    ) -> Result<()> {
        self.broken.check()?;
        let m = out.len();
        let nb = col_blocks(m);
        self.r.resize(nb, Block::ZERO);
        choices.next_into(m, &mut self.r);
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
        let r = ch.send_blocks(&self.u_cols);
        self.broken.track(r)?;
        transpose_to(&self.t_cols, &mut self.rows, out);
        if hash {
            // CR suffices for a semi-honest sender's view (GKWY19); see sender.rs.
            cr_batch(out);
        }
        self.index += m as u64;
        Ok(())
    }

    /// Extends `out.len()` OTs in chunks, then flushes the last `u` columns.
    fn extend_into(
        &mut self,
        ch: &mut Channel,
        mut choices: Choices<'_>,
        hash: bool,
        out: &mut [Block],
    ) -> Result<()> {
        for chunk in out.chunks_mut(CHUNK_OTS) {
            self.extend_chunk(ch, &mut choices, hash, chunk)?;
        }
        let r = ch.flush();
        self.broken.track(r)
    }

    /// Chosen-message OT into `out`: `out[i] = x_{c_i}` of the sender's pairs.
    ///
    /// # Panics
    /// If the lengths differ (caller bug).
    pub fn chosen_into(
        &mut self,
        ch: &mut Channel,
        choices: &[bool],
        out: &mut [Block],
    ) -> Result<()> {
        assert_eq!(choices.len(), out.len(), "chosen_into: length mismatch");
        let mut ys = std::mem::take(&mut self.ys);
        ys.resize(2 * choices.len().min(CHOSEN_BATCH_OTS), Block::ZERO);
        let r = self.chosen_with(ch, choices, out, &mut ys);
        self.ys = ys;
        r
    }

    fn chosen_with(
        &mut self,
        ch: &mut Channel,
        choices: &[bool],
        out: &mut [Block],
        ys: &mut [Block],
    ) -> Result<()> {
        let batches = choices
            .chunks(CHOSEN_BATCH_OTS)
            .zip(out.chunks_mut(CHOSEN_BATCH_OTS));
        for (batch, h) in batches {
            self.extend_into(ch, Choices::Given(batch), true, h)?;
            let ys = &mut ys[..2 * batch.len()];
            let r = ch.recv_blocks(ys);
            self.broken.track(r)?;
            for ((&c, h), y) in batch.iter().zip(h.iter_mut()).zip(ys.chunks_exact(2)) {
                *h ^= y[c as usize];
            }
        }
        Ok(())
    }
}
