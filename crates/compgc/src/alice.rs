//! Alice, the garbler: GARBLE offline, LINK online.

use super::function::{Function, Step};
use super::library::{self, AliceInstance, MemoryLibrary, DELTA_SECRET};
use super::{function_for, library_for, ots_for, CompgcParams};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, RunConfig};
use brickyard_garble::{decode_checked, Delta};
use brickyard_ot::{beaver, IknpSender, RotSenderBatch};
use brickyard_rot_pool::{self as material, Pool};
use brickyard_store::Store;
use std::sync::Arc;
use zeroize::Zeroizing;

/// Alice's state across the phases.
pub struct CompgcAlice {
    cfg: RunConfig,
    params: CompgcParams,
    function: Arc<Function>,
    prg: Prg,
    ot: Option<IknpSender>,
    pool: Pool<RotSenderBatch>,
    delta: Option<Delta>,
    lib: MemoryLibrary<AliceInstance>,
}

impl CompgcAlice {
    /// Checks the function against the run.
    pub fn new(cfg: RunConfig, params: CompgcParams) -> Result<Self> {
        Self::with_prg(cfg, params, Prg::new())
    }

    /// As [`CompgcAlice::new`] with a given PRG (fixed seeds in tests only).
    pub fn with_prg(cfg: RunConfig, params: CompgcParams, prg: Prg) -> Result<Self> {
        cfg.validate()?;
        let function = function_for(&cfg, &params)?;
        Ok(CompgcAlice {
            cfg,
            params,
            function,
            prg,
            ot: None,
            pool: Pool::Empty,
            delta: None,
            lib: MemoryLibrary::default(),
        })
    }

    fn random_ots(&mut self, ch: &mut Channel, n: usize) -> Result<()> {
        let ot = self
            .ot
            .as_mut()
            .ok_or_else(|| Error::config("compgc: setup did not run"))?;
        material::fill_sender(&mut self.pool, ot, ch, n, &self.cfg.progress)
    }
}

impl Party for CompgcAlice {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        material::prepare_store(&mut store, 32)?;
        self.pool = Pool::Store(Box::new(store));
        Ok(())
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.ot = Some(IknpSender::setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let list = library_for(&self.cfg, &self.params, &self.function)?;
        let n_ots = ots_for(&self.cfg, &self.params, &self.function, &list);
        let total: usize = list.iter().map(|(_, n)| n).sum();
        self.cfg.progress.add_total(total as u64);
        self.random_ots(ch, n_ots)?;
        // One Δ for the whole library: linking needs every component under
        // the same offset (W⁰ ⊕ W̄⁰ = W¹ ⊕ W̄¹ only then).
        let delta = Delta::random(&mut self.prg);
        let mut next_tweak = 1u64;
        let mut store = match &mut self.pool {
            Pool::Store(s) => {
                if s.get_secret(DELTA_SECRET)?.is_some() {
                    return Err(Error::config(
                        "compgc: this store already holds a component library; preprocess into a fresh store",
                    ));
                }
                for (t, _) in &list {
                    library::add_kind(s, t, true)?;
                }
                s.put_secret(DELTA_SECRET, &delta.block().to_bytes())?;
                Some(s)
            }
            _ => None,
        };
        let lib = &mut self.lib;
        library::garble_library(
            ch,
            &delta,
            &mut self.prg,
            &list,
            &mut next_tweak,
            &self.cfg.progress,
            |t, i| match &mut store {
                Some(s) => library::store_alice(s, t, &i),
                None => {
                    lib.push(&t.name, i);
                    Ok(())
                }
            },
        )?;
        if let Some(s) = store {
            s.commit()?;
        }
        self.delta = Some(delta);
        Ok(())
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
        ch.send_bytes(&self.function.digest)?;
        ch.flush()?;
        if let Pool::Store(s) = &mut self.pool {
            super::sync_store(s, ch, &self.cfg, &self.function)?;
            if self.delta.is_none() {
                let raw = s.get_secret(DELTA_SECRET)?.ok_or_else(|| {
                    Error::Exhausted("compgc: the store holds no component library".into())
                })?;
                let bytes: [u8; 16] = raw[..]
                    .try_into()
                    .map_err(|_| Error::Storage("compgc: stored Δ has the wrong length".into()))?;
                self.delta = Some(Delta::new(Block::from_bytes(bytes)));
            }
        }
        // Her input transform once on zeros, result dropped: its code and
        // tables would otherwise come into the caches inside the first
        // timed execution (issue #30).
        let zeros = vec![false; self.function.garbler_user_bits()];
        std::hint::black_box(self.function.garbler_spec_bits(&zeros)?);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let f = self.function.clone();
        let delta = self
            .delta
            .clone()
            .ok_or_else(|| Error::config("compgc: no component library (preprocess first)"))?;
        let d = delta.block();
        let user = brickyard_driver::layout::flatten(inputs);
        let bits = Zeroizing::new(f.garbler_spec_bits(&user)?);
        let mut rots = material::take_sender(&mut self.pool, f.bob_ot.len())?;
        let mut insts: Vec<Vec<AliceInstance>> = Vec::with_capacity(f.types.len());
        for (t, &n) in f.types.iter().zip(&f.type_counts) {
            insts.push(match &mut self.pool {
                Pool::Store(s) => library::take_alice(s, t, n)?,
                _ => self.lib.take(&t.name, n)?,
            });
        }
        let inst = |g: u32| &insts[f.gc_type[g as usize] as usize][f.gc_slot[g as usize] as usize];
        let in0 = |g: u32, w: u32| inst(g).in0[w as usize];
        let out0 = |g: u32, w: u32| inst(g).out0[w as usize];

        // LINK: everything that does not wait for Bob goes first, so it
        // travels while his OT corrections are on their way.
        let mut msg = Vec::with_capacity(f.alice_dests.len() + f.consts.len() + f.link_labels());
        for &(i, t) in &f.alice_dests {
            msg.push(in0(t.gc, t.wire) ^ d.and_bit(bits[i as usize]));
        }
        for &(v, t) in &f.consts {
            msg.push(in0(t.gc, t.wire) ^ d.and_bit(v));
        }
        for &(j, t) in &f.bob_links {
            let first = f.bob_ot[j as usize].1;
            msg.push(in0(first.gc, first.wire) ^ in0(t.gc, t.wire));
        }
        for s in &f.steps {
            if let Step::Chain {
                from,
                from_wire,
                to,
                to_wire,
                len,
            } = *s
            {
                for k in 0..len {
                    msg.push(out0(from, from_wire + k) ^ in0(to, to_wire + k));
                }
            }
        }
        ch.send_blocks(&msg)?;
        if self.cfg.output != OutputMode::Alice {
            let decoding: Vec<bool> = f.outputs.iter().map(|&(g, w)| out0(g, w).lsb()).collect();
            ch.send_bits(&decoding)?;
        }
        let pairs: Zeroizing<Vec<(Block, Block)>> = Zeroizing::new(
            f.bob_ot
                .iter()
                .map(|&(_, t)| {
                    let z = in0(t.gc, t.wire);
                    (z, z ^ d)
                })
                .collect(),
        );
        beaver::send(ch, &mut rots, &pairs)?;
        match self.cfg.output {
            OutputMode::Bob => Ok(None),
            OutputMode::Both | OutputMode::Alice => {
                let labels = ch.recv_block_vec(f.outputs.len())?;
                let zero: Zeroizing<Vec<Block>> =
                    Zeroizing::new(f.outputs.iter().map(|&(g, w)| out0(g, w)).collect());
                let bits = decode_checked(&labels, &zero, &delta)?;
                Ok(Some(brickyard_driver::layout::split_outputs(
                    &self.cfg, &bits,
                )))
            }
        }
    }
}
