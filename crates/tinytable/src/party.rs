//! TinyTable as a [`Party`]: symmetric, Alice = A, Bob = B.
//!
//! | phase | both parties |
//! |---|---|
//! | setup | agree on the options (variant, MAC scheme, preprocessing source) |
//! | independent | real: TinyOT setup (base OTs both ways); `--dealer`: nothing |
//! | dependent | real (default): Fig. 8 ([`super::preprocessing`]) chunk by chunk — aBits, AND triples, Beaver, tables — each side streaming its records into memory or its store; `--dealer`: Alice's process runs the trusted dealer for all E executions and ships Bob's records to him |
//! | online | reserve one execution's records, run π_mal ([`super::online`]) |

use super::dealer::{deal, DealPlan, CHUNK_TABLES};
use super::material::{Layout, Material};
use super::online::{run_batch_with, Ctx, OnlinePlan, Scratch};
use super::preprocessing::{PrepPlan, Preprocessor};
use super::program::Program;
use super::{Options, Source};
use brickyard_core::hugepage::PageBuf;
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Error, Result};
use brickyard_driver::{Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_store::{KindSpec, NextUnit, Store};
use std::collections::VecDeque;
use zeroize::Zeroizing;

enum Pool {
    Memory(VecDeque<Material>),
    Store(Box<Store>),
}

/// One TinyTable party.
pub struct TinyTableParty {
    cfg: RunConfig,
    opts: Options,
    role: Role,
    program: Program,
    plan: OnlinePlan,
    scratch: Scratch,
    layouts: [Layout; 2],
    inputs: [Vec<u32>; 2],
    pool: Pool,
    prep: Option<Preprocessor>,
    /// The material the last execution consumed, wiped and freed in
    /// [`Party::after_execution`]: zeroizing its records and unmapping
    /// their region (the last cut of a huge-page region unmaps it) does
    /// not delay the output, so it stays out of the execution's time.
    spent: Option<Material>,
    /// With a store: the next execution's records, read and verified
    /// between executions and handed out only by their durable
    /// reservation (`Store::take_read_ahead`).
    ahead: NextUnit<Material>,
}

/// Sends the digest of our options and checks the peer's is the same.
pub(crate) fn agree_options(ch: &mut Channel, opts: &Options) -> Result<()> {
    let mine = *blake3::hash(opts.describe().as_bytes()).as_bytes();
    ch.send_bytes(&mine)?;
    let mut theirs = [0u8; 32];
    ch.recv_bytes(&mut theirs)?;
    if mine != theirs {
        return Err(Error::config(
            "tinytable: the peer uses different options (variant, --mac, --dealer or s)",
        ));
    }
    Ok(())
}

fn idx(r: Role) -> usize {
    match r {
        Role::Alice => 0,
        Role::Bob => 1,
    }
}

impl TinyTableParty {
    /// Compiles the program and checks the options.
    pub fn new(role: Role, cfg: RunConfig, opts: Options) -> Result<Self> {
        cfg.validate()?;
        if cfg.output == brickyard_driver::OutputMode::Alice {
            return Err(Error::config(
                "tinytable: output to Alice only is not supported (use --output bob or both)",
            ));
        }
        let program = opts.variant.compile(&cfg.circuit)?;
        let per_execution =
            program.table_count() * super::preprocessing::mults_per_table(program.table.n_in);
        opts.check_bound(per_execution.saturating_mul(cfg.executions))?;
        let wires = |r: Role| -> Vec<u32> {
            cfg.groups_of(r)
                .iter()
                .flat_map(|&g| program.inputs[g].iter().copied())
                .collect()
        };
        let inputs = [wires(Role::Alice), wires(Role::Bob)];
        let layouts = [
            Layout::new(&program, opts.mac, inputs[0].len()),
            Layout::new(&program, opts.mac, inputs[1].len()),
        ];
        Ok(TinyTableParty {
            cfg,
            opts,
            role,
            plan: OnlinePlan::new(&program),
            scratch: Scratch::default(),
            program,
            layouts,
            inputs,
            pool: Pool::Memory(VecDeque::new()),
            prep: None,
            spent: None,
            ahead: NextUnit::default(),
        })
    }

    fn kinds(&self) -> [String; 2] {
        let tag = format!("{}-{}", self.opts.variant.name(), self.opts.mac.name());
        // `tables2`: table records in the record order of `material.rs`
        // (entry by entry); version 1 stores (planar) are not read.
        [format!("tt-exec-{tag}"), format!("tt-tables2-{tag}")]
    }

    fn me(&self) -> usize {
        idx(self.role)
    }

    fn keep(
        &mut self,
        exec: Option<&[u8]>,
        gates: &[u8],
        current: &mut Zeroizing<Vec<u8>>,
    ) -> Result<()> {
        let [ek, gk] = self.kinds();
        match &mut self.pool {
            Pool::Store(s) => {
                if !gates.is_empty() {
                    s.append(&gk, gates)?;
                }
                if let Some(e) = exec {
                    s.append(&ek, e)?;
                }
            }
            Pool::Memory(q) => {
                current.extend_from_slice(gates);
                if let Some(e) = exec {
                    q.push_back(Material {
                        exec: Zeroizing::new(e.to_vec()),
                        gates: PageBuf::from(std::mem::take(&mut **current)),
                    });
                }
            }
        }
        Ok(())
    }

    /// Alice's side of `--dealer`: deal every execution, keep hers, send Bob his.
    fn deal_all(&mut self, ch: &mut Channel) -> Result<()> {
        let program = self.program.clone();
        let plan = DealPlan {
            program: &program,
            alice_inputs: self.inputs[0].clone(),
            bob_inputs: self.inputs[1].clone(),
            layouts: self.layouts,
        };
        let mut prg = Prg::new();
        let tables = program.table_count() as u64;
        for _ in 0..self.cfg.executions {
            let mut gates = Zeroizing::new(Vec::new());
            let [ea, eb] = deal(&mut prg, &plan, &mut |a, b| {
                ch.send_bytes(b)?;
                gates.extend_from_slice(a);
                Ok(())
            })?;
            ch.send_bytes(&eb)?;
            let mut cur = Zeroizing::new(Vec::new());
            self.keep(None, &gates, &mut cur)?;
            self.keep(Some(&ea), &[], &mut cur)?;
            self.cfg.progress.advance(tables);
        }
        Ok(())
    }

    /// Both sides of real preprocessing (Fig. 8): records stream into the
    /// pool execution by execution.
    fn preprocess_all(&mut self, ch: &mut Channel) -> Result<()> {
        let mut prep = match self.prep.take() {
            Some(p) => p,
            None => Preprocessor::setup(ch, self.role, self.opts.s)?,
        };
        let program = self.program.clone();
        let me = self.me();
        let plan = PrepPlan {
            program: &program,
            role: self.role,
            inputs: self.inputs.clone(),
            layout: self.layouts[me],
            #[cfg(feature = "adversary")]
            cheat: self.opts.cheat_for(self.role, program.table_count())?,
        };
        let tables = program.table_count() as u64;
        let execs = self.cfg.executions;
        let layout = self.layouts[me];
        let mut recs = Zeroizing::new(Vec::new());
        let r = prep.run(ch, &plan, execs, &mut |gates, exec| {
            // Fig. 8 writes its records in the planar order; keep them in
            // the record order the online phase reads.
            recs.resize(gates.len(), 0);
            layout.record_from_planar(gates, &mut recs);
            let mut cur = Zeroizing::new(Vec::new());
            self.keep(Some(exec), &recs, &mut cur)?;
            self.cfg.progress.advance(tables);
            Ok(())
        });
        self.prep = Some(prep);
        r
    }

    /// Bob's side of `--dealer`: receive and keep his records.
    fn receive_all(&mut self, ch: &mut Channel) -> Result<()> {
        let l = self.layouts[1];
        let tables = self.program.table_count();
        for _ in 0..self.cfg.executions {
            let mut cur = Zeroizing::new(Vec::new());
            let mut left = tables;
            while left > 0 {
                let t = left.min(CHUNK_TABLES);
                let mut buf = Zeroizing::new(vec![0u8; t * l.gate_bytes]);
                ch.recv_bytes(&mut buf)?;
                self.keep(None, &buf, &mut cur)?;
                left -= t;
                self.cfg.progress.advance(t as u64);
            }
            let mut ex = Zeroizing::new(vec![0u8; l.exec_bytes]);
            ch.recv_bytes(&mut ex)?;
            self.keep(Some(&ex), &[], &mut cur)?;
        }
        Ok(())
    }

    fn take(&mut self) -> Result<Material> {
        let tables = self.program.table_count() as u64;
        let [ek, gk] = self.kinds();
        match &mut self.pool {
            Pool::Memory(q) => q
                .pop_front()
                .ok_or_else(|| Error::Exhausted("tinytable: no preprocessed tables left".into())),
            Pool::Store(s) => {
                // Read ahead or now; reserved and consumed in one durable
                // update before any of it is used.
                self.ahead.take(s, &[(&ek, 1), (&gk, tables)], material_of)
            }
        }
    }
}

impl TinyTableParty {
    /// Reads the next execution's unit ahead (see `NextUnit::fill`).
    fn read_ahead(&mut self) {
        let ([ek, gk], tables) = self.unit();
        if let Pool::Store(s) = &mut self.pool {
            self.ahead.fill(s, &[(&ek, 1), (&gk, tables)], material_of);
        }
    }

    /// One execution's records: its execution record and its T tables.
    /// They are reserved together, as one unit with one index, and the
    /// handshake checks both kinds stand at the same unit: execution j
    /// never runs with another execution's tables.
    fn unit(&self) -> ([String; 2], u64) {
        (self.kinds(), self.program.table_count() as u64)
    }
}

impl Party for TinyTableParty {
    fn attach_store(&mut self, mut store: Store) -> Result<()> {
        let [ek, gk] = self.kinds();
        let l = self.layouts[self.me()];
        for (k, size) in [(&ek, l.exec_bytes), (&gk, l.gate_bytes)] {
            if store.produced(k).is_err() {
                store.add_kind(KindSpec::fixed(k, size as u32))?;
            }
        }
        let tables = self.program.table_count() as u64;
        store.declare_unit("execution", &[(&ek, 1), (&gk, tables)])?;
        self.pool = Pool::Store(Box::new(store));
        Ok(())
    }

    fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
        let mut m = self.cfg.function_parameters();
        m.extend(self.security_parameters());
        m.insert("tinytable variant".into(), self.opts.variant.name().into());
        m.insert(
            "preprocessing source".into(),
            match self.opts.source {
                Source::Real => "real (Fig. 8)".into(),
                Source::Dealer => "trusted dealer (--dealer)".into(),
            },
        );
        m
    }

    fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
        let mut m = std::collections::BTreeMap::new();
        m.insert("s".into(), self.opts.s.to_string());
        m.insert("mac".into(), self.opts.mac.name());
        m
    }

    fn poison_store(&mut self, check: &str) -> Result<()> {
        match &mut self.pool {
            Pool::Store(s) => s.poison(check),
            Pool::Memory(_) => Ok(()),
        }
    }

    fn setup(&mut self, ch: &mut Channel) -> Result<()> {
        agree_options(ch, &self.opts)
    }

    fn independent(&mut self, ch: &mut Channel) -> Result<()> {
        if self.opts.source == Source::Real {
            self.prep = Some(Preprocessor::setup(ch, self.role, self.opts.s)?);
        }
        Ok(())
    }

    fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
        self.cfg
            .progress
            .add_total((self.program.table_count() * self.cfg.executions) as u64);
        match (self.opts.source, self.role) {
            (Source::Real, _) => self.preprocess_all(ch)?,
            (Source::Dealer, Role::Alice) => self.deal_all(ch)?,
            (Source::Dealer, Role::Bob) => self.receive_all(ch)?,
        }
        if let Pool::Store(s) = &mut self.pool {
            s.commit()?;
        }
        Ok(())
    }

    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        let ([ek, gk], tables) = self.unit();
        let want = self.cfg.executions as u64;
        if let Pool::Store(s) = &mut self.pool {
            // One agreed unit index, checked against both stores; refuses
            // (reserving nothing) a run wanting more than both hold.
            s.sync_units(ch, &[(&ek, 1), (&gk, tables)], want)?;
            self.ahead.begin(want);
        }
        self.read_ahead();
        // The online buffers, sized before the first execution's timing.
        let l = self.layouts[self.me()];
        self.scratch.reserve(&self.plan, &l, 1);
        Ok(())
    }

    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let mat = self.take()?;
        let bits: Vec<bool> = inputs.iter().flatten().copied().collect();
        let me = self.me();
        let ctx = Ctx {
            program: &self.program,
            plan: &self.plan,
            layout: self.layouts[me],
            role: self.role,
            output: self.cfg.output,
            my_inputs: &self.inputs[me],
            peer_inputs: &self.inputs[1 - me],
            #[cfg(feature = "adversary")]
            cheat: self.opts.cheat_for(self.role, self.program.table_count())?,
        };
        let mut out = run_batch_with(
            ch,
            &ctx,
            std::slice::from_ref(&mat),
            &[bits],
            &mut self.scratch,
        )?;
        self.spent = Some(mat);
        Ok(out.pop().flatten().map(|bits| {
            let mut at = 0;
            self.program
                .outputs
                .iter()
                .map(|g| {
                    let v = bits[at..at + g.len()].to_vec();
                    at += g.len();
                    v
                })
                .collect()
        }))
    }

    fn after_execution(&mut self) {
        self.spent = None;
        self.read_ahead();
    }
}

/// One execution's records as read from a store: its execution record and
/// its tables (moved, not copied).
fn material_of(_: u64, mut parts: Vec<Zeroizing<Vec<u8>>>) -> Result<Material> {
    if parts.len() != 2 {
        return Err(Error::Storage("tinytable: an execution's records".into()));
    }
    let gates = PageBuf::from(std::mem::take(&mut *parts[1]));
    let exec = Zeroizing::new(std::mem::take(&mut *parts[0]));
    Ok(Material { exec, gates })
}
