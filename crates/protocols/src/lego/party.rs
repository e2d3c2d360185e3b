//! LEGO's two parties on the driver's four phases:
//! setup = Setup, independent = Generate, dependent = Build, online = Eval.

use super::build::{self, Built, BuiltBob};
use super::cheat::Cheats;
use super::delta_rot;
use super::eval::{self, Owners};
use super::generate::{self, Plan};
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use super::params::{LegoParams, Objective, S};
use super::store::{
    self as lstore, AliceExec, AliceSession, BobExec, BobSession, EXEC_KIND, SESSION_SECRET,
};
use crate::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_commit::{CommitterState, ReceiverState};
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
    built: VecDeque<Built>,
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
            built: VecDeque::new(),
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

    /// Writes every built copy to the store (see `store.rs`).
    fn persist(&mut self) -> Result<()> {
        let (Some(store), Some(hcom), Some(layout)) = (
            self.store.as_mut(),
            self.hcom.as_ref(),
            self.layout.as_ref(),
        ) else {
            return Ok(());
        };
        let st = hcom.state();
        let session = AliceSession {
            hcom: CommitterState {
                seeds0: st.seeds0.clone(),
                seeds1: st.seeds1.clone(),
                next_block: st.next_block,
                msgs: Vec::new(),
                t: Vec::new(),
            },
        };
        let bytes = zeroize::Zeroizing::new(
            postcard::to_stdvec(&session).map_err(|e| Error::config(format!("lego: {e}")))?,
        );
        store.put_secret(SESSION_SECRET, &bytes)?;
        for b in self.built.drain(..) {
            let rec = lstore::alice_exec(&b, layout, st, *self.delta, self.theirs.len())?;
            store.append_typed(EXEC_KIND, &rec)?;
        }
        store.commit()
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
        for _ in 0..self.cfg.executions {
            let b = build::alice(self.hcom()?, ch, &c, &mut layout, nb)?;
            self.built.push_back(b);
        }
        self.layout = Some(layout);
        self.persist()
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x = crate::yao::flatten(inputs);
        let owners = Owners {
            alice: &self.mine,
            bob: &self.theirs,
        };
        if let Some(store) = self.store.as_mut() {
            let session: AliceSession = load_secret(store)?;
            let r = store.reserve(EXEC_KIND, 1)?;
            let mut recs: Vec<AliceExec> = store.read_typed(&r)?;
            store.finish(r)?;
            let rec = recs
                .pop()
                .ok_or_else(|| Error::Storage("lego: empty execution record".into()))?;
            let mut st = session.hcom.clone();
            st.msgs = rec.msgs.clone();
            st.t = rec.t.clone();
            let hcom = HcomSender::from_state(st)?;
            eval::alice(
                &hcom,
                ch,
                &rec.built,
                &rec.layout,
                rec.delta,
                &owners,
                &x,
                &self.cheats,
            )?;
            return Ok(None);
        }
        let built = self.built.pop_front().ok_or_else(|| {
            Error::Exhausted("lego: no built circuit left (run Build first)".into())
        })?;
        let layout = self
            .layout
            .as_ref()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        let hcom = self
            .hcom
            .as_ref()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let owners = Owners {
            alice: &self.mine,
            bob: &self.theirs,
        };
        eval::alice(
            hcom,
            ch,
            &built,
            layout,
            *self.delta,
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
    built: VecDeque<BuiltBob>,
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
            built: VecDeque::new(),
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

    /// Writes every built copy to the store (see `store.rs`).
    fn persist(&mut self) -> Result<()> {
        let (Some(store), Some(hcom), Some(layout), Some(mat)) = (
            self.store.as_mut(),
            self.hcom.as_ref(),
            self.layout.as_ref(),
            self.mat.as_ref(),
        ) else {
            return Ok(());
        };
        let st = hcom.state();
        let session = BobSession {
            hcom: ReceiverState {
                watch: st.watch,
                seeds: st.seeds.clone(),
                next_block: st.next_block,
                w: Vec::new(),
            },
        };
        let bytes = zeroize::Zeroizing::new(
            postcard::to_stdvec(&session).map_err(|e| Error::config(format!("lego: {e}")))?,
        );
        store.put_secret(SESSION_SECRET, &bytes)?;
        for b in self.built.drain(..) {
            let rec = lstore::bob_exec(&b, layout, mat, st, self.mine.len())?;
            store.append_typed(EXEC_KIND, &rec)?;
        }
        store.commit()
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
        for _ in 0..self.cfg.executions {
            let b = build::bob(self.hcom()?, ch, &c, &mut layout, nb)?;
            self.built.push_back(b);
        }
        self.layout = Some(layout);
        self.persist()
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y = crate::yao::flatten(inputs);
        let owners = Owners {
            alice: &self.theirs,
            bob: &self.mine,
        };
        if let Some(store) = self.store.as_mut() {
            let session: BobSession = load_secret(store)?;
            let r = store.reserve(EXEC_KIND, 1)?;
            let mut recs: Vec<BobExec> = store.read_typed(&r)?;
            store.finish(r)?;
            let rec = recs
                .pop()
                .ok_or_else(|| Error::Storage("lego: empty execution record".into()))?;
            let mut st = session.hcom.clone();
            st.w = rec.w.clone();
            let hcom = HcomReceiver::from_state(st)?;
            let bits = eval::bob(
                &hcom,
                ch,
                &self.cfg.circuit,
                &rec.built,
                &rec.layout,
                &rec.mat,
                &owners,
                &y,
            )?;
            return Ok(Some(crate::yao::split_outputs(&self.cfg, &bits)));
        }
        let built = self.built.pop_front().ok_or_else(|| {
            Error::Exhausted("lego: no built circuit left (run Build first)".into())
        })?;
        let (layout, mat) = match (&self.layout, &self.mat) {
            (Some(l), Some(m)) => (l, m),
            _ => return Err(Error::config("lego: Generate did not run")),
        };
        let hcom = self
            .hcom
            .as_ref()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let owners = Owners {
            alice: &self.theirs,
            bob: &self.mine,
        };
        let bits = eval::bob(
            hcom,
            ch,
            &self.cfg.circuit,
            &built,
            layout,
            mat,
            &owners,
            &y,
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
