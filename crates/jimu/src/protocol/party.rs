//! JIMU's two parties on the driver's phases: setup = Step 0; independent
//! = Generate (with the pool i-hashes of Step 1), Check, and the random
//! OTs of Bob's input shares; dependent = Build (wire assignment and
//! solderings); online = inputs, Evaluate, Output.

use super::build::{self, AliceExec, BobExec, Owner};
use super::check::{self, Assignment};
use super::eval::{self, AliceRots, BobKeys, BobRots, EvalScratch};
use super::generate::{self, AliceGates, BobGates, Sizes};
use super::schedule::Schedule;
use super::setup::{self, AliceSetup, BobSetup};
use super::JimuOptions;
use crate::cheat::Cheats;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
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
    cheats: Cheats,
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
            cheats: Cheats::default(),
        })
    }

    /// Follows `cheats` (adversary builds only deviate).
    pub fn with_cheats(mut self, cheats: Cheats) -> Self {
        self.cheats = cheats;
        self
    }
}

impl<const L: usize> Party for JimuAlice<L> {
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
        let sz = Sizes::new(&self.cfg, &self.opts)?;
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
        self.rots = Some(eval::alice_rots(ch, &mut st.kos, &sz)?);
        self.gates = Some((g, asg));
        self.sz = Some(sz);
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let (g, asg) = self.gates.take().ok_or_else(|| missing("Generate"))?;
        let lp = st.perm.params().ell;
        let execs = build::alice(
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
        self.ready.extend(execs);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x = brickyard_driver::layout::flatten(inputs);
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let ex = self
            .ready
            .pop_front()
            .ok_or_else(|| Error::Exhausted("jimu: no built execution left".into()))?;
        let rots = self.rots.as_ref().ok_or_else(|| missing("Generate"))?;
        eval::alice(
            ch,
            &ex,
            rots,
            &sz,
            &st.delta,
            &x,
            &mut self.prg,
            &self.cheats,
        )?;
        Ok(None)
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
    cheats: Cheats,
    sched: Schedule,
    scratch: EvalScratch<L>,
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
            cheats: Cheats::default(),
            scratch: EvalScratch::default(),
        })
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
        let sz = Sizes::new(&self.cfg, &self.opts)?;
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
        self.rots = Some(eval::bob_rots(ch, &mut st.kos, &sz, &mut self.prg)?);
        self.gates = Some((g, asg));
        self.sz = Some(sz);
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let (g, asg) = self.gates.as_mut().ok_or_else(|| missing("Generate"))?;
        let execs = build::bob(
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
        self.ready.extend(execs);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y = brickyard_driver::layout::flatten(inputs);
        let sz = self.sz.ok_or_else(|| missing("Generate"))?;
        let st = self.setup.as_ref().ok_or_else(|| missing("Setup"))?;
        let ex = self
            .ready
            .pop_front()
            .ok_or_else(|| Error::Exhausted("jimu: no built execution left".into()))?;
        let rots = self.rots.as_ref().ok_or_else(|| missing("Generate"))?;
        let keys = BobKeys {
            wire: st.wire.verifier(),
            perm: st.perm.verifier(),
            perm_params: *st.perm.params(),
            h_delta: &st.h_delta,
            d: &st.d,
            compress: &st.compress,
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
            &mut self.prg,
            &mut self.scratch,
        )?;
        Ok(Some(brickyard_driver::layout::split_outputs(
            &self.cfg, &bits,
        )))
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
    use brickyard_garble::wide::{L127, L88};
    Ok(match (opts.k, role) {
        (88, Role::Alice) => Box::new(JimuAlice::<L88>::new(cfg, opts)?.with_cheats(cheats)),
        (88, Role::Bob) => Box::new(JimuBob::<L88>::new(cfg, opts)?.with_cheats(cheats)),
        (127, Role::Alice) => Box::new(JimuAlice::<L127>::new(cfg, opts)?.with_cheats(cheats)),
        (127, Role::Bob) => Box::new(JimuBob::<L127>::new(cfg, opts)?.with_cheats(cheats)),
        (k, _) => {
            return Err(Error::config(format!(
                "jimu: k = {k} (the paper's settings are 88 and 127)"
            )))
        }
    })
}
