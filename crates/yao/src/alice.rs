//! Alice, the garbler.

use super::input_positions;
use super::material::{self, Pool};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_garble::{decode_checked, garble_into, garble_streaming, Delta, GarblePlan, Keep};
use brickyard_ot::{beaver, IknpSender, RotSenderBatch};
use brickyard_store::Store;
use zeroize::Zeroizing;

/// Tables garbled while Bob's corrections are not there yet are held back
/// up to this many blocks (4 MiB, a whole AES-128 is 13 600), then Alice
/// waits for them: memory stays bounded whatever the circuit.
const AHEAD_BLOCKS: usize = 1 << 18;

/// Streamed tables are sent in writes of at least this many blocks (64 KiB).
const COALESCE_BLOCKS: usize = 4096;

/// Held tables shorter than this many bytes are queued in the channel's
/// write buffer (below its size, 64 KiB, so they are copied, not flushed).
const WRITE_BUFFER_HINT: usize = 48 << 10;

/// Alice's state across the phases.
pub struct YaoAlice {
    cfg: RunConfig,
    plan: GarblePlan,
    prg: Prg,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    ot: Option<IknpSender>,
    pool: Pool<RotSenderBatch>,
    /// Tables garbled before Bob's corrections arrived; kept between
    /// executions so the allocation is reused (tables are public: they all
    /// go to Bob).
    held: Vec<Block>,
}

impl YaoAlice {
    /// Compiles the circuit.
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
            prg,
            mine,
            theirs,
            ot: None,
            pool: Pool::Empty,
            held: Vec::new(),
        })
    }
}

impl Party for YaoAlice {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        material::prepare_store(&mut store, 32)?;
        self.pool = Pool::Store(Box::new(store));
        Ok(())
    }

    /// Each execution reads all the peer sends in it (tested in
    /// `tests/yao.rs` through the driver's pipelined executions).
    fn pipelines(&self) -> bool {
        true
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.ot = Some(IknpSender::setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let n = self.theirs.len() * self.cfg.executions;
        let ot = self
            .ot
            .as_mut()
            .ok_or_else(|| Error::config("yao: setup did not run"))?;
        material::fill_sender(&mut self.pool, ot, ch, n, &self.cfg.progress)
    }

    fn dependent(&mut self, _ch: &mut Channel) -> Result<()> {
        Ok(())
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        let want = (self.theirs.len() * self.cfg.executions) as u64;
        material::sync(&mut self.pool, ch, want)?;
        // One garbling under a throwaway Δ, sent nowhere: the first timed
        // execution would otherwise also pay for the garbling code, the
        // plan's gate list and the table buffer coming into the caches
        // (issue #30: first execution within 1.2× of the median).
        let delta = Delta::random(&mut self.prg);
        let mut zero = Zeroizing::new(vec![Block::ZERO; self.plan.input_wires().len()]);
        self.prg.fill_blocks(&mut zero);
        self.held.reserve(self.plan.table_blocks());
        garble_into(&self.plan, &delta, &zero, 0, Keep::Outputs, &mut self.held)?;
        self.held.clear();
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
        let mut rots = material::take_sender(&mut self.pool, self.theirs.len())?;
        // A fresh Δ and fresh labels per execution: no tweak or label is
        // ever shared between two garblings.
        let delta = Delta::random(&mut self.prg);
        let d = delta.block();
        let mut zero = Zeroizing::new(vec![Block::ZERO; self.plan.input_wires().len()]);
        self.prg.fill_blocks(&mut zero);
        let bob_pairs: Zeroizing<Vec<(Block, Block)>> = Zeroizing::new(
            self.theirs
                .iter()
                .map(|&p| (zero[p], zero[p] ^ d))
                .collect(),
        );
        let my_labels: Zeroizing<Vec<Block>> = Zeroizing::new(
            self.mine
                .iter()
                .zip(&bits)
                .map(|(&p, &b)| zero[p] ^ d.and_bit(b))
                .collect(),
        );
        // Garbling needs neither Bob's corrections nor the inputs, so Alice
        // garbles while his corrections are on their way, holding the tables
        // back until they are there (polled after each piece, never waited
        // on while she can garble): in barrier-separated executions they
        // arrive during the first piece and the rest streams as it is
        // garbled; pipelined, she garbles the next circuit while Bob still
        // evaluates the previous one. The messages on the wire keep their
        // order: his masked label pairs, her labels, the tables, the
        // decoding bits. The last piece is held too and leaves with the
        // decoding bits: one write and one wake-up of Bob fewer.
        let total = self.plan.table_blocks();
        let mut streamed = 0;
        let mut held = std::mem::take(&mut self.held);
        held.clear();
        let mut labels_sent = false;
        let mut send_labels = |ch: &mut Channel| -> Result<()> {
            beaver::send(ch, &mut rots, &bob_pairs)?;
            ch.send_blocks(&my_labels)
        };
        let out = garble_streaming(&self.plan, &delta, &zero, 0, Keep::Outputs, &mut |t| {
            streamed += t.len();
            if labels_sent && streamed < total {
                // Pieces leave in writes of at least COALESCE_BLOCKS: each
                // write may wake Bob, which costs Alice more than the copy.
                if held.is_empty() && t.len() >= COALESCE_BLOCKS {
                    return ch.send_blocks_now(t);
                }
                held.extend_from_slice(t);
                if held.len() >= COALESCE_BLOCKS {
                    ch.send_blocks_now(&held)?;
                    held.clear();
                }
                return Ok(());
            }
            held.extend_from_slice(t);
            if labels_sent
                || streamed == total
                || (held.len() < AHEAD_BLOCKS && !ch.peer_ready()?)
            {
                return Ok(());
            }
            send_labels(ch)?;
            labels_sent = true;
            ch.send_blocks_now(&held)?;
            held.clear();
            Ok(())
        })?;
        if !labels_sent {
            send_labels(ch)?;
        }
        // A short tail is copied into the write buffer and leaves with the
        // decoding bits at the end of the flight; a long one (the whole
        // circuit, garbled before the corrections came) goes out at once
        // with the queued labels.
        if 16 * held.len() < WRITE_BUFFER_HINT {
            ch.send_blocks(&held)?;
        } else {
            ch.send_blocks_now(&held)?;
        }
        self.held = held;
        // With output to Alice only, Bob never gets the decoding bits.
        if self.cfg.output != OutputMode::Alice {
            ch.send_bits(&out.decoding().bits)?;
        }
        match self.cfg.output {
            OutputMode::Bob => Ok(None),
            OutputMode::Both | OutputMode::Alice => {
                let labels = ch.recv_block_vec(self.plan.output_wires().len())?;
                let bits = decode_checked(&labels, &out.output_zero_labels, &delta)?;
                Ok(Some(super::split_outputs(&self.cfg, &bits)))
            }
        }
    }
}
