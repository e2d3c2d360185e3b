//! Arguments and plumbing shared by `demo`, `run` and `bench`: which
//! protocol on which circuit, who owns which input group, parsing each
//! party's values, and printing outputs.

use crate::circuit::Format;
use crate::error::{CliError, CliResult};
use brickyard_circuit::{format_value, parse_value, ValueFormat};
use brickyard_protocols::{OutputMode, Outputs, PartyInputs, Role, RunConfig};
use clap::Args;
use std::sync::Arc;

/// Protocol, circuit and input ownership.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Protocol: yao (semi-honest half-gates Yao with preprocessed OT).
    #[arg(long, default_value = "yao")]
    pub protocol: String,
    /// A Bristol file or builtin:NAME.
    #[arg(long, default_value = "builtin:aes128")]
    pub circuit: String,
    /// Input groups Alice owns, comma-separated (default: 0).
    #[arg(long, value_delimiter = ',', value_name = "G,..")]
    pub alice_groups: Option<Vec<usize>>,
    /// Input groups Bob owns, comma-separated (default: all others).
    #[arg(long, value_delimiter = ',', value_name = "G,..")]
    pub bob_groups: Option<Vec<usize>>,
    /// Who learns the output.
    #[arg(long, default_value = "bob", value_parser = ["bob", "both"])]
    pub output: String,
    /// Number of online executions.
    #[arg(long, default_value_t = 1)]
    pub executions: usize,
    /// TinyTable's flags (other protocols refuse them).
    #[command(flatten)]
    pub tt: crate::tinytable::TinyTableArgs,
    /// CompGC's flags (other protocols refuse them).
    #[command(flatten)]
    pub cg: crate::compgc::CompgcArgs,
}

impl RunArgs {
    /// A party of the chosen protocol (TinyTable also reads its own flags).
    pub fn new_party(
        &self,
        role: Role,
        cfg: RunConfig,
    ) -> Result<Box<dyn brickyard_protocols::Party>, CliError> {
        if self.protocol == "compgc" {
            return self.cg.new_party(&self.circuit, role, cfg);
        }
        self.cg.check_other(&self.protocol)?;
        self.tt.new_party(&self.protocol, role, cfg)
    }

    /// Loads the circuit and builds the run configuration.
    pub fn config(&self) -> Result<RunConfig, CliError> {
        brickyard_protocols::registry::info(&self.protocol)?;
        let circuit = crate::compgc::load_circuit(&self.protocol, &self.circuit)?;
        let n = circuit.inputs.len();
        let mut cfg = RunConfig::new(Arc::new(circuit))?;
        match (&self.alice_groups, &self.bob_groups) {
            (None, None) => {}
            (Some(a), None) => {
                cfg.alice_groups = a.clone();
                cfg.bob_groups = (0..n).filter(|g| !a.contains(g)).collect();
            }
            (None, Some(b)) => {
                cfg.bob_groups = b.clone();
                cfg.alice_groups = (0..n).filter(|g| !b.contains(g)).collect();
            }
            (Some(a), Some(b)) => {
                cfg.alice_groups = a.clone();
                cfg.bob_groups = b.clone();
            }
        }
        cfg.executions = self.executions;
        cfg.output = self.output.parse::<OutputMode>().map_err(CliError::Usage)?;
        cfg.validate()?;
        Ok(cfg)
    }
}

/// A description of a role's groups for error messages: `key(128), …`.
fn describe(cfg: &RunConfig, role: Role) -> String {
    let gs: Vec<String> = cfg
        .groups_of(role)
        .iter()
        .map(|&g| {
            format!(
                "#{g} {}({} bits)",
                cfg.circuit.inputs[g].name,
                cfg.circuit.inputs[g].width()
            )
        })
        .collect();
    if gs.is_empty() {
        "no input groups".into()
    } else {
        gs.join(", ")
    }
}

/// Parses a role's values for `executions` executions: either one value per
/// owned group (reused for every execution) or one per group per execution.
pub fn party_inputs(
    cfg: &RunConfig,
    role: Role,
    values: &[String],
) -> Result<Vec<PartyInputs>, CliError> {
    let groups = cfg.groups_of(role);
    let e = cfg.executions;
    let per_exec = if values.len() == groups.len() {
        false
    } else if values.len() == groups.len() * e {
        true
    } else {
        return Err(CliError::Usage(format!(
            "{} owns {} but {} value(s) were given (give one per group, or one per group per execution)",
            role.name(),
            describe(cfg, role),
            values.len()
        )));
    };
    (0..e)
        .map(|x| {
            groups
                .iter()
                .enumerate()
                .map(|(i, &g)| {
                    let v = if per_exec {
                        &values[x * groups.len() + i]
                    } else {
                        &values[i]
                    };
                    let w = cfg.circuit.inputs[g].width();
                    parse_value(v, w).map_err(|err| {
                        CliError::Usage(format!(
                            "{}'s value for input group {g} ({}, {w} bits): {err}",
                            role.name(),
                            cfg.circuit.inputs[g].name
                        ))
                    })
                })
                .collect()
        })
        .collect()
}

/// Formats one execution's outputs, one group per entry.
pub fn format_outputs(outs: &Outputs, fmt: Format) -> Vec<String> {
    let f: ValueFormat = fmt.into();
    outs.iter().map(|o| format_value(o, f)).collect()
}

/// Prints outputs, one group per line (a blank line between executions).
pub fn print_outputs(all: &[Outputs], fmt: Format) -> CliResult {
    for (i, o) in all.iter().enumerate() {
        if i > 0 {
            println!();
        }
        for line in format_outputs(o, fmt) {
            println!("{line}");
        }
    }
    Ok(())
}
