//! `brickyard bench lr-tables`: the shape of Lindell–Riva's Tables 2–7
//! (CCS'15, Sec. 6) for ADD-32, AES-128 and SHA-256 at N = 32, 128, 1024:
//! offline time per execution, online latency and throughput, bytes per
//! phase, for `lindell-riva` beside `lego` and `yao` measured in the same
//! run on the same machine, on loopback and shaped links, beside the
//! paper's figures ([`paper`]). Every number comes from
//! [`super::protocol::measure`] (outputs checked against the plaintext
//! evaluation), so a row equals `brickyard bench --protocol P …` with the
//! same settings. Rows that would not fit in memory are skipped with the
//! estimate that says so.

mod memory;
pub mod paper;
mod plot;

use crate::error::{CliError, CliResult};
use crate::twoparty::RunArgs;
use brickyard_protocols::report::{PhaseStats, Report, StepStats};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// The circuits of the tables (`--circuits` names).
pub const CIRCUITS: &[(&str, &str, &str)] = &[
    ("add32", "builtin:add32", "ADD-32"),
    ("aes128", "builtin:aes128", "AES-128"),
    ("sha256", "builtin:sha256", "SHA-256"),
];

/// The protocols measured (`--protocols`), in this order.
pub const PROTOCOLS: &[&str] = &["lindell-riva", "lego", "yao"];

/// Arguments of `brickyard bench lr-tables`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "Rows are circuit x N x link; each row measures every protocol of --protocols with the\n\
same random inputs count and checks every output. A row that does not fit in the memory\n\
available (MemAvailable) is printed as skipped with the estimate. The full table is long\n\
(hours on 2 cores: SHA-256 at N = 1024 and the WAN rows dominate); select rows with the\n\
options.\n\n\
Examples:\n  \
brickyard bench lr-tables --circuits aes128 --executions 128 --net none\n  \
brickyard bench lr-tables --circuits aes128 --executions 32,128 --net none --net 75,58 --svg out/ --json\n  \
brickyard bench lr-tables --circuits add32 --executions 2 --protocols lindell-riva,yao --json\n\n",
    crate::localnet::spin_help!()
))]
pub struct LrTablesArgs {
    /// Circuits: add32, aes128, sha256 (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "add32,aes128,sha256")]
    pub circuits: Vec<String>,
    /// Numbers of executions N (comma-separated; the paper's are 32, 128,
    /// 1024; other values run without paper figures).
    #[arg(long, value_delimiter = ',', default_value = "32,128,1024")]
    pub executions: Vec<usize>,
    /// Links, `--net` syntax, repeat the option for several: none (plain
    /// loopback), lan, wan, or RTT_MS,MBIT. Default: loopback and the
    /// paper's WAN, 75 ms RTT at an assumed 58 Mbit/s (the paper does not
    /// state its bandwidth; 58 Mbit/s is its 260 MB offline in 36 s).
    #[arg(long = "net", default_values_t = ["none".to_string(), "75,58".to_string()])]
    pub nets: Vec<String>,
    /// Protocols (comma-separated, from lindell-riva, lego, yao).
    #[arg(long, value_delimiter = ',', default_value = "lindell-riva,lego,yao")]
    pub protocols: Vec<String>,
    /// Timed runs per cell (median).
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Write one SVG per circuit and link (ms per execution against N)
    /// into DIR.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One protocol's numbers in a row.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// Protocol name.
    pub protocol: String,
    /// Why it was not run (memory) or could not run (the protocol refused
    /// the configuration); the fields below are then absent.
    pub skipped: Option<String>,
    /// Estimated peak memory of the row, both parties (bytes), when known.
    pub memory_estimate: Option<u64>,
    /// Offline phases (setup + independent + dependent), total ms.
    pub offline_ms: Option<f64>,
    /// `offline_ms / N`.
    pub offline_ms_per_execution: Option<f64>,
    /// Median online time of one execution.
    pub online_latency_ms: Option<f64>,
    /// Online time per execution over the run (the report's throughput).
    pub online_throughput_ms: Option<f64>,
    /// Offline bytes, both directions, all three offline phases.
    pub offline_bytes: Option<u64>,
    /// lindell-riva only: the bytes Alice sends offline as modelled from
    /// the protocol's structure and the lemmas' `M`, `M'` (the memory
    /// estimate's basis), to compare with the measured count.
    pub offline_bytes_model: Option<u64>,
    /// Online bytes, both directions, per execution.
    pub online_bytes_per_execution: Option<f64>,
    /// The per-phase channel counters behind the sums above.
    pub phases: Vec<PhaseStats>,
    /// Where one online execution's time goes, each party's steps
    /// (medians over the latency runs; wall includes waits for the peer).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub online_steps: Vec<StepStats>,
    /// The protocol's notes (parameters, how throughput was measured).
    pub notes: Vec<String>,
}

/// A row: one circuit, one N, one link.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `add32`, `aes128` or `sha256`.
    pub circuit: String,
    /// Its AND gates (ours; the paper's ADD has 127).
    pub and_gates: u64,
    /// N.
    pub executions: usize,
    /// The link (`--net` syntax; `none` = loopback).
    pub net: String,
    /// `/proc/loadavg` (1, 5, 15 min) when the row started.
    pub load: [f64; 3],
    /// The paper's figures for this row (LAN rows for links under 1 ms
    /// RTT, else WAN), when the paper has them.
    pub paper: Option<paper::PaperRow>,
    /// Each protocol, in `--protocols` order.
    pub protocols: Vec<Measured>,
}

/// The whole output.
#[derive(Clone, Debug, Serialize)]
pub struct Tables {
    /// Commit, machine, load, command.
    pub header: super::report::Header,
    /// Timed runs per cell.
    pub runs: usize,
    /// Every row in the order run.
    pub rows: Vec<Row>,
    /// SVG files written.
    pub svg_files: Vec<String>,
}

pub(crate) fn load_avg() -> [f64; 3] {
    let t = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut v = [0.0; 3];
    for (o, w) in v.iter_mut().zip(t.split_whitespace()) {
        *o = w.parse().unwrap_or(0.0);
    }
    v
}

/// Whether `net` is compared with the paper's LAN (< 1 ms RTT) figures.
fn is_lan(net: &str) -> Result<bool, CliError> {
    Ok(match crate::localnet::profile(net)? {
        None => true,
        Some(p) => p.latency.as_secs_f64() * 2000.0 < 1.0,
    })
}

fn check_args(a: &LrTablesArgs) -> Result<(), CliError> {
    for c in &a.circuits {
        if !CIRCUITS.iter().any(|x| x.0 == c) {
            return Err(CliError::Usage(format!(
                "--circuits: unknown `{c}` (add32, aes128, sha256)"
            )));
        }
    }
    for p in &a.protocols {
        if !PROTOCOLS.contains(&p.as_str()) {
            return Err(CliError::Usage(format!(
                "--protocols: unknown `{p}` (lindell-riva, lego, yao)"
            )));
        }
    }
    if a.executions.contains(&0) || a.runs == 0 {
        return Err(CliError::Usage(
            "--executions and --runs must be at least 1".into(),
        ));
    }
    if a.circuits.is_empty() || a.executions.is_empty() || a.nets.is_empty() {
        return Err(CliError::Usage(
            "lr-tables needs a circuit, an N and a link".into(),
        ));
    }
    for n in &a.nets {
        crate::localnet::profile(n)?;
    }
    Ok(())
}

fn sum_bytes(p: &PhaseStats) -> u64 {
    p.bytes_alice_to_bob + p.bytes_bob_to_alice
}

/// The row's numbers from a median report.
pub(crate) fn from_report(
    protocol: &str,
    r: &Report,
    memory_estimate: Option<u64>,
    offline_bytes_model: Option<u64>,
) -> Measured {
    let n = r.executions.max(1) as f64;
    let offline: Vec<&PhaseStats> = r.phases.iter().filter(|p| p.name != "online").collect();
    let online = r.phases.iter().find(|p| p.name == "online");
    let offline_ms: f64 = offline.iter().map(|p| p.wall_ms).sum();
    Measured {
        protocol: protocol.to_string(),
        skipped: None,
        memory_estimate,
        offline_ms: Some(offline_ms),
        offline_ms_per_execution: Some(offline_ms / n),
        online_latency_ms: Some(r.online.latency_ms),
        online_throughput_ms: Some(r.online.throughput_ms),
        offline_bytes: Some(offline.iter().map(|p| sum_bytes(p)).sum()),
        offline_bytes_model,
        online_bytes_per_execution: online.map(|p| sum_bytes(p) as f64 / n),
        phases: r.phases.clone(),
        online_steps: r
            .steps
            .iter()
            .filter(|s| s.phase == "online")
            .cloned()
            .collect(),
        notes: r.notes.clone(),
    }
}

fn skipped(protocol: &str, why: String, memory_estimate: Option<u64>) -> Measured {
    Measured {
        protocol: protocol.to_string(),
        skipped: Some(why),
        memory_estimate,
        offline_ms: None,
        offline_ms_per_execution: None,
        online_latency_ms: None,
        online_throughput_ms: None,
        offline_bytes: None,
        offline_bytes_model: None,
        online_bytes_per_execution: None,
        phases: Vec::new(),
        online_steps: Vec::new(),
        notes: Vec::new(),
    }
}

/// Measures one protocol on one row, or says why not.
fn measure_one(
    protocol: &str,
    spec: &str,
    n: usize,
    net: &str,
    runs: usize,
) -> Result<Measured, CliError> {
    let args = RunArgs {
        protocol: protocol.to_string(),
        circuit: spec.to_string(),
        alice_groups: None,
        bob_groups: None,
        output: "bob".into(),
        executions: n,
        tt: Default::default(),
        cg: Default::default(),
    };
    let cfg = args.config()?;
    let need = memory::estimate(protocol, &cfg)?;
    if let (Some(need), Some(avail)) = (need, memory::available()) {
        if need > avail {
            return Ok(skipped(
                protocol,
                format!(
                    "needs about {:.1} GB of memory (both parties in this process, \
                     material held in memory), {:.1} GB available",
                    need as f64 / 1e9,
                    avail as f64 / 1e9
                ),
                Some(need),
            ));
        }
    }
    match super::protocol::measure(&args, &cfg, net, runs, || {}) {
        Ok(r) => {
            let model = match protocol {
                "lindell-riva" => Some(memory::lr_offline_bytes(&cfg)?),
                _ => None,
            };
            Ok(from_report(protocol, &r, need, model))
        }
        Err(CliError::Protocol(brickyard_core::Error::Config(m))) => {
            Ok(skipped(protocol, format!("refused: {m}"), need))
        }
        Err(e) => Err(e),
    }
}

/// Measures every selected row.
pub fn measure_all(a: &LrTablesArgs) -> Result<Tables, CliError> {
    check_args(a)?;
    let started = Instant::now();
    let mut header = super::report::Header::start();
    let mut rows = Vec::new();
    for &(name, spec, _) in CIRCUITS
        .iter()
        .filter(|c| a.circuits.iter().any(|x| x == c.0))
    {
        let and_gates = brickyard_circuit::resolve(spec)?.and_count() as u64;
        for &n in &a.executions {
            for net in &a.nets {
                let lan = is_lan(net)?;
                let load = load_avg();
                let mut protocols = Vec::new();
                for &p in PROTOCOLS
                    .iter()
                    .filter(|p| a.protocols.iter().any(|x| x == *p))
                {
                    if !a.json {
                        eprintln!("lr-tables: {p} {name} N = {n} net {net} ...");
                    }
                    protocols.push(measure_one(p, spec, n, net, a.runs)?);
                }
                rows.push(Row {
                    circuit: name.to_string(),
                    and_gates,
                    executions: n,
                    net: net.clone(),
                    load,
                    paper: paper::row(name, n, !lan),
                    protocols,
                });
            }
        }
    }
    let mut svg_files = Vec::new();
    if let Some(dir) = &a.svg {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        for (file, text) in plot::render_all(&rows) {
            let path = dir.join(&file);
            std::fs::write(&path, text).map_err(|source| CliError::Io {
                path: path.display().to_string(),
                source,
            })?;
            svg_files.push(path.display().to_string());
        }
    }
    header.finish(started);
    Ok(Tables {
        header,
        runs: a.runs,
        rows,
        svg_files,
    })
}

fn opt(v: Option<f64>, scale: f64, prec: usize) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{:.*}", prec, x / scale))
}

/// Runs the tables.
pub fn run(a: LrTablesArgs) -> CliResult {
    let t = measure_all(&a)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&t).map_err(|e| CliError::Usage(e.to_string()))?
        );
        return Ok(());
    }
    println!(
        "Lindell-Riva Tables 2-7 shape: ms per execution and bytes (both directions); \
         offline = setup + independent + dependent; median of {} run(s); commit {}",
        t.runs, t.header.commit
    );
    println!(
        "paper: c4.8xlarge, offline on 9 threads (Table 2/5) and 1 thread (Table 4, AES), \
         online on 1 thread; ours: one thread per party, {} cores",
        t.header.cores
    );
    println!(
        "{:<7} {:>5} {:<10} {:<15} {:>11} {:>10} {:>10} {:>11} {:>11}  load",
        "circuit",
        "N",
        "net",
        "who",
        "offline/ex",
        "latency",
        "thruput",
        "offline MB",
        "online kB/ex"
    );
    for r in &t.rows {
        let load = format!("{:.2} {:.2} {:.2}", r.load[0], r.load[1], r.load[2]);
        for m in &r.protocols {
            match &m.skipped {
                Some(why) => println!(
                    "{:<7} {:>5} {:<10} {:<15} skipped: {why}",
                    r.circuit, r.executions, r.net, m.protocol
                ),
                None => println!(
                    "{:<7} {:>5} {:<10} {:<15} {:>11} {:>10} {:>10} {:>11} {:>11}  {load}",
                    r.circuit,
                    r.executions,
                    r.net,
                    m.protocol,
                    opt(m.offline_ms_per_execution, 1.0, 2),
                    opt(m.online_latency_ms, 1.0, 3),
                    opt(m.online_throughput_ms, 1.0, 3),
                    opt(m.offline_bytes.map(|b| b as f64), 1e6, 1),
                    opt(m.online_bytes_per_execution, 1e3, 1),
                ),
            }
            if !m.online_steps.is_empty() {
                println!(
                    "  online steps of one execution (medians; wall includes waits for the peer, \
                     cpu is the party's thread):\n    {:<6} {:<44} {:>9} {:>9}",
                    "party", "step", "wall ms", "cpu ms"
                );
                for st in &m.online_steps {
                    let cpu = st.cpu_ms.map_or("-".to_string(), |c| format!("{c:.3}"));
                    println!(
                        "    {:<6} {:<44} {:>9.3} {:>9}",
                        st.party, st.name, st.wall_ms, cpu
                    );
                }
            }
        }
        if let Some(p) = &r.paper {
            println!(
                "{:<7} {:>5} {:<10} {:<15} {:>11} {:>10} {:>10} {:>11} {:>11}  ({}; 1-thread offline {})",
                r.circuit,
                r.executions,
                r.net,
                "paper 9t/1t",
                format!("{:.0}", p.offline_ms_per_execution_9t),
                format!("{:.0}", p.online_ms[0]),
                "-",
                opt(p.offline_bytes, 1e6, 0),
                opt(p.online_bytes_per_execution, 1e3, 0),
                p.source,
                opt(p.offline_ms_per_execution_1t, 1.0, 0),
            );
        }
    }
    for f in &t.svg_files {
        println!("wrote {f}");
    }
    println!(
        "load average {:.2} {:.2} {:.2} at the start, {:.2} {:.2} {:.2} at the end; {:.0} s",
        t.header.load_start[0],
        t.header.load_start[1],
        t.header.load_start[2],
        t.header.load_end[0],
        t.header.load_end[1],
        t.header.load_end[2],
        t.header.duration_s
    );
    Ok(())
}
