//! CompGC's flags and circuit names on `demo`, `run`, `preprocess` and
//! `bench`: `--circuit` may name a linked function (`builtin:aes128`,
//! `builtin:aes128-cbc:M`, `builtin:levenshtein:L`, a `.json` spec), and
//! `--components` / `--ots` describe the library `preprocess` makes.

use crate::error::CliError;
use brickyard_circuit::Circuit;
use brickyard_protocols::compgc::{self, CompgcParams};
use brickyard_protocols::{Party, Role, RunConfig};
use clap::Args;
use std::sync::Arc;

/// Flags that only `compgc` reads.
#[derive(Args, Debug, Clone, Default)]
pub struct CompgcArgs {
    /// compgc preprocess: the component library, TYPE:COUNT,… (e.g.
    /// aes128-round:90,aes128-final-round:10,xor128:10). Default: what
    /// --circuit needs for --executions.
    #[arg(long, value_name = "TYPE:N,..")]
    pub components: Option<String>,
    /// compgc preprocess: random OTs for Bob's future inputs (default: one
    /// per component input wire).
    #[arg(long, value_name = "N")]
    pub ots: Option<usize>,
}

/// The circuit `name` stands for under `protocol`: for compgc a linked
/// function is flattened (its groups are the run's groups).
pub fn load_circuit(protocol: &str, name: &str) -> Result<Circuit, CliError> {
    if protocol == "compgc" {
        if let Some(f) = compgc::resolve_function(name)? {
            return Ok(f.flatten()?);
        }
    }
    crate::circuit::load(name)
}

impl CompgcArgs {
    /// Refuses compgc flags on other protocols.
    pub fn check_other(&self, protocol: &str) -> Result<(), CliError> {
        if protocol != "compgc" && (self.components.is_some() || self.ots.is_some()) {
            return Err(CliError::Usage(format!(
                "--components and --ots apply to compgc, not `{protocol}`"
            )));
        }
        Ok(())
    }

    /// The compgc parameters for `circuit` (a function name or any circuit).
    pub fn params(&self, circuit: &str) -> Result<CompgcParams, CliError> {
        let mut p = match &self.components {
            Some(c) => CompgcParams::with_components(c)?,
            None => CompgcParams::default(),
        };
        p.ots = self.ots;
        p.function = compgc::resolve_function(circuit)?.map(Arc::new);
        Ok(p)
    }

    /// A compgc party.
    pub fn new_party(
        &self,
        circuit: &str,
        role: Role,
        cfg: RunConfig,
    ) -> Result<Box<dyn Party>, CliError> {
        Ok(compgc::new_party(role, cfg, self.params(circuit)?)?)
    }
}
