//! `brickyard bench report --out DIR`: the standard set of protocol
//! benchmarks as a Markdown page with SVG plots.
//!
//! Every number comes from [`super::protocol::measure`], the code behind
//! `brickyard bench --protocol …`, so a cell of the report and the bench
//! command with the same settings measure the same thing. The set is a
//! list of cells (protocol, circuit, link, executions, runs); the three
//! experiments share cells where they coincide (the RTT sweep's 0 ms
//! point is the loopback cell of the phase plot, the executions sweep's
//! E = 1 point too).

mod machine;
mod render;
pub mod svg;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use brickyard_core::Error;
use brickyard_protocols::registry::PROTOCOLS;
use brickyard_protocols::report::Report;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::error::{CliError, CliResult};
use crate::twoparty::RunArgs;

pub use machine::Header;

/// Arguments of `brickyard bench report`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "Writes DIR/report.md and SVG plots: per-phase stacked bars per protocol (each circuit,\n\
loopback and the WAN profile), online latency vs RTT, and time per execution vs the number\n\
of executions (both on the first circuit, loopback). Protocols that do not run a circuit\n\
(e.g. tinytable-sbox on SHA-256) are shown as n/a with the reason.\n\n\
Examples:\n  \
brickyard bench report --out docs/report\n  \
brickyard bench report --out /tmp/r --quick --protocols yao,lego --json\n\n",
    crate::localnet::spin_help!()
))]
pub struct ReportArgs {
    /// Directory for report.md and the plots (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Small settings (for CI and tests): 1 run per cell, RTTs 0 and 2 ms,
    /// executions 1 and 4. Explicit flags below still win.
    #[arg(long)]
    pub quick: bool,
    /// Timed runs per loopback cell; each number is the median [default: 3].
    #[arg(long)]
    pub runs: Option<usize>,
    /// Timed runs per shaped-link cell (the WAN and the RTT sweep), whose
    /// time is mostly simulated latency [default: 1].
    #[arg(long)]
    pub wan_runs: Option<usize>,
    /// Protocols, comma-separated [default: every protocol in the registry].
    #[arg(long, value_delimiter = ',', value_name = "P,..")]
    pub protocols: Option<Vec<String>>,
    /// Circuits (builtin:NAME or Bristol files), comma-separated; the RTT
    /// and executions sweeps use the first [default:
    /// builtin:aes128,builtin:sha256].
    #[arg(long, value_delimiter = ',', value_name = "C,..")]
    pub circuits: Option<Vec<String>>,
    /// The WAN link of the phase plots (`--net` syntax: wan, lan, compgc,
    /// RTT_MS,MBIT).
    #[arg(long, default_value = "wan")]
    pub wan: String,
    /// Round-trip times (ms) of the latency sweep, unlimited bandwidth; 0
    /// is plain loopback [default: 0,2,10,40,81; --quick: 0,2].
    #[arg(long, value_delimiter = ',', value_name = "MS,..")]
    pub rtts: Option<Vec<f64>>,
    /// Execution counts of the amortisation sweep [default: 1,4,16,64;
    /// --quick: 1,4].
    #[arg(long, value_delimiter = ',', value_name = "E,..")]
    pub executions: Option<Vec<usize>>,
    /// Also write DIR/report.json (the raw numbers, docs/bench-json.md)
    /// and print it on stdout.
    #[arg(long)]
    pub json: bool,
    /// TEST ONLY (hidden; exists only in `--features adversary` builds):
    /// jimu's Setup skips the Step 5b proof, so that CLI tests of other
    /// behaviour fit CI's budget. Both parties must pass it. Without Step
    /// 5b jimu is NOT secure against a malicious Alice; default builds
    /// have no such flag.
    #[cfg(feature = "adversary")]
    #[arg(long, hide = true)]
    pub test_skip_step_5b: bool,
}

/// The settings a report ran with (defaults resolved).
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// Protocols, in registry order.
    pub protocols: Vec<String>,
    /// Circuits; the sweeps use the first.
    pub circuits: Vec<String>,
    /// The WAN link (`--net` syntax).
    pub wan: String,
    /// RTTs (ms) of the latency sweep.
    pub rtts_ms: Vec<f64>,
    /// Execution counts of the amortisation sweep.
    pub executions: Vec<usize>,
    /// Runs per loopback cell.
    pub runs: usize,
    /// Runs per shaped cell.
    pub wan_runs: usize,
    /// `--quick` was given.
    pub quick: bool,
}

impl Settings {
    fn from_args(a: &ReportArgs) -> Result<Settings, CliError> {
        let protocols = match &a.protocols {
            None => PROTOCOLS.iter().map(|p| p.name.to_string()).collect(),
            Some(list) => {
                for p in list {
                    brickyard_protocols::registry::info(p)?;
                }
                // Registry order, so colours and rows are the same in every report.
                PROTOCOLS
                    .iter()
                    .map(|p| p.name.to_string())
                    .filter(|n| list.contains(n))
                    .collect()
            }
        };
        let circuits = a
            .circuits
            .clone()
            .unwrap_or_else(|| vec!["builtin:aes128".into(), "builtin:sha256".into()]);
        let rtts_ms = a.rtts.clone().unwrap_or_else(|| {
            if a.quick {
                vec![0.0, 2.0]
            } else {
                vec![0.0, 2.0, 10.0, 40.0, 81.0]
            }
        });
        let executions = a.executions.clone().unwrap_or_else(|| {
            if a.quick {
                vec![1, 4]
            } else {
                vec![1, 4, 16, 64]
            }
        });
        let s = Settings {
            protocols,
            circuits,
            wan: a.wan.clone(),
            rtts_ms,
            executions,
            runs: a.runs.unwrap_or(if a.quick { 1 } else { 3 }),
            wan_runs: a.wan_runs.unwrap_or(1),
            quick: a.quick,
        };
        if s.protocols.is_empty() || s.circuits.is_empty() {
            return Err(CliError::Usage(
                "bench report needs at least one protocol and one circuit".into(),
            ));
        }
        if s.runs == 0 || s.wan_runs == 0 || s.executions.contains(&0) {
            return Err(CliError::Usage(
                "--runs, --wan-runs and --executions must be at least 1".into(),
            ));
        }
        if s.rtts_ms.iter().any(|r| !(0.0..=10_000.0).contains(r)) {
            return Err(CliError::Usage(
                "--rtts: each RTT must be between 0 and 10000 ms".into(),
            ));
        }
        if crate::localnet::profile(&s.wan)?.is_none() {
            return Err(CliError::Usage(format!(
                "--wan {}: a shaped link is needed (e.g. wan or 81,214)",
                s.wan
            )));
        }
        Ok(s)
    }

    /// The `--net` spec of an RTT sweep point (`none` for 0).
    fn rtt_net(rtt: f64) -> String {
        if rtt == 0.0 {
            "none".into()
        } else {
            svg::label(rtt)
        }
    }
}

/// One measurement: a protocol on a circuit over a link, E executions,
/// the median of some runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Protocol name.
    pub protocol: String,
    /// Circuit (as given to `--circuit`).
    pub circuit: String,
    /// The link, `--net` syntax (`none` = plain loopback).
    pub net: String,
    /// Online executions.
    pub executions: usize,
    /// Timed runs (median).
    pub runs: usize,
}

impl Cell {
    /// The `brickyard bench` command that measures this cell alone.
    pub fn command(&self) -> String {
        format!(
            "brickyard bench --protocol {} --circuit {} --net {} --executions {} --runs {}",
            self.protocol,
            machine::shell_quote(&self.circuit),
            self.net,
            self.executions,
            self.runs
        )
    }
}

/// What came of a cell.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The cell.
    #[serde(flatten)]
    pub cell: Cell,
    /// The median report (None when skipped or failed).
    pub report: Option<Report>,
    /// Why the cell does not apply (a configuration the protocol refuses,
    /// e.g. a circuit it does not compute, or a run that does not fit in
    /// memory).
    pub skipped: Option<String>,
    /// The error of a cell that should have run but failed.
    pub failed: Option<String>,
    /// Wall time the cell took, seconds (all runs, untimed parts included).
    pub seconds: f64,
}

/// The whole report: header, settings, every cell.
#[derive(Clone, Debug, Serialize)]
pub struct ReportData {
    /// Commit, date, machine, load, command.
    pub header: Header,
    /// Settings with defaults resolved.
    pub settings: Settings,
    /// Every measured cell, in the order run.
    pub cells: Vec<Outcome>,
}

impl ReportData {
    /// The outcome of the cell with these coordinates.
    pub fn find(&self, protocol: &str, circuit: &str, net: &str, e: usize) -> Option<&Outcome> {
        self.cells.iter().find(|o| {
            o.cell.protocol == protocol
                && o.cell.circuit == circuit
                && o.cell.net == net
                && o.cell.executions == e
        })
    }
}

/// The cells of the standard set, without duplicates: the phase plots
/// (each circuit × {loopback, WAN} × protocol, one execution), the RTT
/// sweep and the executions sweep (first circuit).
pub fn plan(s: &Settings) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut add = |protocol: &str, circuit: &str, net: String, executions: usize| {
        let runs = if net == "none" { s.runs } else { s.wan_runs };
        let c = Cell {
            protocol: protocol.to_string(),
            circuit: circuit.to_string(),
            net,
            executions,
            runs,
        };
        if !cells.contains(&c) {
            cells.push(c);
        }
    };
    for c in &s.circuits {
        for net in ["none", s.wan.as_str()] {
            for p in &s.protocols {
                add(p, c, net.to_string(), 1);
            }
        }
    }
    let first = &s.circuits[0];
    for p in &s.protocols {
        for &r in &s.rtts_ms {
            add(p, first, Settings::rtt_net(r), 1);
        }
    }
    for p in &s.protocols {
        for &e in &s.executions {
            add(p, first, "none".into(), e);
        }
    }
    cells
}

/// Runs one cell. A configuration the protocol refuses is a skip; any
/// other error (a wrong output, a failed check, the network) is a failure.
fn run_cell(
    cell: &Cell,
    bar: &ProgressBar,
    prefix: &str,
    tt: &crate::tinytable::TinyTableArgs,
) -> (Outcome, Option<CliError>) {
    let started = Instant::now();
    let args = RunArgs {
        protocol: cell.protocol.clone(),
        circuit: cell.circuit.clone(),
        alice_groups: None,
        bob_groups: None,
        output: "bob".into(),
        executions: cell.executions,
        tt: tt.clone(),
        cg: Default::default(),
    };
    let before = bar.position();
    let result = args.config().and_then(|cfg| {
        crate::limits::check_memory_for(&cell.protocol, &cfg, false, 2)?;
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let progress = cfg.progress.clone();
            let stop = &stop;
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let (d, t) = progress.get();
                    let stage = progress.stage();
                    bar.set_message(if t == 0 || stage.is_empty() {
                        prefix.to_string()
                    } else {
                        format!("{prefix} — {stage} {d}/{t}")
                    });
                    std::thread::sleep(Duration::from_millis(200));
                }
            });
            let r = super::protocol::measure(&args, &cfg, &cell.net, cell.runs, || bar.inc(1));
            stop.store(true, Ordering::Relaxed);
            r
        })
    });
    // Skipped and failed cells still count their runs as done.
    bar.set_position(before + cell.runs as u64);
    let (report, skipped, failed, err) = match result {
        Ok(r) => (Some(r), None, None, None),
        Err(CliError::Protocol(Error::Config(m))) => (None, Some(m), None, None),
        Err(e) => (None, None, Some(e.to_string()), Some(e)),
    };
    let o = Outcome {
        cell: cell.clone(),
        report,
        skipped,
        failed,
        seconds: started.elapsed().as_secs_f64(),
    };
    (o, err)
}

/// Runs the report.
pub fn run(args: ReportArgs) -> CliResult {
    let started = Instant::now();
    let settings = Settings::from_args(&args)?;
    let mut header = Header::start();
    std::fs::create_dir_all(&args.out).map_err(|source| CliError::Io {
        path: args.out.display().to_string(),
        source,
    })?;
    let cells = plan(&settings);
    let total_runs: u64 = cells.iter().map(|c| c.runs as u64).sum();
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        ProgressBar::with_draw_target(Some(total_runs), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {pos}/{len} runs  {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    #[allow(unused_mut)]
    let mut tt = crate::tinytable::TinyTableArgs::default();
    #[cfg(feature = "adversary")]
    {
        tt.test_skip_step_5b = args.test_skip_step_5b;
    }
    let mut outcomes = Vec::with_capacity(cells.len());
    let mut first_error = None;
    for (i, cell) in cells.iter().enumerate() {
        let prefix = format!(
            "[{}/{}] {} {} {} ×{}",
            i + 1,
            cells.len(),
            cell.protocol,
            cell.circuit,
            render::net_short(&cell.net),
            cell.executions
        );
        bar.set_message(prefix.clone());
        let (o, err) = run_cell(cell, &bar, &prefix, &tt);
        if first_error.is_none() {
            first_error = err;
        }
        let line = format!(
            "{prefix}: {} ({:.1} s)",
            match (&o.report, &o.skipped, &o.failed) {
                (Some(r), _, _) => format!(
                    "online {}",
                    brickyard_protocols::report::human_ms(r.online.latency_ms)
                ),
                (_, Some(s), _) => format!("skipped: {s}"),
                (_, _, Some(f)) => format!("FAILED: {f}"),
                _ => String::new(),
            },
            o.seconds
        );
        if terminal {
            bar.println(line);
        } else {
            eprintln!("{line}");
        }
        outcomes.push(o);
    }
    bar.finish_and_clear();
    header.finish(started);
    let data = ReportData {
        header,
        settings,
        cells: outcomes,
    };
    let files = render::write_all(&data, &args.out)?;
    if args.json {
        let text = serde_json::to_string_pretty(&data)
            .map_err(|e| CliError::Usage(format!("report JSON: {e}")))?;
        let path = args.out.join("report.json");
        std::fs::write(&path, format!("{text}\n")).map_err(|source| CliError::Io {
            path: path.display().to_string(),
            source,
        })?;
        println!("{text}");
    } else {
        for f in &files {
            println!("{}", f.display());
        }
        println!(
            "{} cells in {:.0} s",
            data.cells.len(),
            data.header.duration_s
        );
    }
    // A failed cell fails the command (after the page is written, so the
    // failure is on it too), with that failure's own exit code.
    match first_error {
        None => Ok(()),
        Some(e) => {
            let n = data.cells.iter().filter(|o| o.failed.is_some()).count();
            eprintln!("{n} cell(s) failed (listed in report.md); the first:");
            Err(e)
        }
    }
}
