//! The KOS extension receiver (holds the choice bits; answers the check).

use super::columns::{Choices, ColReceiver};
use super::KOS_BATCH;
use crate::iknp::{fill_tweaks, transpose_to, KAPPA};
use crate::rot::{CotReceiverBatch, RotReceiverBatch};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};

/// Receiver side of a KOS session.
pub struct KosReceiver {
    core: ColReceiver,
    /// Randomness for the row padding and the mask block.
    prg: Prg,
    index: u64,
    rows: Vec<Block>,
    tweaks: Vec<Block>,
}

impl std::fmt::Debug for KosReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KosReceiver {{ index: {} }}", self.index)
    }
}

impl KosReceiver {
    /// Runs the 128 base OTs (as their sender).
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Self> {
        Ok(KosReceiver {
            core: ColReceiver::setup(ch, prg, KAPPA)?,
            prg: Prg::from_seed(prg.random_block()),
            index: 0,
            rows: Vec::new(),
            tweaks: Vec::new(),
        })
    }

    /// Number of OTs extended so far in this session.
    pub fn ots_done(&self) -> u64 {
        self.index
    }

    /// Installs a cheating strategy (tests of the sender's check only).
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Option<crate::adversary::KosReceiverCheat>) {
        self.core.cheat = cheat;
    }

    fn batch(&mut self, ch: &mut Channel, choices: Choices<'_>, out: &mut [Block]) -> Result<()> {
        let KosReceiver {
            core, prg, rows, ..
        } = self;
        core.extend(ch, prg, out.len(), choices, |first, n, cols| {
            transpose_to(cols, rows, &mut out[first..first + n])
        })?;
        self.index += out.len() as u64;
        Ok(())
    }

    fn hash(&mut self, start: u64, out: &mut [Block]) {
        self.tweaks.resize(out.len(), Block::ZERO);
        fill_tweaks(start, &mut self.tweaks);
        tccr_batch(out, &self.tweaks);
    }

    /// Correlated OTs into `out`: `out[i] = t_i = q_i ⊕ c_i·Δ`.
    ///
    /// # Panics
    /// If the lengths differ (caller bug).
    pub fn correlated_into(
        &mut self,
        ch: &mut Channel,
        choices: &[bool],
        out: &mut [Block],
    ) -> Result<()> {
        assert_eq!(choices.len(), out.len(), "correlated_into: length mismatch");
        for (c, o) in choices.chunks(KOS_BATCH).zip(out.chunks_mut(KOS_BATCH)) {
            self.batch(ch, Choices::Given(c), o)?;
        }
        Ok(())
    }

    /// Correlated OTs with random choice bits drawn from `prg` (packed, so
    /// no per-bit draws) and appended to `bits`: `out[i] = t_i`.
    pub(crate) fn correlated_random_into(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        bits: &mut Vec<bool>,
        out: &mut [Block],
    ) -> Result<()> {
        for o in out.chunks_mut(KOS_BATCH) {
            self.batch(ch, Choices::Random(prg, bits), o)?;
        }
        Ok(())
    }

    /// Correlated OTs: returns `t_i`.
    pub fn correlated(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        let mut out = vec![Block::ZERO; choices.len()];
        self.correlated_into(ch, choices, &mut out)?;
        Ok(out)
    }

    /// Random OTs with chosen choice bits into `out`: `TCCR(t_i, i)`.
    ///
    /// # Panics
    /// If the lengths differ (caller bug).
    pub fn random_into(
        &mut self,
        ch: &mut Channel,
        choices: &[bool],
        out: &mut [Block],
    ) -> Result<()> {
        assert_eq!(choices.len(), out.len(), "random_into: length mismatch");
        for (c, o) in choices.chunks(KOS_BATCH).zip(out.chunks_mut(KOS_BATCH)) {
            let start = self.index;
            self.batch(ch, Choices::Given(c), o)?;
            self.hash(start, o);
        }
        Ok(())
    }

    /// Random OTs with chosen choice bits: returns `m_{c_i}`.
    pub fn random(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        let mut out = vec![Block::ZERO; choices.len()];
        self.random_into(ch, choices, &mut out)?;
        Ok(out)
    }

    /// Random OTs with random choice bits, stored for later use.
    pub fn random_batch(
        &mut self,
        ch: &mut Channel,
        prg: &mut Prg,
        n: usize,
    ) -> Result<RotReceiverBatch> {
        let start = self.index;
        let mut bits = Vec::with_capacity(n);
        let mut t = vec![Block::ZERO; n];
        for o in t.chunks_mut(KOS_BATCH) {
            let s = self.index;
            self.batch(ch, Choices::Random(prg, &mut bits), o)?;
            self.hash(s, o);
        }
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
        let mut t = vec![Block::ZERO; n];
        for o in t.chunks_mut(KOS_BATCH) {
            self.batch(ch, Choices::Random(prg, &mut bits), o)?;
        }
        Ok(CotReceiverBatch::new(start, bits, t))
    }

    /// Chosen-message OT into `out`: `out[i] = x_{c_i}`.
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
        let mut ys = Vec::new();
        for (c, o) in choices.chunks(KOS_BATCH).zip(out.chunks_mut(KOS_BATCH)) {
            self.random_into(ch, c, o)?;
            ys.resize(2 * c.len(), Block::ZERO);
            ch.recv_blocks(&mut ys)?;
            for ((&b, h), y) in c.iter().zip(o.iter_mut()).zip(ys.chunks_exact(2)) {
                *h ^= y[b as usize];
            }
        }
        Ok(())
    }

    /// Chosen-message OT: returns `x_{c_i}`.
    pub fn chosen(&mut self, ch: &mut Channel, choices: &[bool]) -> Result<Vec<Block>> {
        let mut out = vec![Block::ZERO; choices.len()];
        self.chosen_into(ch, choices, &mut out)?;
        Ok(out)
    }
}
