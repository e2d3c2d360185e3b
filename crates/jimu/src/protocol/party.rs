//! JIMU's two parties on the driver's phases: setup = Step 0; independent
//! = Generate (with the pool i-hashes of Step 1), Check, and the random
//! OTs of Bob's input shares; dependent = Build (wire assignment and
//! solderings); online = inputs, Evaluate, Output.
//!
//! With a store attached ([`Party::attach_store`]) the preprocessing run
//! writes Setup's keys and independent's material to it (`store.rs`) and
//! never sees f; each later run reserves its circuit's share of the
//! material and runs Build (dependent) before its executions.

use super::build::{self, AliceExec, BobExec, Owner};
use super::check::{self, Assignment};
use super::eval::{self, AliceRho, AliceRots, BobKeys, BobRots, EvalScratch};
use super::generate::{self, AliceGates, BobGates, Sizes};
use super::schedule::Schedule;
use super::setup::{self, AliceSetup, BobSetup};
use super::store::{self as jstore, BobKeysStored, BobSetupView, PoolSize};
use super::JimuOptions;
use crate::cheat::Cheats;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_garble::wide::WideDelta;
use brickyard_store::Store;
use std::collections::VecDeque;

/// Bob's J when he plays along with a strategy that rigs it
/// ([`Cheat::rigs_bob`](crate::Cheat::rigs_bob): a public seed, so that Alice knows which gates
/// land in buckets: the tests force events an honest J leaves to chance,
/// such as two valid labels or a bucket of faulty gates).
pub const RIGGED_J: Block = Block(0x4a49_4d55_2d72_6967_6765_642d_4a2d_0001);

fn owners_of(cfg: &RunConfig) -> Result<Vec<Owner>> {
    cfg.validate()?;
    if cfg.output != OutputMode::Bob {
        return Err(Error::config("jimu: only Bob learns the output (Sec. 2)"));
    }
    Ok(build::owners(
        &brickyard_driver::layout::input_positions(cfg, Role::Alice),
        &brickyard_driver::layout::input_positions(cfg, Role::Bob),
    ))
}

fn missing(what: &str) -> Error {
    Error::config(format!("jimu: {what} did not run"))
}

/// Alice (P1), the garbler.
pub struct JimuAlice<const L: usize> {
    cfg: RunConfig,
    opts: JimuOptions,
    prg: Prg,
    owner: Vec<Owner>,
    sz: Option<Sizes>,
    setup: Option<AliceSetup<L>>,
    gates: Option<(AliceGates<L>, Assignment)>,
    rots: Option<AliceRots>,
    ready: VecDeque<AliceExec<L>>,
    /// The last execution's material, wiped and freed after its timing
    /// ([`Party::after_execution`]).
    spent: Option<AliceExec<L>>,
    cheats: Cheats,
    store: Option<Box<Store>>,
    size: Option<PoolSize>,
    /// Δ and ℓ_p of the stored Setup (a run from a store).
    stored: Option<(WideDelta<L>, usize)>,
}

impl<const L: usize> JimuAlice<L> {
    /// Alice with options `opts` (k must match `L`: 2 blocks for 88, 3 for 127).
    pub fn new(cfg: RunConfig, opts: JimuOptions) -> Result<Self> {
        opts.ihash_params(16 * L)?;
        Ok(JimuAlice {
            owner: owners_of(&cfg)?,
            cfg,
            opts,
            prg: Prg::new(),
            sz: None,
            setup: None,
            gates: None,
            rots: None,
            ready: VecDeque::new(),
            spent: None,
            cheats: Cheats::default(),
            store: None,
            size: None,
            stored: None,
        })
    }

    /// Follows `cheats` (adversary builds only deviate).
    pub fn with_cheats(mut self, cheats: Cheats) -> Self {
        self.cheats = cheats;
        self
    }

    /// A preprocessing into a store of `size` instead of enough for the
    /// run's executions of its circuit.
    pub fn with_pool_size(mut self, size: PoolSize) -> Self {
        self.size = Some(size);
        self
    }
}

/// The [`Party`] store methods, the same for both roles.
macro_rules! store_methods {
    () => {
        fn attach_store(&mut self, store: Store) -> Result<()> {
            self.store = Some(Box::new(store));
            Ok(())
        }

        /// Function-independent material: bound to (k, s) only (and to
        /// the store's session and its one Setup).
        fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
            self.opts.security_parameters()
        }

        fn poison_store(&mut self, check: &str) -> Result<()> {
            match self.store.as_mut() {
                Some(s) => s.poison(check),
                None => Ok(()),
            }
        }

        fn dependent_in_online_run(&self) -> bool {
            self.store.is_some()
        }
    };
}

fn store_size(cfg: &RunConfig, size: Option<PoolSize>) -> Result<PoolSize> {
    match size {
        Some(s) => Ok(s),
        None => PoolSize::for_run(cfg),
    }
}

impl<const L: usize> Party for JimuAlice<L> {
    store_methods!();

    fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
        self.opts.security_parameters()
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.setup = Some(setup::alice::<L>(
            ch,
            &mut self.prg,
            &self.opts,
            &self.cheats,
        )?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let sz = match self.store {
            Some(_) => {
                let sz = jstore::pool_sizes(store_size(&self.cfg, self.size)?, &self.opts)?;
                jstore::agree_sizes(ch, &sz)?;
                sz
            }
            None => Sizes::new(&self.cfg, &self.opts)?,
        };
        let st = self.setup.as_mut().ok_or_else(|| missing("Setup"))?;
        let (g, com) = generate::alice(
            ch,
            &mut st.wire,
            &mut st.perm,
            &st.delta,
            &st.compress,
            &sz,
            &mut self.prg,
            &self.cheats,
        )?;
        let asg = check::alice(ch, &g, &st.delta, &sz, &com)?;
        let rots = eval::alice_rots(ch, &mut st.kos, &sz)?;
        if let Some(store) = self.store.as_mut() {
            let perm = *st.perm.params();
            return jstore::alice_store(store, ch, &sz, &g, &asg, &rots, &st.delta, perm);
        }
        self.rots = Some(rots);
        self.gates = Some((g, asg));
        self.sz = Some(sz);
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        if let Some(store) = self.store.as_mut() {
            // Build from stored material (a later run that knows f).
            let run = jstore::alice_take::<L>(store, ch, &self.cfg, &self.opts)?;
            let mut execs = build::alice(
                ch,
                &self.cfg.circuit,
                &self.owner,
                &run.gates,
                &run.asg,
                &run.sz,
                &run.delta,
                run.lp,
                &mut self.prg,
                &self.cheats,
            )?;
            for ex in &mut execs {
                eval::alice_prepare(ex, &run.rots, &run.sz)?;
            }
            self.ready.extend(execs);
            self.rots = Some(run.rots);
            self.sz = Some(run.sz);
            self.stored = Some((run.delta, run.lp));
            return Ok(());
        }
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let (g, asg) = self.gates.take().ok_or_else(|| missing("Generate"))?;
        let lp = st.perm.params().ell;
        let mut execs = build::alice(
            ch,
            &self.cfg.circuit,
            &self.owner,
            &g,
            &asg,
            &sz,
            &st.delta,
            lp,
            &mut self.prg,
            &self.cheats,
        )?;
        let rots = self.rots.as_ref().ok_or_else(|| missing("Generate"))?;
        for ex in &mut execs {
            eval::alice_prepare(ex, rots, &sz)?;
        }
        self.ready.extend(execs);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x = brickyard_driver::layout::flatten(inputs);
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let delta = match (&self.stored, &self.setup) {
            (Some((d, _)), _) => d,
            (None, Some(st)) => &st.delta,
            (None, None) => return Err(missing("Setup")),
        };
        let ex = self
            .ready
            .pop_front()
            .ok_or_else(|| Error::Exhausted("jimu: no built execution left".into()))?;
        let r = eval::alice(ch, &ex, &sz, delta, &x, &mut self.prg, &self.cheats);
        self.spent = Some(ex);
        r.map(|()| None)
    }

    fn after_execution(&mut self) {
        if let Some(mut ex) = self.spent.take() {
            use zeroize::Zeroize;
            for (m, p) in ex.inputs.iter_mut() {
                m.zeroize();
                *p = false;
            }
            ex.shares.zeroize();
            ex.masked_shares.zeroize();
        }
    }
}

/// Bob (P2), the evaluator.
pub struct JimuBob<const L: usize> {
    cfg: RunConfig,
    opts: JimuOptions,
    prg: Prg,
    owner: Vec<Owner>,
    sz: Option<Sizes>,
    setup: Option<BobSetup>,
    gates: Option<(BobGates<L>, Assignment)>,
    rots: Option<BobRots>,
    ready: VecDeque<BobExec<L>>,
    /// The last execution's material (megabytes of bucket gates), freed
    /// after its timing ([`Party::after_execution`]).
    spent: Option<BobExec<L>>,
    cheats: Cheats,
    sched: Schedule,
    scratch: EvalScratch<L>,
    store: Option<Box<Store>>,
    size: Option<PoolSize>,
    /// The stored Setup's keys and, per built execution, where Alice's
    /// input ρ sit in its ρ batch (a run from a store).
    stored: Option<(BobKeysStored, Vec<Vec<usize>>)>,
}

impl<const L: usize> JimuBob<L> {
    /// Bob with options `opts`.
    pub fn new(cfg: RunConfig, opts: JimuOptions) -> Result<Self> {
        opts.ihash_params(16 * L)?;
        let owner = owners_of(&cfg)?;
        Ok(JimuBob {
            sched: Schedule::new(&cfg.circuit),
            owner,
            cfg,
            opts,
            prg: Prg::new(),
            sz: None,
            setup: None,
            gates: None,
            rots: None,
            ready: VecDeque::new(),
            spent: None,
            cheats: Cheats::default(),
            scratch: EvalScratch::default(),
            store: None,
            size: None,
            stored: None,
        })
    }

    /// See [`JimuAlice::with_pool_size`].
    pub fn with_pool_size(mut self, size: PoolSize) -> Self {
        self.size = Some(size);
        self
    }

    /// Follows `cheats` (adversary builds only deviate; under a strategy
    /// that [rigs](crate::Cheat::rigs_bob) Bob, he is honest but uses
    /// [`Cheats::rigged_j`]).
    pub fn with_cheats(mut self, cheats: Cheats) -> Self {
        self.cheats = cheats;
        self
    }
}

impl<const L: usize> Party for JimuBob<L> {
    store_methods!();

    fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
        self.opts.security_parameters()
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        self.setup = Some(setup::bob::<L>(
            ch,
            &mut self.prg,
            &self.opts,
            &self.cheats,
        )?);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let sz = match self.store {
            Some(_) => {
                let sz = jstore::pool_sizes(store_size(&self.cfg, self.size)?, &self.opts)?;
                jstore::agree_sizes(ch, &sz)?;
                sz
            }
            None => Sizes::new(&self.cfg, &self.opts)?,
        };
        let st = self.setup.as_mut().ok_or_else(|| missing("Setup"))?;
        let j = match self.cheats.rigged_j() {
            Some(j) => j,
            None => self.prg.random_block(),
        };
        let r = self.prg.random_block();
        let mut prg = Prg::from_seed(self.prg.random_block());
        let g = generate::bob::<L>(ch, &mut st.wire, &mut st.perm, &sz, &mut prg, j, r)?;
        let asg = check::bob(
            ch,
            &g,
            &st.wire,
            &st.perm,
            &st.h_delta,
            &st.compress,
            &sz,
            j,
            r,
            &self.cheats,
        )?;
        let rots = eval::bob_rots(ch, &mut st.kos, &sz, &mut self.prg)?;
        if let Some(store) = self.store.as_mut() {
            let view = BobSetupView {
                wire: &st.wire,
                perm: &st.perm,
                h_delta: &st.h_delta,
                d: &st.d,
                compress: &st.compress,
            };
            return jstore::bob_store(store, ch, &sz, &g, &asg, &rots, &view);
        }
        self.rots = Some(rots);
        self.gates = Some((g, asg));
        self.sz = Some(sz);
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        if let Some(store) = self.store.as_mut() {
            let run = jstore::bob_take::<L>(store, ch, &self.cfg, &self.opts)?;
            let k = &run.keys;
            let mut execs = build::bob(
                ch,
                &self.cfg.circuit,
                &self.sched,
                &self.owner,
                &run.gates,
                &run.asg,
                &run.sz,
                &k.wire,
                &k.perm,
                &k.h_delta,
                &k.compress,
            )?;
            // Build numbers the run's gates 0..t; their hash tweaks are
            // the numbers Generate garbled them under.
            let na = run.sz.na;
            let mut at = Vec::with_capacity(execs.len());
            for ex in &mut execs {
                for id in ex.buckets.id.iter_mut() {
                    *id = *run.numbers.get(*id as usize).ok_or_else(|| {
                        Error::Storage("jimu: built gate outside the stored run".into())
                    })?;
                }
                let first = ex.index * na;
                at.push(
                    run.rho_at
                        .get(first..first + na)
                        .ok_or_else(|| Error::Storage("jimu: stored pool too short".into()))?
                        .to_vec(),
                );
            }
            for ex in &mut execs {
                eval::bob_prepare(
                    ex,
                    &run.rots,
                    &run.sz,
                    run.keys.wire.params(),
                    &mut self.prg,
                )?;
            }
            let xi = run.keys.wire.params().xi();
            self.scratch
                .reserve(&self.cfg.circuit, &self.sched, &run.sz, xi);
            self.ready.extend(execs);
            self.rots = Some(run.rots);
            self.sz = Some(run.sz);
            self.stored = Some((run.keys, at));
            return Ok(());
        }
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let (g, asg) = self.gates.as_mut().ok_or_else(|| missing("Generate"))?;
        let mut execs = build::bob(
            ch,
            &self.cfg.circuit,
            &self.sched,
            &self.owner,
            g,
            asg,
            &sz,
            &st.wire,
            &st.perm,
            &st.h_delta,
            &st.compress,
        )?;
        // Build copied every bucket gate's table into its execution:
        // the tables are not needed again.
        g.tables = Vec::new();
        let rots = self.rots.as_ref().ok_or_else(|| missing("Generate"))?;
        for ex in &mut execs {
            eval::bob_prepare(ex, rots, &sz, st.wire.params(), &mut self.prg)?;
        }
        self.scratch
            .reserve(&self.cfg.circuit, &self.sched, &sz, st.wire.params().xi());
        self.ready.extend(execs);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y = brickyard_driver::layout::flatten(inputs);
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let ex = self
            .ready
            .pop_front()
            .ok_or_else(|| Error::Exhausted("jimu: no built execution left".into()))?;
        let rots = self.rots.as_ref().ok_or_else(|| missing("Generate"))?;
        let keys = match (&self.stored, &self.setup) {
            (Some((k, at)), _) => BobKeys {
                wire: k.wire.verifier(),
                perm: k.perm.verifier(),
                perm_params: *k.perm.params(),
                h_delta: &k.h_delta,
                d: &k.d,
                compress: &k.compress,
                alice_rho: Some(AliceRho {
                    batch: k.rho_batch,
                    at: at.get(ex.index).ok_or_else(|| missing("Build"))?,
                }),
            },
            (None, Some(st)) => BobKeys {
                wire: st.wire.verifier(),
                perm: st.perm.verifier(),
                perm_params: *st.perm.params(),
                h_delta: &st.h_delta,
                d: &st.d,
                compress: &st.compress,
                alice_rho: None,
            },
            (None, None) => return Err(missing("Setup")),
        };
        let bits = eval::bob(
            ch,
            &self.cfg.circuit,
            &self.sched,
            &self.owner,
            &ex,
            rots,
            &sz,
            &keys,
            &y,
            &mut self.scratch,
        );
        self.spent = Some(ex);
        Ok(Some(brickyard_driver::layout::split_outputs(
            &self.cfg, &bits?,
        )))
    }

    fn after_execution(&mut self) {
        self.spent = None;
    }
}

/// A party of `jimu` for `role` with `opts` (k = 88: 256-bit labels;
/// k = 127: 384-bit) following `cheats`.
pub fn new_party(
    role: Role,
    cfg: RunConfig,
    opts: JimuOptions,
    cheats: Cheats,
) -> Result<Box<dyn Party>> {
    new_party_sized(role, cfg, opts, cheats, None)
}

/// [`new_party`] whose preprocessing into a store makes `size` (`None`:
/// enough for the run's executions of its circuit).
pub fn new_party_sized(
    role: Role,
    cfg: RunConfig,
    opts: JimuOptions,
    cheats: Cheats,
    size: Option<PoolSize>,
) -> Result<Box<dyn Party>> {
    use brickyard_garble::wide::{L127, L88};
    fn sized<P>(p: P, size: Option<PoolSize>, f: fn(P, PoolSize) -> P) -> P {
        match size {
            Some(s) => f(p, s),
            None => p,
        }
    }
    Ok(match (opts.k, role) {
        (88, Role::Alice) => Box::new(sized(
            JimuAlice::<L88>::new(cfg, opts)?.with_cheats(cheats),
            size,
            JimuAlice::with_pool_size,
        )),
        (88, Role::Bob) => Box::new(sized(
            JimuBob::<L88>::new(cfg, opts)?.with_cheats(cheats),
            size,
            JimuBob::with_pool_size,
        )),
        (127, Role::Alice) => Box::new(sized(
            JimuAlice::<L127>::new(cfg, opts)?.with_cheats(cheats),
            size,
            JimuAlice::with_pool_size,
        )),
        (127, Role::Bob) => Box::new(sized(
            JimuBob::<L127>::new(cfg, opts)?.with_cheats(cheats),
            size,
            JimuBob::with_pool_size,
        )),
        (k, _) => {
            return Err(Error::config(format!(
                "jimu: k = {k} (the paper's settings are 88 and 127)"
            )))
        }
    })
}
