//! The interface a protocol implements, once for each role.

use brickyard_core::{Channel, Error, Result};
use brickyard_store::Store;
use serde::{Deserialize, Serialize};

/// Which side of the protocol a party plays. Alice is the garbler /
/// constructor / P1 of the papers; Bob is the evaluator / P2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Garbler / constructor / P1 (TinyTable's A).
    Alice,
    /// Evaluator / P2 (TinyTable's B).
    Bob,
}

impl Role {
    /// The other party.
    pub fn peer(self) -> Role {
        match self {
            Role::Alice => Role::Bob,
            Role::Bob => Role::Alice,
        }
    }
    /// The store's name for this role.
    pub fn store_role(self) -> brickyard_store::Role {
        match self {
            Role::Alice => brickyard_store::Role::Alice,
            Role::Bob => brickyard_store::Role::Bob,
        }
    }
    /// Lower-case name, as used on the command line and in stores.
    pub fn name(self) -> &'static str {
        match self {
            Role::Alice => "alice",
            Role::Bob => "bob",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "alice" => Ok(Role::Alice),
            "bob" => Ok(Role::Bob),
            other => Err(format!("unknown role `{other}` (expected alice or bob)")),
        }
    }
}

/// One party's inputs for one execution: one bit vector per input group the
/// party owns, in the order of its group list in the [`crate::RunConfig`].
pub type PartyInputs = Vec<Vec<bool>>;

/// The circuit's outputs: one bit vector per output group.
pub type Outputs = Vec<Vec<bool>>;

/// One role of a protocol. The driver calls the phases in order, each
/// exactly once, then [`Party::online`] once per execution. A phase with
/// nothing to do for a protocol simply returns `Ok(())`; the driver still
/// records it so all protocols report the same table.
pub trait Party: Send {
    /// Keeps this party's preprocessing in `store` instead of memory: the
    /// preprocessing phases append to it (streaming, so it may exceed RAM)
    /// and online executions reserve from it, durably, before use. Called
    /// before any phase. Protocols without store support refuse.
    fn attach_store(&mut self, store: Store) -> Result<()> {
        drop(store);
        Err(Error::config(
            "this protocol does not keep its preprocessing in a store yet",
        ))
    }
    /// What this party's stored material is bound to, as the store's
    /// parameters: the store records them when preprocessing creates it, and
    /// a later run opens it only if they are equal (so material made for
    /// one circuit, MAC scheme or preprocessing source is never used for
    /// another). Function-independent material leaves the circuit out.
    fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
        std::collections::BTreeMap::new()
    }
    /// The statistical and computational parameters both parties must
    /// share (e.g. LEGO's s): the driver puts them in the run agreement, so
    /// parties started with different ones stop with `Config` naming them
    /// before any cryptography.
    fn security_parameters(&self) -> std::collections::BTreeMap<String, String> {
        std::collections::BTreeMap::new()
    }
    /// Called by the driver when a run ends in `Cheating`: marks the
    /// attached store durably poisoned (`Store::poison`), so nothing made
    /// with this peer is used again. No-op without a store.
    fn poison_store(&mut self, check: &str) -> Result<()> {
        let _ = check;
        Ok(())
    }
    /// Called once before the first online execution of a run, inside the
    /// timed online phase: e.g. agree with the peer on the next unused store
    /// index, so material either side reserved before is never used.
    fn begin_online(&mut self, ch: &mut Channel) -> Result<()> {
        let _ = ch;
        Ok(())
    }
    /// Called after each barrier-separated online execution, outside its
    /// timing: housekeeping that does not delay the output, such as
    /// wiping and freeing the material the execution consumed (a copy of
    /// megabytes whose first free in a process returns its pages to the
    /// kernel, a millisecond or more). Pipelined executions call it inside
    /// their timed run. It must not communicate.
    fn after_execution(&mut self) {}
    /// Whether consecutive [`Party::online`] calls may run without a
    /// barrier between them (the driver's pipelined throughput measurement):
    /// each execution must consume every message the peer sends in it, so
    /// that a party that starts the next execution early only queues bytes
    /// the peer reads later. Both roles must answer the same.
    fn pipelines(&self) -> bool {
        false
    }
    /// Whether the dependent phase belongs to the online run instead of the
    /// preprocessing run: with function-independent preprocessing in a
    /// store (LEGO), a preprocessing run never sees f, so Build runs in the
    /// later run that knows it, just before the executions. Both roles must
    /// answer the same (a mismatch stops at the next phase barrier).
    fn dependent_in_online_run(&self) -> bool {
        false
    }
    /// Function- and input-independent setup (base OTs, commitment keys, Δ).
    fn setup(&mut self, ch: &mut Channel) -> Result<()>;
    /// Preprocessing that needs neither the function nor the inputs (OTs,
    /// garbled gates, components, authenticated bits) — for all executions.
    fn independent(&mut self, ch: &mut Channel) -> Result<()>;
    /// Preprocessing that needs the function but not the inputs
    /// (solderings, tables, bucketed circuits).
    fn dependent(&mut self, ch: &mut Channel) -> Result<()>;
    /// One execution on this party's inputs. Returns the outputs if this
    /// party learns them. On any error the caller must discard everything
    /// this execution produced: an abort leaves no partial output.
    fn online(&mut self, ch: &mut Channel, inputs: &PartyInputs) -> Result<Option<Outputs>>;
}
