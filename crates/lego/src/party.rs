//! LEGO's two parties on the driver's four phases:
//! setup = Setup, independent = Generate, dependent = Build, online = Eval.

use super::batch::{self, BatchId};
use super::build;
use super::cheat::Cheats;
use super::delta_rot;
use super::eval::{self, Owners};
use super::evaluator::Evaluator;
use super::generate::{self, Plan};
use super::hcom::{HcomReceiver, HcomSender};
use super::material::{BobMaterial, Layout};
use super::params::{LegoParams, Objective, DEFAULT_S};
use super::security::Components;
use super::setup;
use super::store::{self as lstore, AliceReady, BobReady};
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::steps::step;
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_ot::delta_rot::{DeltaRotReceiver, DeltaRotSender};
use brickyard_store::Store;
use std::collections::VecDeque;
use std::sync::Arc;
use zeroize::Zeroizing;

/// Choices both parties must make identically.
#[derive(Clone, Copy, Debug)]
pub struct LegoOptions {
    /// What the parameter search minimises.
    pub objective: Objective,
    /// Statistical security parameter: the whole run fails with
    /// probability ≤ 2^-s; every component runs at s + 3
    /// ([`Components`]). At least 40; at most 83 (the commitment code of
    /// s + 3 must fit the 448-bit rows, `CommitParams::max_s`).
    pub s: u32,
    /// Generate's size when it is not "enough for the run's executions of
    /// its circuit" (function-independent preprocessing into a store).
    pub generate: Option<GenerateSize>,
}

/// Generate(q, n, m)'s arguments, independent of any circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateSize {
    /// q: AND buckets.
    pub and_gates: u64,
    /// n: input buckets with authenticators, and as many Δ-ROTs.
    pub inputs: u64,
    /// m: output blinders.
    pub outputs: u64,
}

impl Default for LegoOptions {
    fn default() -> Self {
        LegoOptions {
            objective: Objective::Communication,
            s: DEFAULT_S,
            generate: None,
        }
    }
}

/// Generate's sizes for all executions of a run: q, n, m are the circuit's
/// AND gates, input and output wires times the executions.
pub fn plan_for(cfg: &RunConfig, opts: &LegoOptions) -> Result<Plan> {
    if let Some(g) = opts.generate {
        if g.and_gates == 0 && g.inputs == 0 {
            return Err(Error::config(
                "lego: Generate needs at least one AND gate or input",
            ));
        }
        let m = usize::try_from(g.outputs)
            .map_err(|_| Error::config("lego: too many outputs for this machine"))?;
        let params = LegoParams::optimise(g.and_gates, g.inputs, opts.s, opts.objective)?;
        return Plan::new(params, m);
    }
    let c = &cfg.circuit;
    let e = cfg.executions as u64;
    let need = build::need(c, 0);
    let params = LegoParams::optimise(
        need.and as u64 * e,
        need.input as u64 * e,
        opts.s,
        opts.objective,
    )?;
    Plan::new(params, need.out * cfg.executions)
}

/// Bytes one party holds per commitment of a Generate call: the scheme's
/// code rows (two per commitment at Alice, one at Bob, `⌈N/8⌉` bytes
/// each), the value, and the bookkeeping around them, rounded up so the
/// estimate covers the peak RSS measured for `demo --protocol lego` on
/// AES-128 (≈ 12.8 MB per party and execution in a debug build).
fn bytes_per_commitment(c: &Components) -> u64 {
    2 * c.commit.wire_row_bytes() as u64 + 64
}

/// Estimated peak memory of one party for a Generate sized by
/// [`plan_for`]: every commitment of the call, the garbled tables and
/// authenticators Bob keeps (two blocks each), Alice's chosen values, and
/// the built copies' keys. An upper-side estimate, to refuse runs that
/// cannot fit before they start (`brickyard demo --protocol lego
/// --executions 100000` would otherwise abort on one huge allocation).
pub fn memory_estimate(cfg: &RunConfig, opts: &LegoOptions) -> Result<u64> {
    let plan = plan_for(cfg, opts)?;
    let (q, a, n, m) = (
        plan.gates as u64,
        plan.auths as u64,
        plan.params.n,
        plan.m as u64,
    );
    let (vs, spare) = (plan.sec.verleak as u64, plan.sec.spare_rots as u64);
    let commitments = 2 * q + a + m + vs + plan.refresh() as u64 + q + 1 + n + spare;
    let blocks = 2 * q + 2 * a + q + n;
    Ok(commitments
        .saturating_mul(bytes_per_commitment(&plan.sec))
        .saturating_add(blocks.saturating_mul(16)))
}

fn common(cfg: &RunConfig) -> Result<(Vec<usize>, Vec<usize>)> {
    cfg.validate()?;
    if cfg.output != OutputMode::Bob {
        return Err(Error::config(
            "lego: only Bob learns the output (the paper's two-round online phase)",
        ));
    }
    Ok((
        brickyard_driver::layout::input_positions(cfg, Role::Alice),
        brickyard_driver::layout::input_positions(cfg, Role::Bob),
    ))
}

/// Alice, the constructor.
pub struct LegoAlice {
    cfg: RunConfig,
    opts: LegoOptions,
    prg: Prg,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    /// Build's plan of f (see [`LegoAlice::with_options`]).
    build: Arc<build::Shared>,
    hcom: Option<HcomSender>,
    rot: Option<DeltaRotSender>,
    layout: Option<Layout>,
    delta: Zeroizing<Block>,
    /// Built copies ready for Eval (when no store is attached).
    ready: VecDeque<AliceReady>,
    /// Generate's session after an in-memory Build, kept until the party
    /// is dropped (its zeroizing is not Build's work).
    spent: Option<HcomSender>,
    /// The copy the last execution consumed, wiped and freed after that
    /// execution's timing ([`Party::after_execution`]): freeing megabytes
    /// is not on the way to the output.
    used: Option<AliceReady>,
    cheats: Cheats,
    store: Option<Box<Store>>,
}

impl LegoAlice {
    /// Alice with the default options.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Self::with_options(cfg, LegoOptions::default())
    }

    /// Alice with explicit options. f is compiled here, as every protocol
    /// compiles it when its party is made (yao's garbling plan, tinytable's
    /// program): Build's plan depends on f's topology alone, not on any
    /// material, so the dependent phase is the solderings and their check.
    pub fn with_options(cfg: RunConfig, opts: LegoOptions) -> Result<Self> {
        let (mine, theirs) = common(&cfg)?;
        let build = Arc::new(build::Shared::new(&cfg.circuit, theirs.len())?);
        Ok(LegoAlice {
            cfg,
            opts,
            prg: Prg::new(),
            mine,
            theirs,
            build,
            hcom: None,
            rot: None,
            layout: None,
            delta: Zeroizing::new(Block::ZERO),
            ready: VecDeque::new(),
            spent: None,
            used: None,
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

/// The [`Party`] store methods, the same for both roles: the store is
/// attached to `self.store`, its parameters are the options', a cheat
/// poisons it, and with a store Build runs in the online process.
macro_rules! store_methods {
    () => {
        fn attach_store(&mut self, store: Store) -> Result<()> {
            self.store = Some(Box::new(store));
            Ok(())
        }

        fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
            lego_store_parameters(&self.opts)
        }

        fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
            lego_store_parameters(&self.opts)
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

impl Party for LegoAlice {
    store_methods!();

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        let sec = Components::new(self.opts.s)?;
        let prg = &mut self.prg;
        let (hcom, rot) = setup::alice(ch, prg, &sec)?;
        self.hcom = Some(hcom);
        self.rot = Some(rot);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let plan = step("1 parameters (Theorem 2)", || {
            plan_for(&self.cfg, &self.opts)
        })?;
        let id = match self.store.as_mut() {
            Some(store) => Some(new_batch(store, ch, &mut self.prg, true)?),
            None => None,
        };
        let rot = match self.rot.take() {
            Some(r) => r,
            None => delta_rot::sender_setup(ch, &mut self.prg, plan.sec.delta_rot)?,
        };
        let cheats = self.cheats.clone();
        let progress = self.cfg.progress.clone();
        let (layout, delta) =
            generate::alice_with_progress(self.hcom()?, rot, ch, &plan, &cheats, &progress)?;
        match (self.store.as_mut(), id) {
            (Some(store), Some(id)) => {
                // The batch keeps what Build and Eval need; this process
                // drops Generate's session (a later Setup starts a new one).
                let hcom = self
                    .hcom
                    .take()
                    .ok_or_else(|| Error::config("lego: Setup did not run"))?;
                batch::alice_store(store, id, &layout, hcom.state(), *delta)
            }
            _ => {
                self.layout = Some(layout);
                self.delta = delta;
                Ok(())
            }
        }
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        if let Some(store) = self.store.as_mut() {
            // Build from the store's Generate batches (the online run).
            let batches = batch::open_batches(store, ch, true)?;
            let e = self.cfg.executions;
            let sec = Components::new(self.opts.s)?;
            let built = batch::alice_builds(
                store,
                ch,
                &batches,
                &self.build,
                &self.theirs,
                e,
                sec.commit,
            )?;
            self.ready.extend(built);
            return Ok(());
        }
        let mut layout = self
            .layout
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        // f is planned once for every copy, and all copies' solderings are
        // opened in one batch opening (one flight instead of one round
        // trip per copy).
        let shared = Arc::clone(&self.build);
        let copies = step("build: reserve components", || {
            shared.reserve_copies(&mut layout, self.cfg.executions)
        })?;
        let hcom_s = self.hcom()?;
        let built = step("build: open solderings (send)", || {
            build::alice_copies(hcom_s, ch, &shared, &copies)
        })?;
        // Each copy keeps just the commitments its Eval opens; Generate's
        // session is not needed any more. It is wiped when the party is
        // dropped, not here: zeroizing its megabytes is cleanup of the
        // in-memory run (a store-backed Build never loads it), and doing
        // it now would also evict the built copies from the cache.
        let hcom = self
            .hcom
            .take()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let st = hcom.state();
        let session = lstore::alice_session(st);
        step("build: execution records", || -> Result<()> {
            for b in &built {
                let rec = lstore::alice_exec(b, &layout, st, *self.delta, &self.theirs)?;
                self.ready
                    .push_back(AliceReady::new(&session.hcom, rec, *hcom.params())?);
            }
            Ok(())
        })?;
        self.spent = Some(hcom);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x = brickyard_driver::layout::flatten(inputs);
        let owners = Owners {
            alice: &self.mine,
            bob: &self.theirs,
        };
        let ready = self.ready.pop_front().ok_or_else(|| {
            Error::Exhausted("lego: no built circuit left (run Build first)".into())
        })?;
        let r = eval::alice(
            &ready.hcom,
            ch,
            &ready.built,
            &ready.layout,
            ready.delta,
            &owners,
            &x,
            &self.cheats,
        );
        // Used once either way; wiped and freed after the execution's
        // timing (`after_execution`), or with the party.
        self.used = Some(ready);
        r?;
        Ok(None)
    }

    fn after_execution(&mut self) {
        self.used = None;
    }
}

/// Before a Generate into the store: checks the peer's store is of the
/// same session (a store may be opened again to add a batch), then names
/// the new batch.
fn new_batch(store: &mut Store, ch: &mut Channel, prg: &mut Prg, alice: bool) -> Result<BatchId> {
    store.sync_next_index(ch, &[])?;
    batch::agree_id(store, ch, prg, alice)
}

/// What LEGO's stored material is bound to: it is function-independent
/// (NST17 Generate), so only the security parameters, from which every
/// component's parameters follow ([`Components`]: buckets, code, VerLeak,
/// Δ-ROT, step 10, confirmation). Also the run agreement's security
/// parameters: both parties must use the same s.
fn lego_store_parameters(opts: &LegoOptions) -> std::collections::BTreeMap<String, String> {
    let mut m = std::collections::BTreeMap::new();
    m.insert("k".into(), "128".into());
    m.insert("s".into(), opts.s.to_string());
    m
}

/// Bob, the evaluator.
pub struct LegoBob {
    cfg: RunConfig,
    opts: LegoOptions,
    prg: Prg,
    mine: Vec<usize>,
    theirs: Vec<usize>,
    /// Build's plan of f (see [`LegoAlice::with_options`]).
    build: Arc<build::Shared>,
    hcom: Option<HcomReceiver>,
    rot: Option<DeltaRotReceiver>,
    layout: Option<Layout>,
    mat: Option<BobMaterial>,
    /// Built copies ready for Eval (when no store is attached).
    ready: VecDeque<BobReady>,
    /// Generate's session and material after an in-memory Build, kept
    /// until the party is dropped (see `LegoAlice::spent`).
    spent: Option<(HcomReceiver, BobMaterial)>,
    /// The copy the last execution consumed (see `LegoAlice::used`).
    used: Option<BobReady>,
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

    /// Bob with explicit options; f's Build plan and evaluation plan are
    /// compiled here (see [`LegoAlice::with_options`]).
    pub fn with_options(cfg: RunConfig, opts: LegoOptions) -> Result<Self> {
        let (theirs, mine) = common(&cfg)?;
        let build = Arc::new(build::Shared::new(&cfg.circuit, mine.len())?);
        let ev = Some(Evaluator::new(&cfg.circuit));
        Ok(LegoBob {
            cfg,
            opts,
            prg: Prg::new(),
            mine,
            theirs,
            build,
            hcom: None,
            rot: None,
            layout: None,
            mat: None,
            ready: VecDeque::new(),
            spent: None,
            used: None,
            ev,
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

    /// Readies Eval of the next copy: the evaluator's buffers sized for
    /// its bucket widths, so the online phase allocates nothing. (Reading
    /// the copy's records once here, to find them in the cache online,
    /// was measured: about 1 ms more Build, no online gain; see lego.md.)
    fn prepare_next(&mut self) {
        if let Some(r) = self.ready.front() {
            let c = &self.cfg.circuit;
            self.ev
                .get_or_insert_with(|| Evaluator::new(c))
                .prepare(&r.mat);
        }
    }

    fn hcom(&mut self) -> Result<&mut HcomReceiver> {
        self.hcom
            .as_mut()
            .ok_or_else(|| Error::config("lego: Setup did not run"))
    }
}

impl Party for LegoBob {
    store_methods!();

    fn begin_online(&mut self, _ch: &mut Channel) -> Result<()> {
        self.evaluator();
        Ok(())
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        let sec = Components::new(self.opts.s)?;
        let prg = &mut self.prg;
        let (hcom, rot) = setup::bob(ch, prg, &sec)?;
        self.hcom = Some(hcom);
        self.rot = Some(rot);
        Ok(())
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        let plan = step("1 parameters (Theorem 2)", || {
            plan_for(&self.cfg, &self.opts)
        })?;
        let id = match self.store.as_mut() {
            Some(store) => Some(new_batch(store, ch, &mut self.prg, false)?),
            None => None,
        };
        let rot = match self.rot.take() {
            Some(r) => r,
            None => delta_rot::receiver_setup(ch, &mut self.prg, plan.sec.delta_rot)?,
        };
        let cheats = self.cheats.clone();
        let mut prg = Prg::from_seed(self.prg.random_block());
        let progress = self.cfg.progress.clone();
        let (layout, mat) = generate::bob_with_progress(
            self.hcom()?,
            rot,
            ch,
            &plan,
            &mut prg,
            &cheats,
            &progress,
        )?;
        match (self.store.as_mut(), id) {
            (Some(store), Some(id)) => {
                let hcom = self
                    .hcom
                    .take()
                    .ok_or_else(|| Error::config("lego: Setup did not run"))?;
                batch::bob_store(store, id, &layout, &mat, hcom.state())
            }
            _ => {
                self.layout = Some(layout);
                self.mat = Some(mat);
                Ok(())
            }
        }
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        self.evaluator();
        if let Some(store) = self.store.as_mut() {
            let batches = batch::open_batches(store, ch, false)?;
            let e = self.cfg.executions;
            let sec = Components::new(self.opts.s)?;
            let built =
                batch::bob_builds(store, ch, &batches, &self.build, &self.mine, e, sec.commit)?;
            self.ready.extend(built);
            self.prepare_next();
            return Ok(());
        }
        let mut layout = self
            .layout
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        // As Alice: one plan, one batch opening for all copies.
        let shared = Arc::clone(&self.build);
        let copies = step("build: reserve components", || {
            shared.reserve_copies(&mut layout, self.cfg.executions)
        })?;
        let hcom_r = self.hcom()?;
        let built = step("build: verify solderings (receive)", || {
            build::bob_copies(hcom_r, ch, &shared, &copies)
        })?;
        let hcom = self
            .hcom
            .take()
            .ok_or_else(|| Error::config("lego: Setup did not run"))?;
        let mut mat = self
            .mat
            .take()
            .ok_or_else(|| Error::config("lego: Generate did not run"))?;
        let st = hcom.state();
        let session = lstore::bob_session(st);
        // Last copy first: each record takes its buckets out of `mat`
        // without copying them (see `store::bob_exec`).
        let mine = &self.mine;
        let mut ready = step("build: execution records", || {
            built
                .into_iter()
                .rev()
                .map(|b| {
                    let rec = lstore::bob_exec(b, &layout, &mut mat, st, mine)?;
                    BobReady::new(&session.hcom, rec, *hcom.params())
                })
                .collect::<Result<Vec<_>>>()
        })?;
        ready.reverse();
        self.ready.extend(ready);
        // Generate's session and material are wiped when the party is
        // dropped (see Alice's side).
        self.spent = Some((hcom, mat));
        step("build: prepare the first copy", || self.prepare_next());
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y = brickyard_driver::layout::flatten(inputs);
        let owners = Owners {
            alice: &self.theirs,
            bob: &self.mine,
        };
        let ready = self.ready.pop_front().ok_or_else(|| {
            Error::Exhausted("lego: no built circuit left (run Build first)".into())
        })?;
        let c = &self.cfg.circuit;
        let ev = self.ev.get_or_insert_with(|| Evaluator::new(c));
        let r = eval::bob_with(
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
        );
        // See `LegoAlice::used`.
        self.used = Some(ready);
        let (bits, _) = r?;
        Ok(Some(brickyard_driver::layout::split_outputs(
            &self.cfg, &bits,
        )))
    }

    fn after_execution(&mut self) {
        self.used = None;
    }
}
