//! `lindell-riva`: the Appendix A protocol ([`crate::protocol`]) as driver
//! parties, registered in `brickyard-protocols`. See
//! `docs/protocols/lindell-riva.md`.
//!
//! | phase | paper step |
//! |---|---|
//! | setup | Fig. A.1 Setup: Bob's E, E' verified by Alice; KOS base OTs |
//! | independent | random OTs on Bob's random `y¹_j`, `d¹_j` (all buckets) |
//! | dependent | Fig. A.2: `M + M'` bundles, joint F_ExCom∆ZK, cut-and-choose and checks, OT label transfer |
//! | online | Fig. A.3 on one bucket, four messages |
//!
//! Only Bob learns the output (`--output bob`); other modes are refused.
//!
//! With a store ([`Party::attach_store`]) a preprocessing run writes one
//! record per bucket and the setup (`protocol/stored.rs`); a later run
//! rebuilds the setup from the store, skips the preprocessing phases, and
//! each execution reserves one bucket durably before using it (the bucket is
//! read and parsed ahead, between executions: `protocol/stored.rs`).

use crate::params::S;
use crate::protocol::{Agreed, Alice, Bob};
use brickyard_core::{Channel, Error, Result};
use brickyard_driver::{OutputMode, Outputs, Party, PartyInputs, Role, RunConfig};
use brickyard_store::Store;
use std::collections::BTreeMap;

/// What stored material is bound to: the function, input ownership, `s`
/// and how the lemmas' parameters were chosen (the `N` it was made for,
/// and with it B, p, M, B', p', M', is in the stored setup: a run consumes
/// any number of its buckets).
fn store_parameters(cfg: &RunConfig) -> BTreeMap<String, String> {
    let mut m = cfg.function_parameters();
    m.extend(security_parameters());
    m.insert(
        "lindell-riva parameters".into(),
        "Lemmas 2.2/2.3, fewest circuits".into(),
    );
    m
}

fn security_parameters() -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    m.insert("s".into(), S.to_string());
    m
}

/// Positions of one role's input wires in the flattened input order.
fn positions(cfg: &RunConfig, role: Role) -> Vec<usize> {
    let mut starts = Vec::with_capacity(cfg.circuit.inputs.len());
    let mut at = 0;
    for g in &cfg.circuit.inputs {
        starts.push(at);
        at += g.width();
    }
    cfg.groups_of(role)
        .iter()
        .flat_map(|&g| starts[g]..starts[g] + cfg.circuit.inputs[g].width())
        .collect()
}

/// The agreed run for `cfg` (its `executions` as `N`, s = 40).
pub(crate) fn agreed_for(cfg: &RunConfig) -> Result<Agreed> {
    agreed(cfg)
}

fn agreed(cfg: &RunConfig) -> Result<Agreed> {
    cfg.validate()?;
    if cfg.output != OutputMode::Bob {
        return Err(Error::config(
            "lindell-riva gives the output to Bob only (--output bob)",
        ));
    }
    Agreed::new(
        cfg.circuit.clone(),
        positions(cfg, Role::Alice),
        positions(cfg, Role::Bob),
        cfg.executions,
        S,
    )
}

/// The [`Party`] methods both roles forward unchanged to their protocol
/// side (`self.inner`, an `Alice` or a `Bob` with the same phase methods);
/// only `online` differs, and each role writes it.
macro_rules! offline_phases_of_inner {
    () => {
        fn attach_store(&mut self, store: Store) -> Result<()> {
            self.inner.attach_store(store)
        }
        fn store_parameters(&self) -> BTreeMap<String, String> {
            store_parameters(&self.cfg)
        }
        fn security_parameters(&self) -> BTreeMap<String, String> {
            security_parameters()
        }
        fn poison_store(&mut self, check: &str) -> Result<()> {
            self.inner.poison_store(check)
        }
        fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
            self.inner.begin_online(ch, self.cfg.executions as u64)
        }
        fn setup(&mut self, ch: &mut Channel) -> Result<()> {
            self.inner.setup(ch)
        }
        fn independent(&mut self, ch: &mut Channel) -> Result<()> {
            self.inner.independent(ch)
        }
        fn dependent(&mut self, ch: &mut Channel) -> Result<()> {
            self.inner.dependent(ch)
        }
        fn after_execution(&mut self) {
            self.inner.release_spent();
        }
    };
}

/// Alice (P1, garbler).
pub struct LrAlice {
    inner: Alice,
    cfg: RunConfig,
}

impl LrAlice {
    /// Parameters from the lemmas for `cfg.executions` at s = 40.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Ok(LrAlice {
            inner: Alice::new(agreed(&cfg)?),
            cfg,
        })
    }

    /// Adversary mode: Alice follows `cheat`.
    #[cfg(feature = "adversary")]
    pub fn cheat(mut self, cheat: crate::protocol::Cheat) -> Self {
        self.inner.set_cheat(cheat);
        self
    }
}

impl Party for LrAlice {
    offline_phases_of_inner!();
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let x: Vec<bool> = inputs.iter().flatten().copied().collect();
        self.inner.online(ch, &x)?;
        Ok(None)
    }
}

/// Bob (P2, evaluator; learns the output).
pub struct LrBob {
    inner: Bob,
    cfg: RunConfig,
}

impl LrBob {
    /// Parameters from the lemmas for `cfg.executions` at s = 40.
    pub fn new(cfg: RunConfig) -> Result<Self> {
        Ok(LrBob {
            inner: Bob::new(agreed(&cfg)?),
            cfg,
        })
    }

    /// Adversary mode: Bob follows `cheat` (or is rigged for it).
    #[cfg(feature = "adversary")]
    pub fn cheat(mut self, cheat: crate::protocol::Cheat) -> Self {
        self.inner.set_cheat(cheat);
        self
    }
}

impl Party for LrBob {
    offline_phases_of_inner!();
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>> {
        let y: Vec<bool> = inputs.iter().flatten().copied().collect();
        let z = self.inner.online(ch, &y)?;
        let mut out = Vec::with_capacity(self.cfg.circuit.outputs.len());
        let mut at = 0;
        for g in &self.cfg.circuit.outputs {
            let part = z
                .get(at..at + g.width())
                .ok_or_else(|| Error::config("lindell-riva: output width"))?;
            out.push(part.to_vec());
            at += g.width();
        }
        Ok(Some(out))
    }
}
