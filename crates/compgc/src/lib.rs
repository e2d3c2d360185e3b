//! `compgc`: component-based garbled circuits (Groce–Ledger–Malozemoff–
//! Yerukhimovich). Semi-honest 2PC where the offline phase knows only the
//! *kinds* of components the function will use; the online phase links
//! pre-garbled components with one label per linked wire. See
//! `docs/protocols/compgc.md`.
//!
//! | phase | Alice (garbler) | Bob (evaluator) |
//! |---|---|---|
//! | setup | IKNP sender | IKNP receiver |
//! | independent | session Δ; garbles the component library (GARBLE), streams tables; random OTs | stores tables; random OTs |
//! | dependent | — | — |
//! | online | spec digest; reserves instances; sends her labels, constants' labels, link labels (LINK), decoding; Beaver OT for Bob's bits | OT corrections; evaluates component by component (EVAL), links, decodes |
#![deny(missing_docs)]

mod alice;
mod bob;
pub mod components;
pub mod error;
mod flatten;
pub mod function;
pub mod generators;
pub mod keysched;
pub mod library;
pub mod spec;

pub use alice::CompgcAlice;
pub use bob::CompgcBob;
pub use components::{kind_name, parse_components, ComponentType};
pub use error::SpecError;
pub use function::Function;
pub use generators::{aes_cbc_spec, levenshtein_spec, resolve_function, single};

use brickyard_core::{Error, Result};
use brickyard_driver::{Party, Role, RunConfig};
use std::sync::Arc;

/// CompGC-specific parameters beyond the [`RunConfig`].
#[derive(Clone, Default)]
pub struct CompgcParams {
    /// The component library to preprocess into a store: `(type, count)`.
    /// Empty: preprocess exactly what `function` needs × executions (the
    /// in-memory demo/bench mode).
    pub components: Vec<(String, usize)>,
    /// Random OTs to preprocess into a store for Bob's future inputs.
    /// `None`: one per component input wire of the library (an upper bound:
    /// every Bob input bit lands on at least one).
    pub ots: Option<usize>,
    /// The linked function. `None`: the run's circuit as one component.
    pub function: Option<Arc<Function>>,
}

impl CompgcParams {
    /// Parameters for a library given as `--components TYPE:COUNT,…`.
    pub fn with_components(list: &str) -> Result<Self> {
        Ok(CompgcParams {
            components: parse_components(list)?,
            ..Default::default()
        })
    }

    /// Store parameters recording the library (so a store made for one
    /// library is not opened for another by mistake).
    pub fn store_parameters(&self) -> std::collections::BTreeMap<String, String> {
        let mut m = std::collections::BTreeMap::new();
        let list: Vec<String> = self
            .components
            .iter()
            .map(|(t, n)| format!("{t}:{n}"))
            .collect();
        m.insert("components".into(), list.join(","));
        m
    }
}

/// The function a party runs: `params.function`, else the run's circuit as
/// one component, checked against the run's input and output widths.
pub(crate) fn function_for(cfg: &RunConfig, params: &CompgcParams) -> Result<Arc<Function>> {
    let f = match &params.function {
        Some(f) => f.clone(),
        None => Arc::new(single(cfg)?),
    };
    let width = |r: Role| -> usize {
        cfg.groups_of(r)
            .iter()
            .map(|&g| cfg.circuit.inputs[g].width())
            .sum()
    };
    let outs: usize = cfg.circuit.outputs.iter().map(|g| g.width()).sum();
    if f.garbler_user_bits() != width(Role::Alice)
        || f.evaluator_bits != width(Role::Bob)
        || f.outputs.len() != outs
    {
        return Err(Error::config(format!(
            "compgc: function `{}` has {}/{} input bits and {} output bits, the run's circuit {}/{} and {}",
            f.name,
            f.garbler_user_bits(),
            f.evaluator_bits,
            f.outputs.len(),
            width(Role::Alice),
            width(Role::Bob),
            outs
        )));
    }
    Ok(f)
}

/// The library a preprocessing run garbles: `params.components`, or what
/// the function needs for `cfg.executions` executions.
pub(crate) fn library_for(
    cfg: &RunConfig,
    params: &CompgcParams,
    f: &Function,
) -> Result<Vec<(ComponentType, usize)>> {
    if params.components.is_empty() {
        return Ok(f
            .types
            .iter()
            .zip(&f.type_counts)
            .map(|(t, &n)| (t.clone(), n * cfg.executions))
            .collect());
    }
    params
        .components
        .iter()
        .map(|(name, n)| {
            let t = match f.types.iter().find(|t| &t.name == name) {
                Some(t) => t.clone(),
                None => ComponentType::resolve(name)?,
            };
            Ok((t, *n))
        })
        .collect()
}

/// Random OTs a preprocessing run makes.
pub(crate) fn ots_for(
    cfg: &RunConfig,
    params: &CompgcParams,
    f: &Function,
    lib: &[(ComponentType, usize)],
) -> usize {
    if params.components.is_empty() {
        return f.bob_ot.len() * cfg.executions;
    }
    params
        .ots
        .unwrap_or_else(|| lib.iter().map(|(t, n)| t.inputs() * n).sum())
}

/// Agrees with the peer, before anything is reserved, that both stores hold
/// the run's whole need of every kind (Bob's random OTs and each component
/// type), so neither party reserves material the other cannot match.
pub(crate) fn sync_store(
    s: &mut brickyard_store::Store,
    ch: &mut brickyard_core::Channel,
    cfg: &RunConfig,
    f: &Function,
) -> Result<()> {
    let e = cfg.executions as u64;
    let mut kinds = vec![(
        brickyard_rot_pool::ROT_KIND.to_string(),
        e * f.bob_ot.len() as u64,
    )];
    for (t, &n) in f.types.iter().zip(&f.type_counts) {
        let k = kind_name(&t.name);
        if s.produced(&k).is_err() {
            return Err(Error::Exhausted(format!(
                "compgc: the store holds no instances of component `{}`",
                t.name
            )));
        }
        kinds.push((k, e * n as u64));
    }
    let groups: Vec<brickyard_store::SyncGroup> = kinds
        .iter()
        .map(|(k, want)| brickyard_store::SyncGroup {
            kinds: vec![(k.as_str(), 1)],
            want: *want,
        })
        .collect();
    s.sync_groups(ch, &groups)?;
    Ok(())
}

/// A fresh compgc party.
pub fn new_party(role: Role, cfg: RunConfig, params: CompgcParams) -> Result<Box<dyn Party>> {
    Ok(match role {
        Role::Alice => Box::new(CompgcAlice::new(cfg, params)?),
        Role::Bob => Box::new(CompgcBob::new(cfg, params)?),
    })
}
