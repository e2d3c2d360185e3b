//! The KOS extension sender (holds Δ; runs the consistency check).

use super::columns::ColSender;
use super::KOS_BATCH;
use crate::iknp::{fill_tweaks, transpose_to, CHUNK_OTS, KAPPA};
use crate::rot::RotSenderBatch;
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Sender side of a KOS session. Every extension call checks the
/// receiver's consistency before returning anything.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct KosSender {
    core: ColSender,
    delta: Block,
    /// Source of the check challenges (seeded from the caller's PRG).
    prg: Prg,
    /// Index of the next OT of this session: the hash tweak.
    index: u64,
    /// Transpose scratch for partial chunks.
    rows: Vec<Block>,
    /// Correlated rows of one batch (random / chosen OT hash them).
    buf: Vec<Block>,
    h0: Vec<Block>,
    h1: Vec<Block>,
    tweaks: Vec<Block>,
}

crate::ext::sender_api!(KosSender);

impl Drop for KosSender {
    fn drop(&mut self) {
        self.delta.zeroize();
        self.rows.zeroize();
        self.buf.zeroize();
        self.h0.zeroize();
        self.h1.zeroize();
    }
}

impl KosSender {
    /// Runs the base OTs with a chosen Δ (e.g. a free-XOR offset with
    /// `lsb = 1`, or a TinyOT MAC key with fixed low bits).
    pub fn setup_with_delta(ch: &mut Channel, prg: &mut Prg, delta: Block) -> Result<Self> {
        let bits = (0..KAPPA).map(|j| delta.bit(j)).collect();
        let core = ColSender::setup(ch, prg, bits)?;
        Ok(Self::from_core(core, delta, prg))
    }

    /// The session from base OTs already run (as their receiver, with
    /// the bits of `delta` as choices, one per column: `seeds[j] =
    /// k_j^{Δ_j}`), e.g. together with base OTs the other way
    /// ([`crate::base::exchange_random`]). `Config` unless there are
    /// [`KAPPA`] seeds.
    pub fn from_base(delta: Block, mut seeds: Vec<Block>, prg: &mut Prg) -> Result<Self> {
        if seeds.len() != KAPPA {
            seeds.zeroize();
            return Err(brickyard_core::Error::config(
                "KOS: one base OT per column (128)",
            ));
        }
        let bits = (0..KAPPA).map(|j| delta.bit(j)).collect();
        Ok(Self::from_core(
            ColSender::from_base(bits, seeds),
            delta,
            prg,
        ))
    }

    /// The session over a column core whose base OTs are done.
    pub(crate) fn from_core(core: ColSender, delta: Block, prg: &mut Prg) -> Self {
        KosSender {
            core,
            delta,
            prg: Prg::from_seed(prg.random_block()),
            index: 0,
            rows: Vec::new(),
            buf: Vec::new(),
            h0: Vec::new(),
            h1: Vec::new(),
            tweaks: Vec::new(),
        }
    }

    /// The base-OT flight that [`KosSender::setup_with_delta`] sends when
    /// `prg` is its PRG: the receiver's check of a committed extension (see
    /// [`super::KosReceiver::setup_recorded`]). Draws from `prg` exactly
    /// what the setup draws for its base OTs, in the same order.
    pub fn replay_base_flight(prg: &mut Prg, delta: Block) -> Result<Vec<u8>> {
        let bits: Vec<bool> = (0..KAPPA).map(|j| delta.bit(j)).collect();
        crate::base::replay_receiver_flight(prg, &bits)
    }

    /// Extends one check batch (`out.len() ≤ KOS_BATCH`) into `out`.
    fn batch(&mut self, ch: &mut Channel, out: &mut [Block]) -> Result<()> {
        let KosSender {
            core, prg, rows, ..
        } = self;
        core.extend(ch, prg, out.len(), |first, n, cols| {
            transpose_to(cols, rows, &mut out[first..first + n])
        })?;
        self.index += out.len() as u64;
        Ok(())
    }

    /// Correlated OTs into `out`: `out[i] = q_i`, the receiver with choice
    /// `c_i` holds `q_i ⊕ c_i·Δ`. Not hashed: use only where a
    /// Δ-correlation is wanted (free-XOR labels, IT-MACs). A malicious
    /// receiver may have learnt a few bits of Δ, each at the price of a 1/2
    /// chance of being caught (see `docs/security.md`).
    pub fn correlated_into(&mut self, ch: &mut Channel, out: &mut [Block]) -> Result<()> {
        for b in out.chunks_mut(KOS_BATCH) {
            self.batch(ch, b)?;
        }
        Ok(())
    }

    /// Extends one batch into `buf` and calls `f(offset, h0, h1)` for each
    /// chunk of hashes `TCCR(q_i, i)`, `TCCR(q_i ⊕ Δ, i)`.
    fn hashed_batch(
        &mut self,
        ch: &mut Channel,
        n: usize,
        mut f: impl FnMut(usize, &[Block], &[Block]),
    ) -> Result<()> {
        let start = self.index;
        let mut buf = std::mem::take(&mut self.buf);
        buf.resize(n, Block::ZERO);
        let r = self.batch(ch, &mut buf);
        if r.is_ok() {
            for (k, q) in buf.chunks(CHUNK_OTS).enumerate() {
                let off = k * CHUNK_OTS;
                self.h0.clear();
                self.h0.extend_from_slice(q);
                self.h1.clear();
                self.h1.extend(q.iter().map(|&x| x ^ self.delta));
                self.tweaks.resize(q.len(), Block::ZERO);
                fill_tweaks(start + off as u64, &mut self.tweaks);
                tccr_batch(&mut self.h0, &self.tweaks);
                tccr_batch(&mut self.h1, &self.tweaks);
                f(off, &self.h0, &self.h1);
            }
        }
        self.buf = buf;
        r
    }

    /// Random OTs into `out`: `(TCCR(q_i, i), TCCR(q_i ⊕ Δ, i))`.
    pub fn random_into(&mut self, ch: &mut Channel, out: &mut [(Block, Block)]) -> Result<()> {
        for b in out.chunks_mut(KOS_BATCH) {
            self.hashed_batch(ch, b.len(), |off, h0, h1| {
                for ((o, &a), &c) in b[off..].iter_mut().zip(h0).zip(h1) {
                    *o = (a, c);
                }
            })?;
        }
        Ok(())
    }

    /// Random OTs stored for later use (see [`crate::beaver`]).
    pub fn random_batch(&mut self, ch: &mut Channel, n: usize) -> Result<RotSenderBatch> {
        let start = self.index;
        let pairs = self.random(ch, n)?;
        let (m0, m1) = pairs.into_iter().unzip();
        Ok(RotSenderBatch::new(start, m0, m1))
    }

    /// Chosen-message OT: the receiver learns `msgs[i].c_i`. The padded
    /// pairs of a batch are sent only after that batch's check passed, so a
    /// cheating receiver is caught before it sees anything.
    pub fn chosen(&mut self, ch: &mut Channel, msgs: &[(Block, Block)]) -> Result<()> {
        let mut ys = Vec::with_capacity(2 * msgs.len().min(KOS_BATCH));
        for b in msgs.chunks(KOS_BATCH) {
            ys.clear();
            self.hashed_batch(ch, b.len(), |off, h0, h1| {
                for ((&(x0, x1), &a), &c) in b[off..].iter().zip(h0).zip(h1) {
                    ys.push(x0 ^ a);
                    ys.push(x1 ^ c);
                }
            })?;
            ch.send_blocks(&ys)?;
            ch.flush()?;
        }
        Ok(())
    }
}
