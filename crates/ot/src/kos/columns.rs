//! The column core shared by KOS and the leaky Δ-ROT: an IKNP extension over
//! any number of columns whose column matrix is kept until the consistency
//! check of the revised KOS paper has run.
//!
//! Why a core of its own rather than [`crate::iknp`]: the revised check
//! (ePrint 2015/546, 2022 revision, SoftSpokenOT-style) hashes each *column*
//! `q^j` before the transpose, so the sender must keep the columns of a
//! whole check batch, and the Δ-ROT needs `k + s = 168` columns instead of
//! 128. The pieces that are the same as IKNP (base OTs, column PRGs, bit
//! packing, the transpose kernel) are reused from [`crate::iknp`] and
//! [`crate::base`].
//!
//! Per batch of `m` rows (split into chunks of [`CHUNK_OTS`] rows, each padded
//! to a multiple of 128), plus one **mask chunk** of 128 rows with random
//! choice bits:
//!
//! ```text
//! R → S   u^j = G(k_j^0) ⊕ G(k_j^1) ⊕ r        (every chunk, then the mask chunk)
//! S       q^j = G(k_j^{Δ_j}) ⊕ Δ_j·u^j        (= t^j ⊕ Δ_j·r)
//! S → R   seed                                 (χ_b = PRG(seed), one per 128-row block)
//! R → S   x̃ = Σ_b χ_b·r_b ⊕ r_mask,  t̃^j = Σ_b χ_b·t^j_b ⊕ t^j_mask   (j < ncols)
//! S       checks  Σ_b χ_b·q^j_b ⊕ q^j_mask == t̃^j ⊕ Δ_j·x̃  for every j
//! ```

use super::super::base;
use crate::ext::Choices;
use crate::iknp::{col_blocks, CHUNK_OTS, KAPPA};
use brickyard_core::gf128::gf_inner_product;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use zeroize::Zeroize;

/// Name of the consistency check in `Cheating { check }`.
pub const CHECK_NAME: &str = "kos-consistency";

/// Blocks per column of each chunk of an `m`-row batch.
pub(crate) fn chunk_nbs(m: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..m.div_ceil(CHUNK_OTS)).map(move |c| {
        let rows = (m - c * CHUNK_OTS).min(CHUNK_OTS);
        (rows, col_blocks(rows))
    })
}

/// Total blocks per column of a batch, the mask chunk included.
fn total_nb(m: usize) -> usize {
    chunk_nbs(m).map(|(_, nb)| nb).sum::<usize>() + 1
}

/// Makes `v` `n` blocks long, keeping (not clearing) what it holds.
fn resize(v: &mut Vec<Block>, n: usize) {
    if v.len() != n {
        v.resize(n, Block::ZERO);
    }
}

/// The per-block challenges `χ_b` of a batch.
fn challenges(seed: Block, nbt: usize) -> Vec<Block> {
    Prg::from_seed(seed).random_blocks(nbt)
}

/// `Σ_b χ_b·col_b` over every chunk of `store`, mask chunk with
/// coefficient 1 (`store` holds the chunks in order, each `ncols × nb`).
fn column_hashes(store: &[Block], ncols: usize, m: usize, chi: &[Block]) -> Vec<Block> {
    let mut acc = vec![Block::ZERO; ncols];
    let (mut off, mut coff) = (0, 0);
    for (_, nb) in chunk_nbs(m) {
        let chi = &chi[coff..coff + nb];
        for (j, a) in acc.iter_mut().enumerate() {
            *a ^= gf_inner_product(chi, &store[off + j * nb..off + (j + 1) * nb]);
        }
        off += ncols * nb;
        coff += nb;
    }
    for (j, a) in acc.iter_mut().enumerate() {
        *a ^= store[off + j];
    }
    acc
}

/// Sender side of the column core: holds Δ (as `ncols` bits) and one PRG
/// per column, seeded by the base OTs it received.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub(crate) struct ColSender {
    ncols: usize,
    delta_bits: Vec<bool>,
    prgs: Vec<Prg>,
    /// The `q` columns of the current batch (chunk after chunk).
    pub(crate) store: Vec<Block>,
    pad: Vec<Block>,
    /// Set when a batch was interrupted (I/O error or failed check): the
    /// column PRGs are then out of step with the peer's.
    poisoned: bool,
}

impl Drop for ColSender {
    fn drop(&mut self) {
        self.delta_bits.zeroize();
        self.store.zeroize();
        self.pad.zeroize();
    }
}

impl ColSender {
    /// Base OTs (as their receiver) with choice bits `delta_bits`.
    pub(crate) fn setup(ch: &mut Channel, prg: &mut Prg, delta_bits: Vec<bool>) -> Result<Self> {
        let mut seeds = base::receive_random(ch, prg, &delta_bits)?;
        let s = Self::with_seeds(delta_bits, &seeds);
        seeds.zeroize();
        Ok(s)
    }

    /// From base OTs already run (as their receiver, choices `delta_bits`).
    pub(crate) fn from_base(delta_bits: Vec<bool>, mut seeds: Vec<Block>) -> Self {
        let s = Self::with_seeds(delta_bits, &seeds);
        seeds.zeroize();
        s
    }

    /// The sender after base OTs that gave it `seeds[j] = k_j^{Δ_j}`
    /// ([`ColSender::setup`]; the fuzzing harness deals them from a fixed
    /// seed instead of running the base OTs).
    pub(crate) fn with_seeds(delta_bits: Vec<bool>, seeds: &[Block]) -> Self {
        ColSender {
            ncols: delta_bits.len(),
            delta_bits,
            prgs: seeds.iter().map(|&k| Prg::from_seed(k)).collect(),
            store: Vec::new(),
            pad: Vec::new(),
            poisoned: false,
        }
    }

    /// Receives the columns of an `m`-row batch and its mask chunk into
    /// `store`, calling `on_chunk(first_row, rows, q_columns)` for each data
    /// chunk as it arrives (so the caller can transpose while the peer is
    /// still sending), then runs the consistency check. Nothing the callback
    /// produced may be used unless this returns `Ok`.
    pub(crate) fn extend(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        m: usize,
        mut on_chunk: impl FnMut(usize, usize, &[Block]),
    ) -> Result<()> {
        if self.poisoned {
            return Err(Error::config(
                "OT extension session was interrupted earlier; start a new session",
            ));
        }
        self.poisoned = true;
        let ncols = self.ncols;
        let nbt = total_nb(m);
        // Every block is overwritten below: only a new size is zeroed.
        resize(&mut self.store, ncols * nbt);
        let mut off = 0;
        let mut first = 0;
        for (rows, nb) in chunk_nbs(m).chain(std::iter::once((0, 1))) {
            let cols = &mut self.store[off..off + ncols * nb];
            ch.recv_blocks(cols)?;
            if self.pad.len() < nb {
                self.pad.resize(nb, Block::ZERO);
            }
            let pad = &mut self.pad[..nb];
            for (j, col) in cols.chunks_exact_mut(nb).enumerate() {
                let keep_u = Block::ONES.and_bit(self.delta_bits[j]);
                self.prgs[j].fill_blocks(pad);
                for (c, p) in col.iter_mut().zip(pad.iter()) {
                    *c = (*c & keep_u) ^ *p;
                }
            }
            if rows > 0 {
                on_chunk(first, rows, cols);
            }
            first += rows;
            off += ncols * nb;
        }
        // χ is drawn only now, after every column of the batch is fixed.
        let seed = prg.random_block();
        ch.send_block(seed)?;
        ch.flush()?;
        let chi = challenges(seed, nbt);
        // Hash our columns while the receiver hashes its own.
        let mut q = column_hashes(&self.store, ncols, m, &chi);
        let mut reply = ch.recv_block_vec(ncols + 1)?;
        let x = reply[ncols];
        // Compare every column before deciding (no early exit on secrets).
        let mut bad = 0u128;
        for ((qj, tj), &dj) in q.iter().zip(&reply[..ncols]).zip(&self.delta_bits) {
            bad |= (*qj ^ *tj ^ x.and_bit(dj)).0;
        }
        q.zeroize();
        reply.zeroize();
        if bad != 0 {
            return Err(Error::Cheating { check: CHECK_NAME });
        }
        self.poisoned = false;
        Ok(())
    }
}

/// Receiver side of the column core: two PRGs per column.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub(crate) struct ColReceiver {
    ncols: usize,
    prgs: Vec<(Prg, Prg)>,
    /// The `t` columns of the current batch (chunk after chunk).
    pub(crate) store: Vec<Block>,
    /// Packed choice bits of the batch (chunk after chunk, then the mask).
    r: Vec<Block>,
    u: Vec<Block>,
    poisoned: bool,
    /// Deviations for tests of the sender's check (`adversary` feature).
    #[cfg(feature = "adversary")]
    pub(crate) cheat: Option<crate::adversary::KosReceiverCheat>,
}

impl Drop for ColReceiver {
    fn drop(&mut self) {
        self.store.zeroize();
        self.r.zeroize();
        self.u.zeroize();
    }
}

impl ColReceiver {
    /// Base OTs (as their sender) for `ncols` columns; returns the peer's
    /// base-OT flight too.
    pub(crate) fn setup_recorded(
        ch: &mut Channel,
        prg: &mut Prg,
        ncols: usize,
    ) -> Result<(Self, Vec<u8>)> {
        let (mut seeds, flight) = base::send_random_recorded(ch, prg, ncols)?;
        let core = Self::with_seeds(&seeds);
        seeds.zeroize();
        Ok((core, flight))
    }

    /// From base OTs already run (as their sender, one per column).
    pub(crate) fn from_base(mut seeds: Vec<(Block, Block)>) -> Self {
        let r = Self::with_seeds(&seeds);
        seeds.zeroize();
        r
    }

    /// The receiver after base OTs that gave it the pairs `seeds[j] =
    /// (k_j^0, k_j^1)`, one per column ([`ColReceiver::setup_recorded`]; dealt by
    /// the fuzzing harness).
    pub(crate) fn with_seeds(seeds: &[(Block, Block)]) -> Self {
        ColReceiver {
            ncols: seeds.len(),
            prgs: seeds
                .iter()
                .map(|&(k0, k1)| (Prg::from_seed(k0), Prg::from_seed(k1)))
                .collect(),
            store: Vec::new(),
            r: Vec::new(),
            u: Vec::new(),
            poisoned: false,
            #[cfg(feature = "adversary")]
            cheat: None,
        }
    }

    /// Sends the columns of an `m`-row batch and its mask chunk, calling
    /// `on_chunk(first_row, rows, t_columns)` per data chunk, then answers
    /// the sender's challenge. Choice bits beyond `m` (row padding, mask
    /// chunk) are random.
    pub(crate) fn extend(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        m: usize,
        choices: &mut Choices<'_>,
        mut on_chunk: impl FnMut(usize, usize, &[Block]),
    ) -> Result<()> {
        if self.poisoned {
            return Err(Error::config(
                "OT extension session was interrupted earlier; start a new session",
            ));
        }
        self.poisoned = true;
        let ncols = self.ncols;
        let nbt = total_nb(m);
        // Every block is overwritten below: only a new size is zeroed.
        resize(&mut self.store, ncols * nbt);
        resize(&mut self.r, nbt);
        let (mut off, mut roff, mut first) = (0, 0, 0);
        for (rows, nb) in chunk_nbs(m).chain(std::iter::once((0, 1))) {
            let r = &mut self.r[roff..roff + nb];
            if rows == 0 {
                prg.fill_blocks(r);
            } else {
                choices.next_into(rows, r);
            }
            // Padding rows of a chunk get random bits too, so that the
            // masked sums below never include known-zero choice bits.
            if rows % KAPPA != 0 {
                let last = &mut r[nb - 1];
                let keep = (1u128 << (rows % KAPPA)) - 1;
                *last = Block((last.0 & keep) | (prg.random_block().0 & !keep));
            }
            let t = &mut self.store[off..off + ncols * nb];
            if self.u.len() < ncols * nb {
                self.u.resize(ncols * nb, Block::ZERO);
            }
            let u = &mut self.u[..ncols * nb];
            for ((tc, uc), (g0, g1)) in t
                .chunks_exact_mut(nb)
                .zip(u.chunks_exact_mut(nb))
                .zip(self.prgs.iter_mut())
            {
                g0.fill_blocks(tc);
                g1.fill_blocks(uc);
                for ((u, t), r) in uc.iter_mut().zip(tc.iter()).zip(r.iter()) {
                    *u ^= *t ^ *r;
                }
            }
            #[cfg(feature = "adversary")]
            if let Some(c) = self.cheat {
                c.corrupt_columns(u, nb, first == 0 && rows > 0);
            }
            ch.send_blocks(u)?;
            if rows > 0 {
                on_chunk(first, rows, t);
            }
            first += rows;
            off += ncols * nb;
            roff += nb;
        }
        ch.flush()?;
        let seed = ch.recv_block()?;
        let chi = challenges(seed, nbt);
        let mut reply = column_hashes(&self.store, ncols, m, &chi);
        let mut x = gf_inner_product(&chi[..nbt - 1], &self.r[..nbt - 1]) ^ self.r[nbt - 1];
        #[cfg(feature = "adversary")]
        if let Some(c) = self.cheat {
            c.adjust_reply(&mut reply, &mut x, &chi);
        }
        reply.push(x);
        ch.send_blocks(&reply)?;
        ch.flush()?;
        reply.zeroize();
        x.zeroize();
        self.poisoned = false;
        Ok(())
    }
}
