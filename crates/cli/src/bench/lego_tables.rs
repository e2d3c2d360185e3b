//! `brickyard bench lego-tables`: NST17's Tables IV, V and VII for AES-128
//! (1, 32, 128, 1024 circuits) and SHA-256 (1, 32, 128) — BaseOTs, independent and
//! dependent preprocessing, online latency and throughput (ms per circuit)
//! and data Alice sends per phase — on plain loopback and under the paper's
//! WAN (81 ms RTT, 214 Mbit/s), beside the paper's figures and beside `yao`.

use crate::error::CliResult;
use brickyard_core::channel::NetProfile;
use brickyard_core::prg::Prg;
use brickyard_protocols::driver::run_local;
use brickyard_protocols::registry::new_party;
use brickyard_protocols::report::Report;
use brickyard_protocols::{PartyInputs, Role, RunConfig};
use serde_json::json;
use std::sync::Arc;

/// The paper's timings (Table IV, AWS LAN / AWS WAN, ms per circuit):
/// BaseOTs, independent, dependent, online latency, online throughput.
type Times = [f64; 5];
/// The paper's data per circuit (Table V / VII): independent, dependent,
/// online (bytes).
type Data = [f64; 3];

struct Row {
    name: &'static str,
    circuit: &'static str,
    count: usize,
    lan: Times,
    wan: Times,
    data: Data,
}

const KB: f64 = 1e3;
const MB: f64 = 1e6;

const ROWS: &[Row] = &[
    Row {
        name: "AES-128",
        circuit: "builtin:aes128",
        count: 1,
        lan: [850.42, 89.61, 13.23, 1.46, 1.46],
        wan: [2980.25, 1881.63, 96.66, 83.17, 83.17],
        data: [14.94 * MB, 226.86 * KB, 16.13 * KB],
    },
    Row {
        name: "AES-128",
        circuit: "builtin:aes128",
        count: 32,
        lan: [26.61, 27.91, 0.85, 1.23, 0.18],
        wan: [93.75, 142.00, 5.19, 83.21, 2.71],
        data: [8.74 * MB, 226.86 * KB, 16.13 * KB],
    },
    Row {
        name: "AES-128",
        circuit: "builtin:aes128",
        count: 128,
        lan: [6.65, 14.85, 0.68, 1.15, 0.09],
        wan: [23.44, 72.31, 3.96, 83.65, 0.73],
        data: [7.22 * MB, 226.86 * KB, 16.13 * KB],
    },
    Row {
        name: "AES-128",
        circuit: "builtin:aes128",
        count: 1024,
        lan: [0.84, 13.84, 0.74, 1.13, 0.08],
        wan: [2.96, 39.18, 2.12, 83.15, 0.62],
        data: [6.42 * MB, 226.86 * KB, 16.13 * KB],
    },
    Row {
        name: "SHA-256",
        circuit: "builtin:sha256",
        count: 1,
        lan: [852.90, 478.54, 164.40, 11.19, 11.19],
        wan: [3043.64, 2738.62, 350.01, 93.94, 93.94],
        data: [120.34 * MB, 2.93 * MB, 22.23 * KB],
    },
    Row {
        name: "SHA-256",
        circuit: "builtin:sha256",
        count: 32,
        lan: [26.82, 165.26, 14.87, 9.14, 1.42],
        wan: [92.98, 670.98, 42.01, 92.42, 4.04],
        data: [85.19 * MB, 2.93 * MB, 22.23 * KB],
    },
    Row {
        name: "SHA-256",
        circuit: "builtin:sha256",
        count: 128,
        lan: [6.67, 173.05, 12.13, 9.35, 1.09],
        wan: [23.66, 431.71, 25.44, 92.38, 1.70],
        data: [80.54 * MB, 2.93 * MB, 22.23 * KB],
    },
];

fn inputs(cfg: &RunConfig, role: Role, prg: &mut Prg) -> Vec<PartyInputs> {
    (0..cfg.executions)
        .map(|_| {
            cfg.groups_of(role)
                .iter()
                .map(|&g| prg.random_bits(cfg.circuit.inputs[g].width()))
                .collect()
        })
        .collect()
}

fn measure(
    proto: &str,
    cfg: &RunConfig,
    profile: Option<NetProfile>,
    net: &str,
) -> Result<Report, crate::error::CliError> {
    let mut prg = Prg::new();
    let (a, b) = (
        inputs(cfg, Role::Alice, &mut prg),
        inputs(cfg, Role::Bob, &mut prg),
    );
    let alice = new_party(proto, Role::Alice, cfg.clone())?;
    let bob = new_party(proto, Role::Bob, cfg.clone())?;
    let net = crate::localnet::loopback(profile, net)?;
    Ok(run_local(proto, "bench", alice, bob, cfg, a, b, net)?.report)
}

/// Per-circuit view of a report: [setup, ind, dep, latency, throughput] ms
/// and [ind, dep, online] bytes Alice → Bob.
fn per_circuit(r: &Report, count: usize) -> (Times, Data) {
    let c = count as f64;
    let p = &r.phases;
    (
        [
            p[0].wall_ms / c,
            p[1].wall_ms / c,
            p[2].wall_ms / c,
            r.online.latency_ms,
            r.online.throughput_ms,
        ],
        [
            p[1].bytes_alice_to_bob as f64 / c,
            p[2].bytes_alice_to_bob as f64 / c,
            p[3].bytes_alice_to_bob as f64 / c,
        ],
    )
}

/// Peak resident memory of a row, per AND gate of all its circuits: both
/// parties' LEGO material is held in memory by this bench. Measured with
/// `/usr/bin/time -v` on the 128 x SHA-256 row (2.9 M gates, 13.1 GB peak)
/// and rounded up.
const PEAK_BYTES_PER_AND: u64 = 4_700;

/// `MemAvailable` of `/proc/meminfo` in bytes (`None` off Linux).
fn mem_available() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs the tables. `max_count` skips rows with more circuits (memory and
/// time grow with it); `wan` adds the shaped link.
pub fn run(max_count: usize, wan: bool, json: bool) -> CliResult {
    let mut nets: Vec<(&str, Option<NetProfile>)> = vec![("loopback", None)];
    if wan {
        nets.push(("wan-81ms-214mbit", Some(NetProfile::wan())));
    }
    let mut out = Vec::new();
    if !json {
        println!("ms per circuit (setup = BaseOTs) and MB/kB Alice -> Bob per circuit; paper = NST17 Table IV (AWS LAN/WAN) and Table V");
        println!(
            "{:<8} {:>5} {:<17} {:<6} {:>9} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9}",
            "circuit",
            "n",
            "net",
            "who",
            "setup",
            "indep",
            "dep",
            "latency",
            "thruput",
            "ind MB",
            "dep kB",
            "onl kB"
        );
    }
    for row in ROWS.iter().filter(|r| r.count <= max_count) {
        let mut cfg = RunConfig::new(Arc::new(brickyard_circuit::resolve(row.circuit)?))?;
        cfg.executions = row.count;
        // A row that cannot fit is reported, not attempted: the kernel's
        // OOM killer would end the whole run without a table.
        let need = PEAK_BYTES_PER_AND * (cfg.circuit.and_count() * row.count) as u64;
        if let Some(avail) = mem_available().filter(|&a| a < need) {
            let msg = format!(
                "{} x {}: skipped, needs about {:.1} GB of memory, {:.1} GB available",
                row.count,
                row.name,
                need as f64 / 1e9,
                avail as f64 / 1e9
            );
            if json {
                out.push(json!({"circuit": row.name, "circuits": row.count, "skipped": msg}));
            } else {
                println!("{msg}");
            }
            continue;
        }
        for (net, profile) in &nets {
            let lego = measure("lego", &cfg, profile.clone(), net)?;
            let yao = measure("yao", &cfg, profile.clone(), net)?;
            let (lt, ld) = per_circuit(&lego, row.count);
            let (yt, yd) = per_circuit(&yao, row.count);
            let paper_t = if profile.is_some() { row.wan } else { row.lan };
            if json {
                out.push(json!({
                    "circuit": row.name, "circuits": row.count, "net": net,
                    "lego": {"ms": lt, "bytes": ld}, "yao": {"ms": yt, "bytes": yd},
                    "paper": {"ms": paper_t, "bytes": row.data},
                    "fields": {"ms": ["base_ots", "independent", "dependent", "online_latency", "online_throughput"], "bytes": ["independent", "dependent", "online"]},
                }));
            } else {
                for (who, t, d) in [
                    ("lego", lt, ld),
                    ("paper", paper_t, row.data),
                    ("yao", yt, yd),
                ] {
                    println!(
                        "{:<8} {:>5} {:<17} {:<6} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.3} | {:>9.2} {:>9.2} {:>9.2}",
                        row.name, row.count, net, who, t[0], t[1], t[2], t[3], t[4], d[0] / MB, d[1] / KB, d[2] / KB
                    );
                }
            }
        }
    }
    if json {
        println!("{}", serde_json::Value::Array(out));
    }
    Ok(())
}
