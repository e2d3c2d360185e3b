//! Bob, the evaluator.

use super::input_positions;
use crate::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::{decode, evaluate_streaming, Decoding, GarblePlan, Keep};
use brickyard_ot::{beaver, CotReceiverBatch, IknpReceiver};

/// Bob's state across the phases.
pub struct YaoBob {
    cfg: RunConfig,
    plan: GarblePlan,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    prg: Prg,
    ot: Option<IknpReceiver>,
    cots: Option<CotReceiverBatch>,
    execution: u64,
}

impl YaoBob {
    /// Compiles the circuit.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Self::with_prg(cfg, Prg::new())
    }

    /// As [`YaoBob::new`] with a given PRG (fixed seeds in tests only).
    pub fn with_prg(cfg: RunConfig, prg: Prg) -> Result<Self> {
        cfg.validate()?;
        let plan = GarblePlan::new(&cfg.circuit)?;
        let mine = input_positions(&cfg, Role::Bob);
        let theirs = input_positions(&cfg, Role::Alice);
        Ok(YaoBob {
            cfg,
            plan,
            mine,
            theirs,
            prg,
            ot: None,
            cots: None,
            execution: 0,
        })
    }

    /// Installs preprocessed OTs (e.g. loaded from a store) and the number
    /// of the next execution.
    pub fn install(&mut self, cots: CotReceiverBatch, next_execution: u64) {
        self.cots = Some(cots);
        self.execution = next_execution;
    }

    /// Takes the remaining preprocessed OTs out (to store them).
    pub fn take_preprocessing(&mut self) -> Option<CotReceiverBatch> {
        self.cots.take()
    }
}

impl Party for YaoBob {
    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.ot = Some(IknpReceiver::setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let n = self.mine.len() * self.cfg.executions;
        let ot = self
            .ot
            .as_mut()
            .ok_or_else(|| Error::config("yao: setup did not run"))?;
        self.cots = Some(ot.correlated_batch(ch, &mut self.prg, n)?);
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
        let my_labels = beaver::receive_correlated(ch, cots, &bits)?;
        let their_labels = ch.recv_block_vec(self.theirs.len())?;
        let mut labels = vec![Block::ZERO; self.plan.input_wires().len()];
        for (&p, &l) in self.mine.iter().zip(&my_labels) {
            labels[p] = l;
        }
        for (&p, &l) in self.theirs.iter().zip(&their_labels) {
            labels[p] = l;
        }
        let out = evaluate_streaming(&self.plan, &labels, tweak, Keep::Outputs, ch)?;
        let decoding = Decoding {
            bits: ch.recv_bits(self.plan.output_wires().len())?,
        };
        let bits = decode(&out.output_labels, &decoding)?;
        if self.cfg.output == OutputMode::Both {
            ch.send_blocks(&out.output_labels)?;
        }
        Ok(Some(super::split_outputs(&self.cfg, &bits)))
    }
}
