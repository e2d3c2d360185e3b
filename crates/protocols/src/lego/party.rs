//! LEGO's two parties on the driver's four phases:
//! setup = Setup, independent = Generate, dependent = Build, online = Eval.

use super::build;
use super::cheat::Cheats;
use super::delta_rot;
use super::eval::{self, Owners};
use super::evaluator::Evaluator;
use super::generate::{self, Plan};
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use super::params::{LegoParams, Objective, S};
use super::store::{
    self as lstore, AliceExec, AliceReady, AliceSession, BobExec, BobReady, BobSession, EXEC_KIND,
    SESSION_SECRET,
};
use crate::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_ot::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use brickyard_store::Store;
use std::collections::VecDeque;
use zeroize::Zeroizing;

/// Choices both parties must make identically.
#[derive(Clone, Copy, Debug)]
pub struct LegoOptions {
    /// What the parameter search minimises.
    pub objective: Objective,
    /// Statistical security parameter (≥ 40).
    pub s: u32,
}

impl Default for LegoOptions {
    fn default() -> Self {
        LegoOptions {
            objective: Objective::Communication,
            s: S,
        }
    }
}

/// Generate's sizes for all executions of a run: q, n, m are the circuit's
/// AND gates, input and output wires times the executions.
pub fn plan_for(cfg: &RunConfig, opts: &LegoOptions) -> Result<Plan> {
    let c = &cfg.circuit;
    let e = cfg.executions as u64;
    let need = build::need(c, 0);
    let params = LegoParams::optimise(
        need.and as u64 * e,
        need.input as u64 * e,
        opts.s,
        opts.objective,
    )?;
    Ok(Plan::new(params, need.out * cfg.executions))
}

fn common(cfg: &RunConfig) -> Result<(Vec<usize>, Vec<usize>)> {
    cfg.validate()?;
    if cfg.output != OutputMode::Bob {
        return Err(Error::config(
            "lego: only Bob learns the output (the paper's two-round online phase)",
        ));
    }
    Ok((
        crate::yao::input_positions(cfg, Role::Alice),
        crate::yao::input_positions(cfg, Role::Bob),
    ))
}

/// Alice, the constructor.
pub struct LegoAlice {
    cfg: RunConfig,
    opts: LegoOptions,
    prg: Prg,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    hcom: Option<HcomSender>,
    rot: Option<DeltaRotSender>,
    layout: Option<Layout>,
    delta: Zeroizing<Block>,
    /// Built copies ready for Eval (when no store is attached).
    ready: VecDeque<AliceReady>,
    cheats: Cheats,
    store: Option<Box<Store>>,
}

impl LegoAlice {
    /// Alice with the default options.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Self::with_options(cfg, LegoOptions::default())
    }

    /// Alice with explicit options.
    pub fn with_options(cfg: RunConfig, opts: LegoOptions) -> Result<Self> {
        let (mine, theirs) = common(&cfg)?;
        Ok(LegoAlice {
            cfg,
            opts,
            prg: Prg::new(),
            mine,
            theirs,
            hcom: None,
            rot: None,
            layout: None,
            delta: Zeroizing::new(Block::ZERO),
            ready: VecDeque::new(),
            cheats: Cheats::default(),
            store: None,
        })
    }

    /// Follows a cheating strategy (adversary builds only).
    #[cfg(feature = "adversary")]
    pub fn cheat(mut self, c: super::cheat::Cheat) -> Self {
        self.cheats = Cheats::new(c);
        self
    }

    fn hcom(&mut self) -> Result<&mut HcomSender> {
        self.hcom
            .as_mut()
            .ok_or_else(|| Error::config("lego: Setup did not run"))
    }
}

impl Party for LegoAlice {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        lstore::prepare(&mut store)?;
        self.store = Some(Box::new(store));
        Ok(())
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        if let Some(s) = self.store.as_mut() {
            s.sync_next_index(ch, &[EXEC_KIND])?;
        }
        Ok(())
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.hcom = Some(HcomSender::setup(ch, &mut self.prg)?);
        self.rot = Some(delta_rot::sender_setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let plan = plan_for(&self.cfg, &self.opts)?;
        let rot = match self.rot.take() {
            Some(r) => r,
            None => delta_rot::sender_setup(ch, &mut self.prg)?,
        };
        let cheats = self.cheats.clone();
        let (layout, delta) = generate::alice(self.hcom()?, rot, ch, &plan, &cheats)?;
        self.layout = Some(layout);
        self.delta = delta;
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        let mut layout = self
            .layout
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        let (c, nb) = (self.cfg.circuit.clone(), self.theirs.len());
        let mut built = Vec::with_capacity(self.cfg.executions);
        for _ in 0..self.cfg.executions {
            built.push(build::alice(self.hcom()?, ch, &c, &mut layout, nb)?);
        }
        // Each copy keeps just the commitments its Eval opens; Generate's
        // state is not needed any more.
        let hcom = self
            .hcom
            .take()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let st = hcom.state();
        let session = lstore::alice_session(st);
        let execs = built
            .iter()
            .map(|b| lstore::alice_exec(b, &layout, st, *self.delta, &self.theirs))
            .collect::<Result<Vec<_>>>()?;
        drop(hcom);
        match self.store.as_mut() {
            Some(store) => {
                let bytes = Zeroizing::new(
                    postcard::to_stdvec(&session)
                        .map_err(|e| Error::config(format!("lego: {e}")))?,
                );
                store.put_secret(SESSION_SECRET, &bytes)?;
                for rec in &execs {
                    store.append_typed(EXEC_KIND, rec)?;
                }
                store.commit()
            }
            None => {
                for rec in execs {
                    self.ready.push_back(AliceReady::new(&session.hcom, rec)?);
                }
                Ok(())
            }
        }
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x = crate::yao::flatten(inputs);
        let owners = Owners {
            alice: &self.mine,
            bob: &self.theirs,
        };
        let ready = match self.store.as_mut() {
            Some(store) => {
                let session: AliceSession = load_secret(store)?;
                let r = store.reserve(EXEC_KIND, 1)?;
                let mut recs: Vec<AliceExec> = store.read_typed(&r)?;
                store.finish(r)?;
                let rec = recs
                    .pop()
                    .ok_or_else(|| Error::Storage("lego: empty execution record".into()))?;
                AliceReady::new(&session.hcom, rec)?
            }
            None => self.ready.pop_front().ok_or_else(|| {
                Error::Exhausted("lego: no built circuit left (run Build first)".into())
            })?,
        };
        eval::alice(
            &ready.hcom,
            ch,
            &ready.built,
            &ready.layout,
            ready.delta,
            &owners,
            &x,
            &self.cheats,
        )?;
        Ok(None)
    }
}

/// Bob, the evaluator.
pub struct LegoBob {
    cfg: RunConfig,
    opts: LegoOptions,
    prg: Prg,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    hcom: Option<HcomReceiver>,
    rot: Option<DeltaRotReceiver>,
    layout: Option<Layout>,
    mat: Option<BobMaterial>,
    /// Built copies ready for Eval (when no store is attached).
    ready: VecDeque<BobReady>,
    /// The plan of f and evaluation buffers, made before the online phase.
    ev: Option<Evaluator>,
    cheats: Cheats,
    store: Option<Box<Store>>,
}

impl LegoBob {
    /// Bob with the default options.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Self::with_options(cfg, LegoOptions::default())
    }

    /// Bob with explicit options.
    pub fn with_options(cfg: RunConfig, opts: LegoOptions) -> Result<Self> {
        let (theirs, mine) = common(&cfg)?;
        Ok(LegoBob {
            cfg,
            opts,
            prg: Prg::new(),
            mine,
            theirs,
            hcom: None,
            rot: None,
            layout: None,
            mat: None,
            ready: VecDeque::new(),
            ev: None,
            cheats: Cheats::default(),
            store: None,
        })
    }

    /// Follows a cheating strategy (adversary builds only).
    #[cfg(feature = "adversary")]
    pub fn cheat(mut self, c: super::cheat::Cheat) -> Self {
        self.cheats = Cheats::new(c);
        self
    }

    /// Evaluates with `threads` (1 or 2) threads, sharing layers of at
    /// least `min_gates` garbled gates (tests force the shared path on
    /// small circuits with this).
    pub fn eval_threads(mut self, threads: usize, min_gates: usize) -> Self {
        self.ev = Some(Evaluator::new(&self.cfg.circuit).with_threads(threads, min_gates));
        self
    }

    fn evaluator(&mut self) -> &mut Evaluator {
        let c = &self.cfg.circuit;
        self.ev.get_or_insert_with(|| Evaluator::new(c))
    }

    fn hcom(&mut self) -> Result<&mut HcomReceiver> {
        self.hcom
            .as_mut()
            .ok_or_else(|| Error::config("lego: Setup did not run"))
    }
}

impl Party for LegoBob {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        lstore::prepare(&mut store)?;
        self.store = Some(Box::new(store));
        Ok(())
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        self.evaluator();
        if let Some(s) = self.store.as_mut() {
            s.sync_next_index(ch, &[EXEC_KIND])?;
        }
        Ok(())
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.hcom = Some(HcomReceiver::setup(ch, &mut self.prg)?);
        self.rot = Some(delta_rot::receiver_setup(ch, &mut self.prg)?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let plan = plan_for(&self.cfg, &self.opts)?;
        let rot = match self.rot.take() {
            Some(r) => r,
            None => delta_rot::receiver_setup(ch, &mut self.prg)?,
        };
        let cheats = self.cheats.clone();
        let mut prg = Prg::from_seed(self.prg.random_block());
        let (layout, mat) = generate::bob(self.hcom()?, rot, ch, &plan, &mut prg, &cheats)?;
        self.layout = Some(layout);
        self.mat = Some(mat);
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        let mut layout = self
            .layout
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        let (c, nb) = (self.cfg.circuit.clone(), self.mine.len());
        let mut built = Vec::with_capacity(self.cfg.executions);
        for _ in 0..self.cfg.executions {
            built.push(build::bob(self.hcom()?, ch, &c, &mut layout, nb)?);
        }
        self.evaluator();
        let hcom = self
            .hcom
            .take()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let mat = self
            .mat
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        let st = hcom.state();
        let session = lstore::bob_session(st);
        let execs = built
            .into_iter()
            .map(|b| lstore::bob_exec(b, &layout, &mat, st, &self.mine))
            .collect::<Result<Vec<_>>>()?;
        drop((hcom, mat));
        match self.store.as_mut() {
            Some(store) => {
                let bytes = Zeroizing::new(
                    postcard::to_stdvec(&session)
                        .map_err(|e| Error::config(format!("lego: {e}")))?,
                );
                store.put_secret(SESSION_SECRET, &bytes)?;
                for rec in &execs {
                    store.append_typed(EXEC_KIND, rec)?;
                }
                store.commit()
            }
            None => {
                for rec in execs {
                    self.ready.push_back(BobReady::new(&session.hcom, rec)?);
                }
                Ok(())
            }
        }
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y = crate::yao::flatten(inputs);
        let owners = Owners {
            alice: &self.theirs,
            bob: &self.mine,
        };
        let ready = match self.store.as_mut() {
            Some(store) => {
                let session: BobSession = load_secret(store)?;
                let r = store.reserve(EXEC_KIND, 1)?;
                let mut recs: Vec<BobExec> = store.read_typed(&r)?;
                store.finish(r)?;
                let rec = recs
                    .pop()
                    .ok_or_else(|| Error::Storage("lego: empty execution record".into()))?;
                BobReady::new(&session.hcom, rec)?
            }
            None => self.ready.pop_front().ok_or_else(|| {
                Error::Exhausted("lego: no built circuit left (run Build first)".into())
            })?,
        };
        let c = &self.cfg.circuit;
        let ev = self.ev.get_or_insert_with(|| Evaluator::new(c));
        let (bits, _) = eval::bob_with(
            ev,
            &ready.hcom,
            ch,
            c,
            &ready.built,
            &ready.layout,
            &ready.mat,
            &owners,
            &y,
            &[],
        )?;
        Ok(Some(crate::yao::split_outputs(&self.cfg, &bits)))
    }
}

fn load_secret<T: serde::de::DeserializeOwned>(store: &Store) -> Result<T> {
    let bytes = store
        .get_secret(SESSION_SECRET)?
        .ok_or_else(|| Error::Exhausted("lego: the store holds no preprocessing session".into()))?;
    postcard::from_bytes(&bytes)
        .map_err(|e| Error::Storage(format!("lego: session secret does not decode: {e}")))
}
