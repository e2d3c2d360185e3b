//! Bob, the evaluator.

use super::input_positions;
use super::material::{self, Pool};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_garble::{
    decode, evaluate, evaluate_streaming, Decoding, GarblePlan, GarbledCircuit, Keep,
};
use brickyard_ot::{beaver, IknpReceiver, RotReceiverBatch};
use brickyard_store::Store;

/// Bob's state across the phases.
pub struct YaoBob {
    cfg: RunConfig,
    plan: GarblePlan,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    prg: Prg,
    ot: Option<IknpReceiver>,
    pool: Pool<RotReceiverBatch>,
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
            pool: Pool::Empty,
        })
    }
}

impl Party for YaoBob {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        material::prepare_store(&mut store, 17)?;
        self.pool = Pool::Store(Box::new(store));
        Ok(())
    }

    /// Each execution reads all the peer sends in it (tested in
    /// `tests/yao.rs` through the driver's pipelined executions).
    fn pipelines(&self) -> bool {
        true
    }

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
        material::fill_receiver(&mut self.pool, ot, ch, &mut self.prg, n, &self.cfg.progress)
    }

    fn dependent(&mut self, _ch: &mut Channel) -> Result<()> {
        Ok(())
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        let want = (self.mine.len() * self.cfg.executions) as u64;
        material::sync(&mut self.pool, ch, want)?;
        // One evaluation of all-zero tables, read by nobody: the first
        // timed execution would otherwise also pay for the evaluation code
        // and the plan's gate list coming into the caches (issue #30).
        let tables = GarbledCircuit {
            tables: vec![Block::ZERO; self.plan.table_blocks()],
            tweak_offset: 0,
        };
        let labels = vec![Block::ZERO; self.plan.input_wires().len()];
        evaluate(&self.plan, &tables, &labels, Keep::Outputs)?;
        Ok(())
    }

    fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
        material::store_parameters()
    }

    fn poison_store(&mut self, check: &str) -> Result<()> {
        material::poison(&mut self.pool, check)
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let bits = super::flatten(inputs);
        let mut rots = material::take_receiver(&mut self.pool, self.mine.len())?;
        let my_labels = beaver::receive(ch, &mut rots, &bits)?;
        let their_labels = ch.recv_block_vec(self.theirs.len())?;
        let mut labels = vec![Block::ZERO; self.plan.input_wires().len()];
        for (&p, &l) in self.mine.iter().zip(&my_labels) {
            labels[p] = l;
        }
        for (&p, &l) in self.theirs.iter().zip(&their_labels) {
            labels[p] = l;
        }
        let out = evaluate_streaming(&self.plan, &labels, 0, Keep::Outputs, ch)?;
        if self.cfg.output == OutputMode::Alice {
            // Alice decodes (and checks each label is one of the wire's
            // two); Bob, without the decoding bits, learns nothing.
            ch.send_blocks(&out.output_labels)?;
            return Ok(None);
        }
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
