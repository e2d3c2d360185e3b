//! Alice, the garbler.

use super::input_positions;
use crate::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::{decode_checked, garble_to_channel, Delta, GarblePlan, Garbler, Keep};
use brickyard_ot::{beaver, CotSenderBatch, IknpSender};

/// Alice's state across the phases.
pub struct YaoAlice {
    cfg: RunConfig,
    plan: GarblePlan,
    garbler: Garbler,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    ot: Option<IknpSender>,
    cots: Option<CotSenderBatch>,
    execution: u64,
}

impl YaoAlice {
    /// Compiles the circuit and draws Δ from OS randomness.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Self::with_prg(cfg, Prg::new())
    }

    /// As [`YaoAlice::new`] with a given PRG (fixed seeds in tests only).
    pub fn with_prg(cfg: RunConfig, prg: Prg) -> Result<Self> {
        cfg.validate()?;
        let plan = GarblePlan::new(&cfg.circuit)?;
        let mine = input_positions(&cfg, Role::Alice);
        let theirs = input_positions(&cfg, Role::Bob);
        Ok(YaoAlice {
            cfg,
            plan,
            garbler: Garbler::from_prg(prg),
            mine,
            theirs,
            ot: None,
            cots: None,
            execution: 0,
        })
    }

    /// Correlated OTs left for future executions.
    pub fn ots_left(&self) -> usize {
        self.cots.as_ref().map_or(0, |c| c.len())
    }

    /// Installs preprocessed OTs (e.g. loaded from a store) and the Δ they
    /// were made with, and the number of the next execution (tweaks of
    /// different executions under one Δ must differ).
    pub fn install(&mut self, cots: CotSenderBatch, next_execution: u64) -> Result<()> {
        let delta = Delta::new(cots.delta());
        self.garbler = Garbler::with_delta(delta, Prg::new());
        self.cots = Some(cots);
        self.execution = next_execution;
        Ok(())
    }

    /// Takes the remaining preprocessed OTs out (to store them).
    pub fn take_preprocessing(&mut self) -> Option<CotSenderBatch> {
        self.cots.take()
    }
}

impl Party for YaoAlice {
    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        let mut prg = Prg::new();
        self.ot = Some(IknpSender::setup_with_delta(
            ch,
            &mut prg,
            self.garbler.delta().block(),
        )?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let n = self.theirs.len() * self.cfg.executions;
        let ot = self
            .ot
            .as_mut()
            .ok_or_else(|| Error::config("yao: setup did not run"))?;
        self.cots = Some(ot.correlated_batch(ch, n)?);
        Ok(())
    }

    fn dependent(&mut self, _ch: &mut Channel) -> Result<()> {
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let bits = super::flatten(inputs);
        let cots = self
            .cots
            .as_mut()
            .ok_or_else(|| Error::Exhausted("yao: no preprocessed OTs".into()))?;
        let tweak = self.execution;
        self.execution += 1;
        let zero = self.garbler.input_zero_labels(&self.plan);
        let bob_zero: Vec<Block> = self.theirs.iter().map(|&p| zero[p]).collect();
        beaver::send_correlated(ch, cots, &bob_zero)?;
        let my_zero: Vec<Block> = self.mine.iter().map(|&p| zero[p]).collect();
        let my_labels = self.garbler.encode(&my_zero, &bits)?;
        ch.send_blocks(&my_labels)?;
        let out = garble_to_channel(
            &self.plan,
            self.garbler.delta(),
            &zero,
            tweak,
            Keep::Outputs,
            ch,
        )?;
        ch.send_bits(&out.decoding().bits)?;
        match self.cfg.output {
            OutputMode::Bob => Ok(None),
            OutputMode::Both => {
                let labels = ch.recv_block_vec(self.plan.output_wires().len())?;
                let bits = decode_checked(&labels, &out.output_zero_labels, self.garbler.delta())?;
                Ok(Some(super::split_outputs(&self.cfg, &bits)))
            }
        }
    }
}
