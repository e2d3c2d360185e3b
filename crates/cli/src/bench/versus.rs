//! `brickyard bench versus`: Brickyard's rows of issue #30's table (setup |
//! independent | dependent | online | total, ms and bytes per phase),
//! measured as a user meets them and as the peer was measured: each party
//! is a fresh `brickyard run` process, every protocol runs once per round
//! in a rotating order, and each figure is the median over rounds. A
//! peer's row from a file (`--peer`, e.g. emp-ag2pc measured by hand)
//! goes beside ours with ratios ours / peer. Schema: `docs/bench-json.md`;
//! column mapping per protocol: `docs/choosing.md`.

mod child;
mod peer;
mod render;

use crate::error::{CliError, CliResult};
use crate::twoparty::RunArgs;
use brickyard_circuit::{format_value, ValueFormat};
use brickyard_core::prg::Prg;
use brickyard_protocols::{Role, RunConfig};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) use peer::PeerRow;

/// The table's columns, in order: the four run phases, their sum, and the
/// first online execution.
pub(crate) const COLUMNS: [&str; 6] = [
    "setup",
    "independent",
    "dependent",
    "online",
    "total",
    "first",
];

/// Arguments of `brickyard bench versus`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "Each run starts two fresh processes of this binary, `brickyard run --role alice --listen 127.0.0.1:0`\n\
and `brickyard run --role bob --connect ADDR` with --json, as a user runs them; round r runs every\n\
protocol once, the order rotated by r, and every figure is the median over rounds. Bob's outputs are\n\
checked against the plaintext evaluation. Columns: ms (bytes, both directions) per execution;\n\
\"—\": the protocol exchanges nothing in that phase (docs/choosing.md says which run phase each\n\
column takes for each protocol).\n\n\
Examples:\n  \
brickyard bench versus\n  \
brickyard bench versus --protocols lego,tinytable --rounds 5 --markdown\n  \
brickyard bench versus --peer emp-ag2pc.json          # the peer's row beside ours, with ratios\n  \
brickyard bench versus --protocols lego --executions 32 --json\n  \
brickyard bench versus --protocols yao,lego --circuit builtin:add8 --rounds 1\n\n",
    crate::localnet::spin_help!()
))]
pub struct VersusArgs {
    /// Protocols, comma-separated; yao and compgc are allowed as
    /// semi-honest references (labelled so).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "P,..",
        default_value = "lego,jimu,lindell-riva,tinytable,tinytable-sbox"
    )]
    pub protocols: Vec<String>,
    /// A Bristol file or builtin:NAME (output to Bob; Alice owns group 0).
    #[arg(long, default_value = "builtin:aes128")]
    pub circuit: String,
    /// Alternating rounds; every figure is the median over them.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Executions per run; the columns are then per execution (phase ÷ E).
    #[arg(long, default_value_t = 1)]
    pub executions: usize,
    /// A peer's row (JSON: name and the columns in ms and bytes; format in
    /// docs/bench-json.md) to print beside ours with ratios ours / peer.
    #[arg(long, value_name = "FILE")]
    pub peer: Option<PathBuf>,
    /// Seconds a run (both processes) may take before both are killed;
    /// also each process's --timeout.
    #[arg(long, default_value_t = 600, value_name = "SECS")]
    pub child_timeout: u64,
    /// Print JSON (docs/bench-json.md).
    #[arg(long)]
    pub json: bool,
    /// Print a Markdown table for docs/choosing.md.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
}

/// One phase of one run, both parties merged.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Phase {
    /// The slower party's wall time.
    pub wall_ms: f64,
    /// Bytes Alice sent.
    pub a2b: u64,
    /// Bytes Bob sent.
    pub b2a: u64,
}

/// One run (two processes) of one protocol.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RoundFig {
    /// setup, independent, dependent, online (the last with every
    /// execution and the begin-online handshake).
    pub phases: [Phase; 4],
    /// The first execution (slower party).
    pub first_ms: f64,
    /// Median execution (per execution the slower party).
    pub latency_ms: f64,
}

/// A cell of the table: time and bytes (both directions) per execution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cell {
    pub ms: f64,
    /// `None` where not known (a peer's cell, the first execution).
    pub bytes: Option<f64>,
    /// Alice → Bob and Bob → Alice, for our phase cells.
    pub split: Option<(f64, f64)>,
}

/// One protocol's row: a cell per column, `None` for "—".
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub protocol: String,
    pub label: String,
    pub security: &'static str,
    pub cells: [Option<Cell>; 6],
    /// Median execution per run (median over rounds).
    pub latency_ms: f64,
    pub rounds: Vec<RoundFig>,
}

/// The protocol order of round `round` for `n` protocols: rotated by the
/// round, so each protocol takes each position equally often and slow
/// drift of the machine spreads over all of them.
pub(crate) fn order(n: usize, round: usize) -> Vec<usize> {
    (0..n).map(|j| (j + round) % n).collect()
}

fn median(v: impl IntoIterator<Item = f64>) -> f64 {
    super::median_ms(v.into_iter().collect())
}

/// The row's cells from its rounds: each figure the median over rounds,
/// divided by `executions`. A phase in which no round exchanged a byte
/// either way is absent ("—": the protocol does nothing there); the total
/// sums the present phases.
pub(crate) fn aggregate(rounds: &[RoundFig], executions: usize) -> [Option<Cell>; 6] {
    let e = executions.max(1) as f64;
    let mut cells = [None; 6];
    for (i, cell) in cells.iter_mut().take(4).enumerate() {
        let present = rounds.iter().any(|r| r.phases[i].a2b + r.phases[i].b2a > 0);
        if !present {
            continue;
        }
        let a2b = median(rounds.iter().map(|r| r.phases[i].a2b as f64)) / e;
        let b2a = median(rounds.iter().map(|r| r.phases[i].b2a as f64)) / e;
        *cell = Some(Cell {
            ms: median(rounds.iter().map(|r| r.phases[i].wall_ms)) / e,
            bytes: Some(a2b + b2a),
            split: Some((a2b, b2a)),
        });
    }
    let present: Vec<Cell> = cells[..4].iter().flatten().copied().collect();
    if !present.is_empty() {
        cells[4] = Some(Cell {
            ms: present.iter().map(|c| c.ms).sum(),
            bytes: Some(present.iter().filter_map(|c| c.bytes).sum()),
            split: None,
        });
    }
    if cells[3].is_some() {
        cells[5] = Some(Cell {
            ms: median(rounds.iter().map(|r| r.first_ms)),
            bytes: None,
            split: None,
        });
    }
    cells
}

/// Merges the two processes' `run --json` views of one run.
pub(crate) fn merge(alice: &child::PartyView, bob: &child::PartyView) -> RoundFig {
    let mut phases = [Phase::default(); 4];
    for (i, p) in phases.iter_mut().enumerate() {
        *p = Phase {
            wall_ms: alice.phases[i].0.max(bob.phases[i].0),
            a2b: alice.phases[i].1,
            b2a: bob.phases[i].1,
        };
    }
    let per_exec: Vec<f64> = alice
        .execution_ms
        .iter()
        .zip(&bob.execution_ms)
        .map(|(a, b)| a.max(*b))
        .collect();
    RoundFig {
        phases,
        first_ms: per_exec.first().copied().unwrap_or(0.0),
        latency_ms: median(per_exec),
    }
}

/// The label of a protocol's row: its variant for TinyTable, and
/// "semi-honest reference" for yao and compgc.
fn label(protocol: &str, security: &str) -> String {
    let mut l = protocol.to_string();
    if let Ok(o) = brickyard_protocols::tinytable::Options::for_protocol(protocol) {
        l += &format!(" ({}, {})", o.variant.name(), o.mac.name());
    }
    if security.starts_with("semi-honest") {
        l += " (semi-honest reference)";
    }
    l
}

/// Random values for `role`'s groups, one per group per execution, in
/// the `b…` bit format (exact for any width), and the bits.
fn random_values(cfg: &RunConfig, role: Role, prg: &mut Prg) -> (String, Vec<Vec<Vec<bool>>>) {
    let mut text = String::new();
    let mut bits = Vec::new();
    for _ in 0..cfg.executions {
        let mut exec = Vec::new();
        for &g in cfg.groups_of(role) {
            let v = prg.random_bits(cfg.circuit.inputs[g].width());
            text += &format_value(&v, ValueFormat::Bits);
            text.push('\n');
            exec.push(v);
        }
        bits.push(exec);
    }
    (text, bits)
}

/// Checks Bob's outputs of every execution against the circuit.
fn check_outputs(
    protocol: &str,
    cfg: &RunConfig,
    a: &[Vec<Vec<bool>>],
    b: &[Vec<Vec<bool>>],
    got: &[Vec<Vec<bool>>],
) -> CliResult {
    let wrong = |what: String| CliError::Child {
        kind: "internal",
        code: crate::error::exit::INTERNAL,
        message: format!("{protocol}: {what}"),
    };
    if got.len() != cfg.executions {
        return Err(wrong(format!(
            "Bob printed {} execution(s) of outputs, expected {}",
            got.len(),
            cfg.executions
        )));
    }
    for (x, out) in got.iter().enumerate() {
        let mut all = vec![Vec::new(); cfg.circuit.inputs.len()];
        for (&g, v) in cfg.alice_groups.iter().zip(&a[x]) {
            all[g] = v.clone();
        }
        for (&g, v) in cfg.bob_groups.iter().zip(&b[x]) {
            all[g] = v.clone();
        }
        let want = cfg
            .circuit
            .eval(&all)
            .map_err(brickyard_circuit::Error::from)?;
        if *out != want {
            return Err(wrong(format!(
                "Bob's output of execution {x} differs from the plaintext evaluation of the circuit"
            )));
        }
    }
    Ok(())
}

/// The run configuration `brickyard run` derives for `protocol` (the same
/// defaults the children use).
fn config(protocol: &str, circuit: &str, executions: usize) -> Result<RunConfig, CliError> {
    RunArgs {
        protocol: protocol.to_string(),
        circuit: circuit.to_string(),
        alice_groups: None,
        bob_groups: None,
        output: "bob".into(),
        executions,
        tt: Default::default(),
        cg: Default::default(),
    }
    .config()
}

fn load_average() -> Option<[f64; 3]> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = s.split_whitespace().map(|x| x.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Runs the comparison.
pub fn run(args: VersusArgs) -> CliResult {
    if args.rounds == 0 || args.executions == 0 || args.child_timeout == 0 {
        return Err(CliError::Usage(
            "--rounds, --executions and --child-timeout must be at least 1".into(),
        ));
    }
    if args.protocols.is_empty() {
        return Err(CliError::Usage("--protocols names no protocol".into()));
    }
    // Everything local is checked before the first process starts.
    let peer = args.peer.as_deref().map(peer::load).transpose()?;
    let mut cfgs = Vec::new();
    for p in &args.protocols {
        if args.protocols.iter().filter(|q| *q == p).count() > 1 {
            return Err(CliError::Usage(format!("--protocols names `{p}` twice")));
        }
        cfgs.push(config(p, &args.circuit, args.executions)?);
    }
    let exe = std::env::current_exe().map_err(|source| CliError::Io {
        path: "the running brickyard binary".into(),
        source,
    })?;
    let spec = child::Spec {
        exe: &exe,
        circuit: &args.circuit,
        executions: args.executions,
        timeout: Duration::from_secs(args.child_timeout),
    };
    let n = args.protocols.len();
    let mut rounds: Vec<Vec<RoundFig>> = vec![Vec::new(); n];
    let mut orders = Vec::new();
    let load_start = load_average();
    let mut progress = render::Progress::new(n * args.rounds);
    let mut prg = Prg::new();
    for r in 0..args.rounds {
        let ord = order(n, r);
        for &i in &ord {
            let p = &args.protocols[i];
            progress.start(r, args.rounds, p);
            let cfg = &cfgs[i];
            let (a_text, a_bits) = random_values(cfg, Role::Alice, &mut prg);
            let (b_text, b_bits) = random_values(cfg, Role::Bob, &mut prg);
            let (alice, bob) = child::run_pair(&spec, p, &a_text, &b_text)?;
            let outs = bob.outputs_bits(cfg)?;
            check_outputs(p, cfg, &a_bits, &b_bits, &outs)?;
            let fig = merge(&alice, &bob);
            progress.done(&fig);
            rounds[i].push(fig);
        }
        orders.push(ord.iter().map(|&i| args.protocols[i].clone()).collect());
    }
    progress.finish();
    let load_end = load_average();
    let rows: Vec<Row> = args
        .protocols
        .iter()
        .zip(rounds)
        .map(|(p, rs)| {
            let security = brickyard_protocols::registry::info(p)
                .map(|i| i.security)
                .unwrap_or("");
            Row {
                protocol: p.clone(),
                label: label(p, security),
                security,
                cells: aggregate(&rs, args.executions),
                latency_ms: median(rs.iter().map(|r| r.latency_ms)),
                rounds: rs,
            }
        })
        .collect();
    let and_gates = cfgs[0].circuit.and_count();
    let report = render::Report {
        circuit: &args.circuit,
        and_gates,
        executions: args.executions,
        rounds: args.rounds,
        rows: &rows,
        peer: peer.as_ref(),
        orders: &orders,
        load: [load_start, load_end],
    };
    if args.json {
        println!("{}", report.json());
    } else if args.markdown {
        print!("{}", report.markdown());
    } else {
        print!("{}", report.text());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(walls: [f64; 4], bytes: [u64; 4], first: f64) -> RoundFig {
        let mut phases = [Phase::default(); 4];
        for i in 0..4 {
            phases[i] = Phase {
                wall_ms: walls[i],
                a2b: bytes[i],
                b2a: bytes[i] / 2,
            };
        }
        RoundFig {
            phases,
            first_ms: first,
            latency_ms: first,
        }
    }

    #[test]
    fn rotation_puts_each_protocol_in_each_position_once() {
        let n = 5;
        let orders: Vec<Vec<usize>> = (0..n).map(|r| order(n, r)).collect();
        assert_eq!(orders[0], vec![0, 1, 2, 3, 4]);
        assert_eq!(orders[1], vec![1, 2, 3, 4, 0]);
        assert_eq!(orders[4], vec![4, 0, 1, 2, 3]);
        for pos in 0..n {
            let mut seen: Vec<usize> = orders.iter().map(|o| o[pos]).collect();
            seen.sort();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "position {pos}");
        }
        // Every round runs every protocol exactly once.
        for o in &orders {
            let mut s = o.clone();
            s.sort();
            assert_eq!(s, (0..n).collect::<Vec<_>>());
        }
        assert_eq!(order(1, 7), vec![0]);
    }

    #[test]
    fn cells_are_medians_over_rounds_per_execution() {
        // Odd count: the middle value, not the mean (an outlier in one
        // round does not move it).
        let rounds = vec![
            fig([10.0, 50.0, 0.0, 3.0], [100, 1000, 0, 20], 4.0),
            fig([90.0, 70.0, 0.0, 1.0], [100, 1000, 0, 20], 2.0),
            fig([20.0, 60.0, 0.0, 2.0], [100, 1000, 0, 20], 3.0),
        ];
        let c = aggregate(&rounds, 1);
        assert_eq!(c[0].unwrap().ms, 20.0);
        assert_eq!(c[1].unwrap().ms, 60.0);
        assert!(c[2].is_none(), "no bytes in any round: absent");
        assert_eq!(c[3].unwrap().ms, 2.0);
        assert_eq!(c[3].unwrap().bytes, Some(30.0));
        assert_eq!(c[3].unwrap().split, Some((20.0, 10.0)));
        let total = c[4].unwrap();
        assert_eq!(total.ms, 20.0 + 60.0 + 2.0);
        assert_eq!(total.bytes, Some(150.0 + 1500.0 + 30.0));
        assert_eq!(c[5].unwrap().ms, 3.0);
        // Even count: the mean of the two middle values; per execution.
        let c = aggregate(&rounds[..2], 2);
        assert_eq!(c[0].unwrap().ms, 25.0);
        assert_eq!(c[1].unwrap().bytes, Some(750.0));
        // The first execution is not divided: it is one execution.
        assert_eq!(c[5].unwrap().ms, 3.0);
    }

    #[test]
    fn a_phase_with_traffic_in_any_round_is_present() {
        let rounds = vec![
            fig([1.0, 1.0, 1.0, 1.0], [0, 8, 0, 8], 1.0),
            fig([1.0, 1.0, 1.0, 1.0], [2, 8, 0, 8], 1.0),
        ];
        let c = aggregate(&rounds, 1);
        assert!(c[0].is_some());
        assert!(c[2].is_none());
        assert_eq!(c[4].unwrap().ms, 3.0);
    }

    #[test]
    fn merge_takes_the_slower_party_and_each_direction() {
        let a = child::PartyView {
            phases: [(1.0, 10, 20), (5.0, 30, 40), (0.0, 0, 0), (2.0, 7, 9)],
            execution_ms: vec![1.0, 4.0, 2.0],
            outputs: Vec::new(),
        };
        let b = child::PartyView {
            phases: [(2.0, 20, 10), (4.0, 40, 30), (0.0, 0, 0), (1.0, 9, 7)],
            execution_ms: vec![3.0, 1.0, 1.0],
            outputs: Vec::new(),
        };
        let m = merge(&a, &b);
        assert_eq!(m.phases[0].wall_ms, 2.0);
        assert_eq!(m.phases[1].wall_ms, 5.0);
        assert_eq!((m.phases[1].a2b, m.phases[1].b2a), (30, 40));
        assert_eq!(m.first_ms, 3.0);
        // per execution max: 3, 4, 2 → median 3
        assert_eq!(m.latency_ms, 3.0);
    }
}
