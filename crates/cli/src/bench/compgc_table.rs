//! `brickyard bench compgc-table`: the CompGC paper's Table 2 — online time
//! and bits received by Bob, naive (`yao`, the circuit garbled online, OTs
//! preprocessed) vs `compgc` — on plain loopback and under the paper's
//! shaped link (33 ms one-way, 50 Mbit/s), beside the paper's figures.
//!
//! The naive circuit is the compgc function flattened without the garbler
//! transform (for AES/CBC: round keys as Alice's input, as in the paper's
//! experiment), so both protocols garble exactly the same gates.

use crate::error::{CliError, CliResult};
use brickyard_core::channel::NetProfile;
use brickyard_core::prg::Prg;
use brickyard_protocols::compgc::{self, spec::SpecFile, CompgcParams, Function};
use brickyard_protocols::driver::run_local;
use brickyard_protocols::report::median;
use brickyard_protocols::{PartyInputs, Role, RunConfig};
use serde_json::json;
use std::sync::Arc;

/// The paper's Table 2: (name, naive ms, compgc ms, naive Mbit, compgc Mbit).
const PAPER: [(&str, f64, f64, f64, f64); 4] = [
    ("AES", 542.6, 134.4, 24.0, 0.656),
    ("CBC-10", 4800.0, 321.5, 235.0, 7.4),
    ("Leven. (30)", 2200.0, 371.0, 108.0, 10.0),
    ("Leven. (60)", 10600.0, 1119.6, 524.0, 44.0),
];

fn specs() -> [SpecFile; 4] {
    [
        compgc::aes_cbc_spec(1),
        compgc::aes_cbc_spec(10),
        compgc::levenshtein_spec(30),
        compgc::levenshtein_spec(60),
    ]
}

/// The naive baseline's function: the same spec with Alice giving the
/// transformed bits directly.
fn without_transform(spec: &SpecFile) -> Result<Function, CliError> {
    let mut s = spec.clone();
    if s.metadata.garbler_transform.take().is_some() {
        for g in s.inputs.iter_mut() {
            if g.party == compgc::spec::SpecParty::Garbler {
                g.name = "round_keys".into();
                g.width = s.metadata.garbler_inputs;
            }
        }
    }
    Ok(Function::new(&s, &[]).map_err(brickyard_core::Error::from)?)
}

fn inputs(cfg: &RunConfig, role: Role, prg: &mut Prg) -> Vec<PartyInputs> {
    vec![cfg
        .groups_of(role)
        .iter()
        .map(|&g| prg.random_bits(cfg.circuit.inputs[g].width()))
        .collect()]
}

/// One measurement: (online ms, bits Bob received online).
fn measure(
    proto: &str,
    f: &Arc<Function>,
    naive: &RunConfig,
    profile: Option<NetProfile>,
    runs: usize,
) -> Result<(f64, f64), CliError> {
    let mut prg = Prg::new();
    let mut ms = Vec::new();
    let mut bits = 0.0;
    for _ in 0..runs {
        let cfg = if proto == "compgc" {
            f.run_config()?
        } else {
            naive.clone()
        };
        let a = inputs(&cfg, Role::Alice, &mut prg);
        let b = inputs(&cfg, Role::Bob, &mut prg);
        let (pa, pb) = if proto == "compgc" {
            let p = CompgcParams {
                function: Some(f.clone()),
                ..Default::default()
            };
            (
                compgc::new_party(Role::Alice, cfg.clone(), p.clone())?,
                compgc::new_party(Role::Bob, cfg.clone(), p)?,
            )
        } else {
            (
                brickyard_protocols::registry::new_party(proto, Role::Alice, cfg.clone())?,
                brickyard_protocols::registry::new_party(proto, Role::Bob, cfg.clone())?,
            )
        };
        let net = crate::localnet::loopback(profile.clone(), "table")?;
        let out = run_local(proto, &f.name, pa, pb, &cfg, a.clone(), b.clone(), net)?;
        let want = cfg
            .circuit
            .eval(&[a[0].clone(), b[0].clone()].concat())
            .map_err(brickyard_circuit::Error::from)?;
        if out.bob_outputs[0] != want {
            return Err(CliError::Usage(format!(
                "{proto} computed a wrong output on {}",
                f.name
            )));
        }
        ms.push(out.report.online.latency_ms);
        bits = out.report.phases[3].bytes_alice_to_bob as f64 * 8.0;
    }
    Ok((median(&ms), bits))
}

/// Runs the table.
pub fn run(runs: usize, json_out: bool) -> CliResult {
    let runs = runs.max(1);
    let mut rows = Vec::new();
    if !json_out {
        eprintln!("measuring (the machine may be shared: times are wall-clock medians of {runs} run(s)) …");
    }
    for (spec, paper) in specs().iter().zip(PAPER) {
        let f = Arc::new(Function::new(spec, &[]).map_err(brickyard_core::Error::from)?);
        let naive = without_transform(spec)?.run_config()?;
        let mut row = json!({
            "function": paper.0,
            "components": f.instances(),
            "paper": {"naive_ms": paper.1, "compgc_ms": paper.2, "naive_mbit": paper.3, "compgc_mbit": paper.4},
        });
        for (net, profile) in [("loopback", None), ("compgc", Some(NetProfile::compgc()))] {
            let (n_ms, n_bits) = measure("yao", &f, &naive, profile.clone(), runs)?;
            let (c_ms, c_bits) = measure("compgc", &f, &naive, profile, runs)?;
            row[net] = json!({
                "naive_ms": n_ms, "compgc_ms": c_ms,
                "naive_mbit": n_bits / 1e6, "compgc_mbit": c_bits / 1e6,
                "speedup": n_ms / c_ms,
            });
        }
        if !json_out {
            eprintln!("  {} done", paper.0);
        }
        rows.push(row);
    }
    if json_out {
        println!("{}", json!({ "runs": runs, "rows": rows }));
        return Ok(());
    }
    println!(
        "CompGC Table 2 (times: online ms, median of {runs}; comm: Mbit received by Bob online)"
    );
    println!(
        "{:<12} | {:>21} | {:>21} | {:>21} | {:>21}",
        "", "shaped naive/compgc", "paper (simulated)", "comm naive/compgc", "paper comm"
    );
    for r in &rows {
        let s = &r["compgc"];
        let p = &r["paper"];
        println!(
            "{:<12} | {:>8.1} / {:>7.1} ms | {:>8.1} / {:>7.1} ms | {:>8.3} / {:>7.3}   | {:>8.3} / {:>7.3}",
            r["function"].as_str().unwrap_or(""),
            s["naive_ms"].as_f64().unwrap_or(0.0),
            s["compgc_ms"].as_f64().unwrap_or(0.0),
            p["naive_ms"].as_f64().unwrap_or(0.0),
            p["compgc_ms"].as_f64().unwrap_or(0.0),
            s["naive_mbit"].as_f64().unwrap_or(0.0),
            s["compgc_mbit"].as_f64().unwrap_or(0.0),
            p["naive_mbit"].as_f64().unwrap_or(0.0),
            p["compgc_mbit"].as_f64().unwrap_or(0.0),
        );
    }
    println!();
    println!(
        "{:<12} | {:>10} {:>10} | {:>21} | {:>10}",
        "speed-up", "shaped", "paper", "loopback naive/compgc", "components"
    );
    for (r, p) in rows.iter().zip(PAPER) {
        let l = &r["loopback"];
        println!(
            "{:<12} | {:>9.1}x {:>9.1}x | {:>8.2} / {:>7.2} ms | {:>10}",
            p.0,
            r["compgc"]["speedup"].as_f64().unwrap_or(0.0),
            p.1 / p.2,
            l["naive_ms"].as_f64().unwrap_or(0.0),
            l["compgc_ms"].as_f64().unwrap_or(0.0),
            r["components"],
        );
    }
    Ok(())
}
