//! The KOS extension receiver (holds the choice bits; answers the check).

use super::columns::ColReceiver;
use super::KOS_BATCH;
use crate::ext::Choices;
use crate::iknp::{fill_tweaks, transpose_to, KAPPA};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use zeroize::Zeroize;

/// Receiver side of a KOS session.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct KosReceiver {
    core: ColReceiver,
    /// Randomness for the row padding and the mask block.
    prg: Prg,
    index: u64,
    rows: Vec<Block>,
    tweaks: Vec<Block>,
}

crate::ext::receiver_api!(KosReceiver);

impl KosReceiver {
    /// Runs the 128 base OTs (as their sender).
    pub fn setup(ch: &mut Channel, prg: &mut Prg) -> Result<Self> {
        Self::setup_recorded(ch, prg).map(|(r, _)| r)
    }

    /// [`KosReceiver::setup`] that also returns the sender's base-OT flight
    /// as received: a receiver who later learns the sender's setup PRG seed
    /// and Δ (a committed extension, as garbled-circuit zero knowledge
    /// needs) compares it with [`super::KosSender::replay_base_flight`] to
    /// know that the sender holds exactly the keys Δ selects.
    pub fn setup_recorded(ch: &mut Channel, prg: &mut Prg) -> Result<(Self, Vec<u8>)> {
        let (core, flight) = ColReceiver::setup_recorded(ch, prg, KAPPA)?;
        Ok((Self::from_core(core, prg), flight))
    }

    /// The session from base OTs already run (as their sender, one pair
    /// per column), e.g. together with base OTs the other way
    /// ([`crate::base::exchange_random`]). `Config` unless there are
    /// [`KAPPA`] pairs.
    pub fn from_base(mut seeds: Vec<(Block, Block)>, prg: &mut Prg) -> Result<Self> {
        if seeds.len() != KAPPA {
            seeds.zeroize();
            return Err(brickyard_core::Error::config(
                "KOS: one base OT per column (128)",
            ));
        }
        Ok(Self::from_core(ColReceiver::from_base(seeds), prg))
    }

    /// The session over a column core whose base OTs are done.
    pub(crate) fn from_core(core: ColReceiver, prg: &mut Prg) -> Self {
        KosReceiver {
            core,
            prg: Prg::from_seed(prg.random_block()),
            index: 0,
            rows: Vec::new(),
            tweaks: Vec::new(),
        }
    }

    /// Installs a cheating strategy (tests of the sender's check only).
    #[cfg(feature = "adversary")]
    pub fn set_cheat(&mut self, cheat: Option<crate::adversary::KosReceiverCheat>) {
        self.core.cheat = cheat;
    }

    /// Extends one check batch (`out.len() ≤ KOS_BATCH`) into `out`.
    fn batch(
        &mut self,
        ch: &mut Channel,
        choices: &mut Choices<'_>,
        out: &mut [Block],
    ) -> Result<()> {
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

    /// Extends `out.len()` OTs batch by batch, each hashed (if `hash`) only
    /// after its check passed.
    fn extend_into(
        &mut self,
        ch: &mut Channel,
        mut choices: Choices<'_>,
        hash: bool,
        out: &mut [Block],
    ) -> Result<()> {
        for o in out.chunks_mut(KOS_BATCH) {
            let start = self.index;
            self.batch(ch, &mut choices, o)?;
            if hash {
                self.hash(start, o);
            }
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
        self.extend_into(ch, Choices::Random(prg, bits), false, out)
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
}
