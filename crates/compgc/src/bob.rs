//! Bob, the evaluator: stores the library offline, EVAL online.

use super::components::ComponentType;
use super::function::{Function, Step};
use super::library::{self, BobInstance, MemoryLibrary};
use super::{function_for, library_for, ots_for, CompgcParams};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, RunConfig};
use brickyard_garble::{decode, evaluate, Decoding, GarbledCircuit, Keep};
use brickyard_ot::{IknpReceiver, RotReceiverBatch};
use brickyard_rot_pool::{self as material, Pool};
use brickyard_store::Store;
use std::sync::Arc;
use zeroize::Zeroizing;

/// Bob's state across the phases.
pub struct CompgcBob {
    cfg: RunConfig,
    params: CompgcParams,
    function: Arc<Function>,
    prg: Prg,
    ot: Option<IknpReceiver>,
    pool: Pool<RotReceiverBatch>,
    lib: MemoryLibrary<BobInstance>,
}

impl CompgcBob {
    /// Checks the function against the run.
    pub fn new(cfg: RunConfig, params: CompgcParams) -> Result<Self> {
        Self::with_prg(cfg, params, Prg::new())
    }

    /// As [`CompgcBob::new`] with a given PRG (fixed seeds in tests only).
    pub fn with_prg(cfg: RunConfig, params: CompgcParams, prg: Prg) -> Result<Self> {
        cfg.validate()?;
        let function = function_for(&cfg, &params)?;
        Ok(CompgcBob {
            cfg,
            params,
            function,
            prg,
            ot: None,
            pool: Pool::Empty,
            lib: MemoryLibrary::default(),
        })
    }

    fn random_ots(&mut self, ch: &mut Channel, n: usize) -> Result<()> {
        let ot = self
            .ot
            .as_mut()
            .ok_or_else(|| Error::config("compgc: setup did not run"))?;
        material::fill_receiver(&mut self.pool, ot, ch, &mut self.prg, n, &self.cfg.progress)
    }
}

/// Beaver derandomisation split in two (same wire format as
/// `brickyard_ot::beaver`): Bob sends his corrections first, then reads
/// Alice's link labels, which she sent without waiting, then the OT answer.
fn send_corrections(ch: &mut Channel, mat: &RotReceiverBatch, choices: &[bool]) -> Result<()> {
    let d: Zeroizing<Vec<bool>> = Zeroizing::new(
        choices
            .iter()
            .zip(mat.choices())
            .map(|(&b, &c)| b ^ c)
            .collect(),
    );
    ch.send_bytes(&mat.next_index().to_le_bytes())?;
    ch.send_bits(&d)?;
    ch.flush()
}

impl Party for CompgcBob {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        material::prepare_store(&mut store, 17)?;
        self.pool = Pool::Store(Box::new(store));
        Ok(())
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.ot = Some(IknpReceiver::setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let list = library_for(&self.cfg, &self.params, &self.function)?;
        let n_ots = ots_for(&self.cfg, &self.params, &self.function, &list);
        let max: u64 = list.iter().map(|(_, n)| *n as u64).sum();
        self.cfg.progress.add_total(max);
        self.random_ots(ch, n_ots)?;
        let known: Vec<ComponentType> = list.into_iter().map(|(t, _)| t).collect();
        // Bob accepts only the types he expects: a name is resolved (and a
        // circuit compiled) only if it is in his own list.
        let resolve = |name: &str| -> Result<ComponentType> {
            known
                .iter()
                .find(|t| t.name == name)
                .cloned()
                .ok_or_else(|| {
                    Error::malformed(format!(
                        "compgc: peer garbles unexpected component `{name}`"
                    ))
                })
        };
        let mut next_tweak = 1u64;
        let progress = self.cfg.progress.clone();
        match &mut self.pool {
            Pool::Store(s) => {
                for t in &known {
                    library::add_kind(s, t, false)?;
                }
                library::receive_library(ch, resolve, max, &mut next_tweak, |t, i| {
                    progress.advance(1);
                    library::store_bob(s, t, &i)
                })?;
                s.commit()
            }
            _ => {
                let lib = &mut self.lib;
                library::receive_library(ch, resolve, max, &mut next_tweak, |t, i| {
                    progress.advance(1);
                    lib.push(&t.name, i);
                    Ok(())
                })
            }
        }
    }

    fn dependent(&mut self, _ch: &mut Channel) -> Result<()> {
        Ok(())
    }

    fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
        self.params.store_parameters()
    }

    fn poison_store(&mut self, check: &str) -> Result<()> {
        brickyard_rot_pool::poison(&mut self.pool, check)
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        let mut theirs = [0u8; 32];
        ch.recv_bytes(&mut theirs)?;
        if theirs != self.function.digest {
            return Err(Error::config(
                "compgc: the peer links a different function spec (digests differ)",
            ));
        }
        if let Pool::Store(s) = &mut self.pool {
            super::sync_store(s, ch, &self.cfg, &self.function)?;
        }
        // One evaluation of each component type on all-zero tables, read by
        // nobody: the first timed execution would otherwise also pay for
        // the evaluation code and the components' gate lists coming into
        // the caches (issue #30: first execution within 1.2× of the median).
        for ty in &self.function.types {
            let gc = GarbledCircuit {
                tables: vec![Block::ZERO; ty.plan.table_blocks()],
                tweak_offset: 0,
            };
            evaluate(
                &ty.plan,
                &gc,
                &vec![Block::ZERO; ty.inputs()],
                Keep::Outputs,
            )?;
        }
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let f = self.function.clone();
        let bits = brickyard_driver::layout::flatten(inputs);
        let n_ot = f.bob_ot.len();
        let mut rots = material::take_receiver(&mut self.pool, n_ot)?;
        let mat = rots.take(n_ot)?;
        let choices: Vec<bool> = f.bob_ot.iter().map(|&(e, _)| bits[e as usize]).collect();
        send_corrections(ch, &mat, &choices)?;
        let mut insts: Vec<Vec<BobInstance>> = Vec::with_capacity(f.types.len());
        for (t, &n) in f.types.iter().zip(&f.type_counts) {
            insts.push(match &mut self.pool {
                Pool::Store(s) => library::take_bob(s, t, n)?,
                _ => self.lib.take(&t.name, n)?,
            });
        }
        let n_msg = f.alice_dests.len() + f.consts.len() + f.link_labels();
        let msg = ch.recv_block_vec(n_msg)?;
        // With output to Alice only, Bob gets no decoding bits.
        let alice_only = self.cfg.output == OutputMode::Alice;
        let decoding = Decoding {
            bits: if alice_only {
                Vec::new()
            } else {
                ch.recv_bits(f.outputs.len())?
            },
        };
        let ys = ch.recv_block_vec(2 * n_ot)?;
        let ot_labels: Zeroizing<Vec<Block>> = Zeroizing::new(
            choices
                .iter()
                .zip(mat.msgs())
                .zip(ys.chunks_exact(2))
                .map(|((&b, &m), y)| y[b as usize] ^ m)
                .collect(),
        );

        let mut labels: Vec<Zeroizing<Vec<Block>>> = f
            .gc_type
            .iter()
            .map(|&t| Zeroizing::new(vec![Block::ZERO; f.types[t as usize].inputs()]))
            .collect();
        let mut outs: Vec<Vec<Block>> = vec![Vec::new(); f.instances()];
        let mut next = msg.iter().copied();
        let mut take = || next.next().unwrap_or(Block::ZERO);
        for &(_, t) in &f.alice_dests {
            labels[t.gc as usize][t.wire as usize] = take();
        }
        for &(_, t) in &f.consts {
            labels[t.gc as usize][t.wire as usize] = take();
        }
        for (k, &(_, t)) in f.bob_ot.iter().enumerate() {
            labels[t.gc as usize][t.wire as usize] = ot_labels[k];
        }
        for &(j, t) in &f.bob_links {
            labels[t.gc as usize][t.wire as usize] = ot_labels[j as usize] ^ take();
        }
        for s in &f.steps {
            match *s {
                Step::Eval(g) => {
                    let ty = &f.types[f.gc_type[g as usize] as usize];
                    let inst =
                        &mut insts[f.gc_type[g as usize] as usize][f.gc_slot[g as usize] as usize];
                    let gc = GarbledCircuit {
                        tables: std::mem::take(&mut inst.tables),
                        tweak_offset: inst.tweak,
                    };
                    outs[g as usize] =
                        evaluate(&ty.plan, &gc, &labels[g as usize], Keep::Outputs)?.output_labels;
                }
                Step::Chain {
                    from,
                    from_wire,
                    to,
                    to_wire,
                    len,
                } => {
                    for k in 0..len as usize {
                        labels[to as usize][to_wire as usize + k] =
                            outs[from as usize][from_wire as usize + k] ^ take();
                    }
                }
            }
        }
        let out_labels: Vec<Block> = f
            .outputs
            .iter()
            .map(|&(g, w)| outs[g as usize][w as usize])
            .collect();
        if alice_only {
            ch.send_blocks(&out_labels)?;
            return Ok(None);
        }
        let bits = decode(&out_labels, &decoding)?;
        if self.cfg.output == OutputMode::Both {
            ch.send_blocks(&out_labels)?;
        }
        Ok(Some(brickyard_driver::layout::split_outputs(
            &self.cfg, &bits,
        )))
    }
}
