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
    /// Who learns the output: bob, both, or alice (yao and compgc only).
    #[arg(long, default_value = "bob", value_parser = ["bob", "both", "alice"])]
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

/// Prints outputs: for one execution one group per line; for several,
/// one line per execution labelled `#i` (from 0) with its groups after it,
/// so a script can tell executions apart.
pub fn print_outputs(all: &[Outputs], fmt: Format) -> CliResult {
    print!("{}", render_outputs(all, fmt));
    Ok(())
}

/// The text [`print_outputs`] prints.
pub fn render_outputs(all: &[Outputs], fmt: Format) -> String {
    let mut s = String::new();
    if all.len() == 1 {
        for line in format_outputs(&all[0], fmt) {
            s += &line;
            s.push('\n');
        }
        return s;
    }
    for (i, o) in all.iter().enumerate() {
        s += &format!("#{i} {}\n", format_outputs(o, fmt).join(" "));
    }
    s
}

/// A party's input values from the command line, a file or stdin: values
/// given with `--input V` (or `--alice`/`--bob`), where a single `-` means
/// "read them from stdin", or from `--input-file PATH`. Files and stdin hold
/// values separated by whitespace or newlines; `#` starts a comment. Values
/// on the command line show in `ps` and shell history; files and stdin do
/// not.
pub fn input_values(
    inline: &[String],
    file: Option<&std::path::Path>,
    stdin: &mut Option<String>,
) -> Result<Vec<String>, CliError> {
    let from_text = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .flat_map(|l| l.split_whitespace().map(str::to_string))
            .collect()
    };
    if let Some(path) = file {
        if !inline.is_empty() {
            return Err(CliError::Usage(
                "give values either inline or in a file, not both".into(),
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
            path: path.display().to_string(),
            source,
        })?;
        return Ok(from_text(&text));
    }
    if inline.iter().any(|v| v == "-") {
        if inline.len() != 1 {
            return Err(CliError::Usage(
                "`-` (read values from stdin) must be the only value given".into(),
            ));
        }
        let Some(text) = stdin.take() else {
            return Err(CliError::Usage("stdin can be read only once".into()));
        };
        return Ok(from_text(&text));
    }
    Ok(inline.to_vec())
}

/// Reads all of stdin for [`input_values`] if any of `lists` asks for it
/// with `-`.
pub fn stdin_if_asked(lists: &[&[String]]) -> Result<Option<String>, CliError> {
    if lists.iter().any(|l| l.iter().any(|v| v == "-")) {
        read_stdin().map(Some)
    } else {
        Ok(None)
    }
}

fn read_stdin() -> Result<String, CliError> {
    use std::io::Read;
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|source| CliError::Io {
            path: "stdin".into(),
            source,
        })?;
    Ok(s)
}
