//! `brickyard bench jimu-tables`: the shape of JIMU's Sec. 7 (Zhu–Huang,
//! Asiacrypt'17): its applications run by `jimu` at k = 88 and 127 beside
//! `lego` (TinyLEGO, NST17) in the same run, time and bytes per phase, on
//! loopback and shaped links, with the ratios the paper claims; and its
//! microbenchmarks (Alice input, Bob input and output µs per wire, XOR/s,
//! logical AND/s at B = 5). Every protocol run goes through
//! [`super::protocol::measure_parties`] (outputs checked against the
//! plaintext evaluation), and each protocol's numbers are
//! [`super::lr_tables::Measured`], as in `bench lr-tables`.

pub mod paper;

use super::lr_tables::{from_report, load_avg, Measured};
use super::protocol::measure_parties;
use crate::error::{CliError, CliResult};
use brickyard_circuit::{Bit, BitVec, Circuit, CircuitBuilder};
use brickyard_protocols::jimu::{self, Cheats, CutAndChoose, JimuOptions};
use brickyard_protocols::{Party, Role, RunConfig};
use clap::Args;
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `brickyard bench jimu-tables`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "Applications: aes128, des (builtin:des-expanded: 768-bit round keys from P1, as the paper's),\n\
compareN (N-bit a < b, the paper's compare10000), hammingN\n\
(the paper's hamming2048). Links in --net syntax; the default LAN is\n\
1 ms RTT at 2.5 Gbit/s and the default WAN 40 ms RTT (20 ms each way) at 200 Mbit/s.\n\n\
Examples:\n  \
brickyard bench jimu-tables --apps aes128 --net none --runs 3\n  \
brickyard bench jimu-tables --json\n\n",
    crate::localnet::spin_help!()
))]
pub struct JimuTablesArgs {
    /// Applications (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "aes128,des,compare10000,hamming2048"
    )]
    pub apps: Vec<String>,
    /// Computational security of jimu's labels: 88 and/or 127.
    #[arg(long, value_delimiter = ',', default_value = "88,127")]
    pub k: Vec<u32>,
    /// Links, `--net` syntax, repeat the option for several.
    #[arg(long = "net", default_values_t = ["none".to_string(), "1,2500".to_string(), "40,200".to_string()])]
    pub nets: Vec<String>,
    /// Timed runs per cell (median).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Wires of the input/output microbenchmarks (the difference of
    /// circuits with 2W and W wires, per wire).
    #[arg(long, default_value_t = 2048)]
    pub micro_wires: usize,
    /// XOR gates of the XOR microbenchmark (difference of 2X and X).
    #[arg(long, default_value_t = 1 << 20)]
    pub micro_xors: usize,
    /// AND gates of the AND microbenchmark; 0 = the fewest (a multiple of
    /// 1024) at which Sec. 6.3's optimisation picks B = 5.
    #[arg(long, default_value_t = 0)]
    pub micro_ands: usize,
    /// Skip the microbenchmarks.
    #[arg(long)]
    pub no_micro: bool,
    /// Print JSON.
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

/// jimu at one k in a row.
#[derive(Clone, Debug, Serialize)]
pub struct JimuCell {
    /// Computational security.
    pub k: u32,
    /// Bucket size B and garbled gates T (Sec. 6.3 from N and s = 40).
    pub bucket: u32,
    /// T.
    pub total: u64,
    /// Its numbers.
    pub measured: Measured,
    /// lego's (independent + dependent + online) time over jimu's: the
    /// paper claims > 2 on a LAN.
    pub speedup_vs_lego: Option<f64>,
    /// jimu's bytes (independent + dependent + online) over lego's: the
    /// paper reports 1.25–2.
    pub bytes_vs_lego: Option<f64>,
}

/// One application on one link.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Application name.
    pub app: String,
    /// Its AND gates (ours).
    pub and_gates: u64,
    /// The paper's N, B, T, where stated.
    pub paper: Option<paper::PaperApp>,
    /// The link (`--net` syntax; `none` = loopback).
    pub net: String,
    /// `/proc/loadavg` when the row started.
    pub load: [f64; 3],
    /// lego, the TinyLEGO baseline.
    pub lego: Measured,
    /// jimu, one cell per k.
    pub jimu: Vec<JimuCell>,
}

/// The microbenchmarks at one k (loopback).
#[derive(Clone, Debug, Serialize)]
pub struct Micro {
    /// Computational security.
    pub k: u32,
    /// Online µs per Alice input wire.
    pub alice_input_us_per_wire: f64,
    /// Online µs per Bob input wire (s = 40 shares and OTs each).
    pub bob_input_us_per_wire: f64,
    /// Online µs per output wire.
    pub output_us_per_wire: f64,
    /// Logical XOR gates per second, online.
    pub xor_per_s: f64,
    /// AND gates of the AND benchmark and its bucket size.
    pub and_gates: usize,
    /// B at those gates.
    pub bucket: u32,
    /// Logical AND gates per second over independent + dependent + online.
    pub and_per_s_total: f64,
    /// Logical AND gates per second, online only.
    pub and_per_s_online: f64,
    /// Wires and gates the differences were taken over.
    pub wires: usize,
    /// XOR gates.
    pub xors: usize,
}

/// The whole output.
#[derive(Clone, Debug, Serialize)]
pub struct Tables {
    /// Commit, machine, load, command.
    pub header: super::report::Header,
    /// Timed runs per cell.
    pub runs: usize,
    /// The paper's claims quoted.
    pub claims: paper::Claims,
    /// Applications asked for that have no circuit here, with why.
    pub missing: Vec<(String, String)>,
    /// Every row in the order run.
    pub rows: Vec<Row>,
    /// Microbenchmarks per k (empty with `--no-micro`).
    pub micro: Vec<Micro>,
}

/// The circuit of an application, or why there is none.
fn app_circuit(name: &str) -> Result<Result<Circuit, String>, CliError> {
    let bad = || CliError::Usage(format!("--apps: unknown `{name}`"));
    let size = |s: &str| -> Result<usize, CliError> {
        s.parse::<usize>()
            .ok()
            .filter(|&n| (1..=1 << 20).contains(&n))
            .ok_or_else(bad)
    };
    Ok(Ok(match name {
        "aes128" => brickyard_circuit::resolve("builtin:aes128")?,
        // The paper's DES takes a 768-bit (expanded) key from P1.
        "des" => brickyard_circuit::resolve("builtin:des-expanded")?,
        _ => {
            if let Some(n) = name.strip_prefix("compare") {
                compare(size(n)?)
            } else if let Some(n) = name.strip_prefix("hamming") {
                brickyard_circuit::resolve(&format!("builtin:hamming{}", size(n)?))?
            } else {
                return Err(bad());
            }
        }
    }))
}

/// a < b for n-bit a (Alice) and b (Bob).
fn compare(n: usize) -> Circuit {
    let mut c = CircuitBuilder::new();
    let a = c.input("a", n);
    let b = c.input("b", n);
    let lt = c.lt(&a, &b);
    c.output("lt", &BitVec(vec![lt]));
    c.finish()
}

fn xor_all(c: &mut CircuitBuilder, v: &[Bit]) -> Bit {
    v.iter().fold(Bit::constant(false), |x, &y| c.xor_bit(x, y))
}

/// Microbenchmark circuits. `alice`: a(n), b(1) → ⊕a ⊕ b; `bob`: a(1),
/// b(n) → a ⊕ (⊕b); `outputs`: a(n), b(1) → a_i ⊕ b (n outputs); `xors`:
/// a(1), b(1) → a chain of n XORs; `ands`: a(64), b(64) → n independent
/// ANDs a_i ∧ b_j, XORed into one bit.
fn micro_circuit(kind: &str, n: usize) -> Circuit {
    let mut c = CircuitBuilder::new();
    let (na, nb) = match kind {
        "alice" | "outputs" => (n, 1),
        "bob" => (1, n),
        "xors" => (1, 1),
        _ => (64, 64),
    };
    let a = c.input("a", na);
    let b = c.input("b", nb);
    let out: Vec<Bit> = match kind {
        "alice" | "bob" => {
            let all: Vec<Bit> = a.iter().chain(b.iter()).collect();
            vec![xor_all(&mut c, &all)]
        }
        "outputs" => a.iter().map(|x| c.xor_bit(x, b.bit(0))).collect(),
        "xors" => {
            let mut x = a.bit(0);
            for _ in 0..n {
                x = c.xor_bit(x, b.bit(0));
            }
            vec![x]
        }
        _ => {
            let ands: Vec<Bit> = (0..n)
                .map(|i| c.and_bit(a.bit(i % 64), b.bit((i / 64 + i) % 64)))
                .collect();
            vec![xor_all(&mut c, &ands)]
        }
    };
    c.output("out", &BitVec(out));
    c.finish()
}

/// jimu at `k`; `skip_5b` is the test-only switch (always false outside
/// `adversary` builds).
fn jimu_party(
    k: u32,
    skip_5b: bool,
) -> impl Fn(Role, RunConfig) -> Result<Box<dyn Party>, CliError> {
    move |role, cfg| {
        let cheats = Cheats::default();
        #[cfg(feature = "adversary")]
        let cheats = if skip_5b {
            cheats.without_step_5b()
        } else {
            cheats
        };
        #[cfg(not(feature = "adversary"))]
        let _ = skip_5b;
        Ok(jimu::new_party(
            role,
            cfg,
            JimuOptions { k, s: 40 },
            cheats,
        )?)
    }
}

/// Whether `--test-skip-step-5b` was given (adversary builds only).
fn skip_5b(a: &JimuTablesArgs) -> bool {
    #[cfg(feature = "adversary")]
    {
        a.test_skip_step_5b
    }
    #[cfg(not(feature = "adversary"))]
    {
        let _ = a;
        false
    }
}

fn lego_party(role: Role, cfg: RunConfig) -> Result<Box<dyn Party>, CliError> {
    Ok(brickyard_protocols::registry::new_party("lego", role, cfg)?)
}

/// Independent + dependent + online (all executions): the preprocessing
/// the paper counts (setup is the same for any circuit).
fn work_ms(m: &Measured) -> f64 {
    m.phases
        .iter()
        .filter(|p| p.name != "setup")
        .map(|p| p.wall_ms)
        .sum()
}

fn work_bytes(m: &Measured) -> u64 {
    m.phases
        .iter()
        .filter(|p| p.name != "setup")
        .map(|p| p.bytes_alice_to_bob + p.bytes_bob_to_alice)
        .sum()
}

fn check_args(a: &JimuTablesArgs) -> Result<(), CliError> {
    if let Some(k) = a.k.iter().find(|&&k| k != 88 && k != 127) {
        return Err(CliError::Usage(format!("--k: {k} (88 or 127)")));
    }
    if a.runs == 0 || a.micro_wires == 0 || a.micro_xors == 0 {
        return Err(CliError::Usage(
            "--runs, --micro-wires and --micro-xors must be at least 1".into(),
        ));
    }
    if a.k.is_empty() || a.nets.is_empty() {
        return Err(CliError::Usage("jimu-tables needs a k and a link".into()));
    }
    for n in &a.nets {
        crate::localnet::profile(n)?;
    }
    for app in &a.apps {
        // Names are checked here; a missing circuit is reported per row.
        let _ = app_circuit(app)?;
    }
    Ok(())
}

fn measure(
    proto: &str,
    name: &str,
    c: &Arc<Circuit>,
    executions: usize,
    net: &str,
    runs: usize,
    new_party: impl Fn(Role, RunConfig) -> Result<Box<dyn Party>, CliError>,
) -> Result<Measured, CliError> {
    let mut cfg = RunConfig::new(c.clone())?;
    cfg.executions = executions;
    let r = measure_parties(proto, name, &cfg, net, runs, new_party, || {})?;
    Ok(from_report(proto, &r, None, None))
}

fn online_ms(m: &Measured) -> f64 {
    m.online_latency_ms.unwrap_or(0.0)
}

/// The microbenchmarks at `k`.
fn micro(a: &JimuTablesArgs, k: u32) -> Result<Micro, CliError> {
    let run = |kind: &str, n: usize, e: usize| -> Result<Measured, CliError> {
        let c = Arc::new(micro_circuit(kind, n));
        measure(
            "jimu",
            kind,
            &c,
            e,
            "none",
            a.runs,
            jimu_party(k, skip_5b(a)),
        )
    };
    let w = a.micro_wires;
    let per = |t2: f64, t1: f64, n: usize| ((t2 - t1) * 1e3 / n as f64).max(0.0);
    let alice1 = online_ms(&run("alice", w, 1)?);
    let alice2 = online_ms(&run("alice", 2 * w, 1)?);
    let bob1 = online_ms(&run("bob", w, 1)?);
    let bob2 = online_ms(&run("bob", 2 * w, 1)?);
    let out = online_ms(&run("outputs", w, 1)?);
    let x = a.micro_xors;
    let x1 = online_ms(&run("xors", x, 1)?);
    let x2 = online_ms(&run("xors", 2 * x, 1)?);
    let n = if a.micro_ands > 0 {
        a.micro_ands
    } else {
        (1..=64)
            .map(|i| i * 1024)
            .find(|&n| CutAndChoose::optimise(n as u64, 40).is_ok_and(|c| c.bucket == 5))
            .unwrap_or(8192)
    };
    let bucket = CutAndChoose::optimise(n as u64, 40)?.bucket;
    let ands = run("ands", n, 1)?;
    Ok(Micro {
        k,
        alice_input_us_per_wire: per(alice2, alice1, w),
        bob_input_us_per_wire: per(bob2, bob1, w),
        output_us_per_wire: per(out, alice1, w),
        xor_per_s: x as f64 / ((x2 - x1).max(1e-6) * 1e-3),
        and_gates: n,
        bucket,
        and_per_s_total: n as f64 / (work_ms(&ands) * 1e-3),
        and_per_s_online: n as f64 / (online_ms(&ands) * 1e-3),
        wires: w,
        xors: x,
    })
}

/// Measures every selected row and the microbenchmarks.
pub fn measure_all(a: &JimuTablesArgs) -> Result<Tables, CliError> {
    check_args(a)?;
    let started = Instant::now();
    let mut header = super::report::Header::start();
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    for app in &a.apps {
        let c = match app_circuit(app)? {
            Ok(c) => Arc::new(c),
            Err(why) => {
                missing.push((app.clone(), why));
                continue;
            }
        };
        let and_gates = c.and_count() as u64;
        for net in &a.nets {
            let load = load_avg();
            if !a.json {
                eprintln!("jimu-tables: {app} net {net} ...");
            }
            let lego = measure("lego", app, &c, 1, net, a.runs, lego_party)?;
            let mut cells = Vec::new();
            for &k in &a.k {
                let m = measure("jimu", app, &c, 1, net, a.runs, jimu_party(k, skip_5b(a)))?;
                let cc = CutAndChoose::optimise(and_gates.max(1), 40)?;
                let (jt, lt) = (work_ms(&m), work_ms(&lego));
                let (jb, lb) = (work_bytes(&m), work_bytes(&lego));
                cells.push(JimuCell {
                    k,
                    bucket: cc.bucket,
                    total: cc.total,
                    speedup_vs_lego: (jt > 0.0).then(|| lt / jt),
                    bytes_vs_lego: (lb > 0).then(|| jb as f64 / lb as f64),
                    measured: m,
                });
            }
            rows.push(Row {
                app: app.clone(),
                and_gates,
                paper: paper::APPS.iter().find(|p| p.name == app).copied(),
                net: net.clone(),
                load,
                lego,
                jimu: cells,
            });
        }
    }
    let mut micros = Vec::new();
    if !a.no_micro {
        for &k in &a.k {
            if !a.json {
                eprintln!("jimu-tables: microbenchmarks k = {k} ...");
            }
            micros.push(micro(a, k)?);
        }
    }
    header.finish(started);
    Ok(Tables {
        header,
        runs: a.runs,
        claims: paper::claims(),
        missing,
        rows,
        micro: micros,
    })
}

fn phase_cols(m: &Measured) -> String {
    m.phases
        .iter()
        .map(|p| {
            format!(
                "{:>9.2} {:>8.2}",
                p.wall_ms,
                (p.bytes_alice_to_bob + p.bytes_bob_to_alice) as f64 / 1e6
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the tables.
pub fn run(a: JimuTablesArgs) -> CliResult {
    let t = measure_all(&a)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&t).map_err(|e| CliError::Usage(e.to_string()))?
        );
        return Ok(());
    }
    println!(
        "JIMU Sec. 7 shape: ms and MB (both directions) per phase, one execution, median of {} \
         run(s); commit {}; one thread per party, {} cores",
        t.runs, t.header.commit, t.header.cores
    );
    println!(
        "{:<13} {:<8} {:<9} {:>18} {:>18} {:>18} {:>18}  {:>7} {:>6}  load",
        "app",
        "net",
        "who",
        "setup ms    MB",
        "indep ms    MB",
        "dep ms    MB",
        "online ms    MB",
        "speedup",
        "bytes"
    );
    for r in &t.rows {
        let load = format!("{:.2} {:.2} {:.2}", r.load[0], r.load[1], r.load[2]);
        println!(
            "{:<13} {:<8} {:<9} {}  {:>7} {:>6}  {load}",
            r.app,
            r.net,
            "lego",
            phase_cols(&r.lego),
            "",
            ""
        );
        for c in &r.jimu {
            println!(
                "{:<13} {:<8} {:<9} {}  {:>7} {:>6}  {load}",
                r.app,
                r.net,
                format!("jimu k{}", c.k),
                phase_cols(&c.measured),
                c.speedup_vs_lego.map_or("-".into(), |x| format!("{x:.2}x")),
                c.bytes_vs_lego.map_or("-".into(), |x| format!("{x:.2}x")),
            );
        }
    }
    println!(
        "speedup = lego / jimu time over independent + dependent + online (paper: > 2x on \
         its LAN); bytes = jimu / lego over the same phases (paper: 1.25-2x)"
    );
    for (app, why) in &t.missing {
        println!("{app}: not run: {why}");
    }
    for m in &t.micro {
        println!(
            "micro k = {}: Alice input {:.2} us/wire, Bob input {:.2} us/wire, output {:.2} \
             us/wire (differences over {} wires), XOR {:.1} M/s ({} gates), AND at B = {} \
             ({} gates): {:.1} K/s end to end, {:.1} K/s online",
            m.k,
            m.alice_input_us_per_wire,
            m.bob_input_us_per_wire,
            m.output_us_per_wire,
            m.wires,
            m.xor_per_s / 1e6,
            m.xors,
            m.bucket,
            m.and_gates,
            m.and_per_s_total / 1e3,
            m.and_per_s_online / 1e3
        );
    }
    println!("paper (text of Sec. 1 and 7; Figs. 8-11 not recovered):");
    for (what, value, place) in &t.claims.items {
        println!("  {what}: {value} ({place})");
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
