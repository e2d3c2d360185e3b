//! `brickyard params …`: parameters the papers derive, computed by the
//! protocols crate (the CLI only prints them).

use crate::error::{CliError, CliResult};
use brickyard_lindell_riva::params::{
    Choice, CutAndChoose as LrCutAndChoose, LrParams, Objective as LrObjective, S as LR_S,
};
use brickyard_protocols::jimu::{self, compress_bound, CutAndChoose};
use brickyard_protocols::lego::{security, LegoParams, Objective};
use clap::Subcommand;

/// Parameter calculators.
#[derive(Subcommand, Debug)]
pub enum ParamsCmd {
    /// LEGO bucket sizes and check probabilities by Theorem 2 (exact arithmetic).
    #[command(after_help = "Examples:\n  \
        brickyard params lego --and-gates 6928 --inputs 256\n  \
        brickyard params lego --and-gates 886784 --inputs 32768 --objective bucket --json\n  \
        brickyard params lego --and-gates 6928 --inputs 256 --beta 7 --pg 4 --pa 3")]
    Lego {
        /// AND gates to preprocess (q).
        #[arg(long)]
        and_gates: u64,
        /// Input wires to preprocess (n).
        #[arg(long)]
        inputs: u64,
        /// Statistical security parameter (at least 40).
        #[arg(long, default_value_t = 40)]
        s: u32,
        /// Minimise `comm` (communication, the paper's choice) or `bucket` (bucket size, faster online).
        #[arg(long, default_value = "comm")]
        objective: String,
        /// Override β (α = β−1); with --pg and --pa. Refused if the bound misses 2^-s.
        #[arg(long, requires_all = ["pg", "pa"])]
        beta: Option<u32>,
        /// Override p_g = 2^-PG.
        #[arg(long)]
        pg: Option<u32>,
        /// Override p_a = 2^-PA.
        #[arg(long)]
        pa: Option<u32>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Lindell–Riva (CCS'15) cut-and-choose: B, p, M for the main circuit
    /// (Lemma 2.2) and B', p', M' for the cheating-recovery circuit
    /// (Lemma 2.3), so that one execution is cheated w.p. <= 2^-s (exact
    /// arithmetic; p on a grid of 0.01; M = ceil(N*B/p)).
    #[command(after_help = "Examples:\n  \
        brickyard params lindell-riva --executions 128\n  \
        brickyard params lindell-riva --executions 1024 --objective bucket --max-circuits 6000\n  \
        brickyard params lindell-riva --executions 32 --bucket 7 --recovery-bucket 20   # the paper's Table 2 choice\n  \
        brickyard params lindell-riva --executions 32 --bucket 7 --p 0.63 --json        # refused: misses 2^-40")]
    LindellRiva {
        /// Number of online executions N (buckets).
        #[arg(long)]
        executions: u64,
        /// Statistical security parameter for one execution (at least 40).
        #[arg(long, default_value_t = LR_S)]
        s: u32,
        /// Main-circuit bucket size B (the largest p that meets 2^-s is chosen).
        #[arg(long)]
        bucket: Option<u64>,
        /// Main-circuit fraction evaluated, e.g. 0.62 (needs --bucket); refused if it misses 2^-s.
        #[arg(long, requires = "bucket")]
        p: Option<String>,
        /// Cheating-recovery bucket size B'.
        #[arg(long)]
        recovery_bucket: Option<u64>,
        /// Cheating-recovery fraction p', e.g. 0.71 (needs --recovery-bucket).
        #[arg(long, requires = "recovery_bucket")]
        recovery_p: Option<String>,
        /// `circuits` (fewest total circuits: offline cost) or `bucket` (smallest bucket: online cost).
        #[arg(long, default_value = "circuits")]
        objective: String,
        /// With a search: ignore choices with more circuits than this.
        #[arg(long)]
        max_circuits: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// JIMU cut-and-choose bucket size B and total garbled gates T (Sec. 6.3, exact arithmetic),
    /// and the long-label setting for k (Sec. 6.2, Lemma 6.1).
    #[command(after_help = "Examples:\n  \
        brickyard params jimu --and-gates 6800\n  \
        brickyard params jimu --and-gates 18175 --k 127 --json\n  \
        brickyard params jimu --and-gates 6800 --bucket 5 --total 39539")]
    Jimu {
        /// AND gates of the circuit (N).
        #[arg(long)]
        and_gates: u64,
        /// Statistical security parameter.
        #[arg(long, default_value_t = 40)]
        s: u32,
        /// Computational security parameter: 88 (256-bit labels) or 127 (384-bit).
        #[arg(long, default_value_t = 88)]
        k: u32,
        /// Override B; with --total. Refused if the bound misses 2^-s.
        #[arg(long, requires = "total")]
        bucket: Option<u32>,
        /// Override T; with --bucket.
        #[arg(long, requires = "bucket")]
        total: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Parses a probability with at most two decimals ("0.62", ".62", "62%")
/// into hundredths, without floating point.
fn percent(v: &str) -> Result<u64, CliError> {
    let bad = || CliError::Usage(format!("p must look like 0.62 or 62%, got `{v}`"));
    if let Some(pct) = v.strip_suffix('%') {
        return pct.parse().map_err(|_| bad());
    }
    let frac = v
        .strip_prefix("0.")
        .or_else(|| v.strip_prefix('.'))
        .ok_or_else(bad)?;
    if frac.is_empty() || frac.len() > 2 || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u64 = frac.parse().map_err(|_| bad())?;
    Ok(if frac.len() == 1 { n * 10 } else { n })
}

fn choice(
    bucket: Option<u64>,
    p: Option<String>,
    search: LrObjective,
    cap: Option<u64>,
) -> Result<Choice, CliError> {
    Ok(match (bucket, p) {
        (Some(b), Some(p)) => Choice::Fixed(b, percent(&p)?),
        (Some(b), None) => Choice::Bucket(b),
        (None, _) => Choice::Search(search, cap),
    })
}

fn print_cc(name: &str, c: &LrCutAndChoose) {
    println!(
        "{name}: B = {}  p = 0.{:02}  M = {}  (evaluated {}, checked {}; B/p = {:.2} circuits per execution)",
        c.b,
        c.p_percent,
        c.m,
        c.m - c.checked,
        c.checked,
        c.circuits_per_execution()
    );
    println!(
        "    bound for one execution 2^{:.2} (worst case t = {} cracked circuits)",
        c.bound_log2, c.worst_t
    );
}

/// Runs a `params` subcommand.
pub fn run(cmd: ParamsCmd) -> CliResult {
    match cmd {
        ParamsCmd::Lego {
            and_gates,
            inputs,
            s,
            objective,
            beta,
            pg,
            pa,
            json,
        } => {
            let objective = match objective.as_str() {
                "comm" => Objective::Communication,
                "bucket" => Objective::BucketSize,
                o => {
                    return Err(CliError::Usage(format!(
                        "unknown objective `{o}` (comm or bucket)"
                    )))
                }
            };
            let p = match (beta, pg, pa) {
                (Some(b), Some(g), Some(a)) => LegoParams::checked(and_gates, inputs, s, b, g, a)?,
                (None, None, None) => LegoParams::optimise(and_gates, inputs, s, objective)?,
                _ => return Err(CliError::Usage("--beta, --pg and --pa go together".into())),
            };
            let bound = p.bound();
            let (gates, auths) = p.components();
            let cost = p.cost();
            let sec = p.security()?;
            // Every commitment of the Generate call (the count only enters
            // the consistency check's negligible bad-event term).
            let commitments = 4 * gates + auths + 3 * inputs;
            let terms = security::terms(&p, &sec, commitments);
            if json {
                let v = serde_json::json!({
                    "params": p, "bound": bound, "garbled_gates": gates,
                    "authenticators": auths, "independent_bytes": cost.independent_bytes,
                    "component_s": sec.s_c, "commit_code": {
                        "n": sec.commit.n(), "parity": sec.commit.parity(),
                        "distance": sec.commit.distance(),
                    },
                    "terms": terms,
                });
                println!("{v}");
            } else {
                println!("q = {and_gates} AND gates, n = {inputs} inputs, k = 128, s = {s}");
                println!(
                    "beta = {}  alpha = {}  beta_in = {}  alpha_in = {}",
                    p.beta, p.alpha, p.beta_in, p.alpha_in
                );
                println!("p_g = 2^-{}  p_a = 2^-{}", p.tg, p.ta);
                println!("garbled gates Q = {gates}, wire authenticators A = {auths}");
                println!(
                    "Theorem 2: bucket 2^{:.2}, input authenticator 2^{:.2}, input bucket 2^{:.2}, total 2^{:.2} <= 2^-{} (exact)",
                    bound.bucket_log2, bound.input_auth_log2, bound.input_bucket_log2, bound.total_log2,
                    sec.s_c
                );
                println!(
                    "components at s + {} = {}: commitment code [{}, 128, {}], VerLeak {} combinations, {} spare Δ-ROTs, Δ-ROT {} columns, Δ confirmed by >= {} authenticators",
                    security::MARGIN,
                    sec.s_c,
                    sec.commit.n(),
                    sec.commit.distance(),
                    sec.verleak,
                    sec.spare_rots,
                    sec.delta_rot.leaky_len(),
                    sec.confirm
                );
                for t in &terms.terms {
                    println!("  term {:<44} 2^{:.2}", t.name, t.log2);
                }
                println!(
                    "sum of the terms 2^{:.2} <= 2^-{s}: {}",
                    terms.sum_log2,
                    terms.holds()
                );
                println!(
                    "predicted Generate traffic (Alice -> Bob): {:.2} MB",
                    cost.independent_bytes / 1e6
                );
            }
            Ok(())
        }
        ParamsCmd::LindellRiva {
            executions,
            s,
            bucket,
            p,
            recovery_bucket,
            recovery_p,
            objective,
            max_circuits,
            json,
        } => {
            let objective = match objective.as_str() {
                "circuits" => LrObjective::Circuits,
                "bucket" => LrObjective::Bucket,
                o => {
                    return Err(CliError::Usage(format!(
                        "unknown objective `{o}` (circuits or bucket)"
                    )))
                }
            };
            let main = choice(bucket, p, objective, max_circuits)?;
            let recovery = choice(recovery_bucket, recovery_p, objective, max_circuits)?;
            let params = LrParams::new(executions, s, main, recovery)?;
            if json {
                let v = serde_json::json!({
                    "params": params,
                    "execution_bound_log2": params.execution_bound_log2(),
                    "overall_bound_log2": params.overall_bound_log2(),
                });
                println!("{v}");
            } else {
                println!("N = {executions} executions, s = {s} (per execution)");
                print_cc(
                    "main circuit C, Lemma 2.2 (fully cracked bucket)",
                    &params.main,
                );
                print_cc(
                    "recovery circuit C', Lemma 2.3 (majority cracked bucket)",
                    &params.recovery,
                );
                println!(
                    "one execution, either event: <= 2^{:.2}; all N executions (union bound): <= 2^{:.2}",
                    params.execution_bound_log2(),
                    params.overall_bound_log2()
                );
                println!(
                    "circuits to garble: {} (C) + {} (C')",
                    params.main.m, params.recovery.m
                );
            }
            Ok(())
        }
        ParamsCmd::Jimu {
            and_gates,
            s,
            k,
            bucket,
            total,
            json,
        } => {
            let (l, w) = jimu::label_symbols(k)?;
            if s < 40 {
                return Err(CliError::Usage(format!("s = {s} is below 40")));
            }
            let p = match (bucket, total) {
                (Some(b), Some(t)) => CutAndChoose::checked(and_gates, b, t, s)?,
                _ => CutAndChoose::optimise(and_gates, s)?,
            };
            let e = compress_bound::subspace_count(l, w, compress_bound::COMPRESSED_SYMBOLS);
            if json {
                let v = serde_json::json!({
                    "params": p, "checked_gates": p.checked_gates(), "k": k,
                    "label_bits": 8 * l, "label_symbols": l, "watched_symbols": w,
                    "compressed_entropy_bits": e.bits(),
                });
                println!("{v}");
            } else {
                println!("N = {and_gates} AND gates, s = {s}, k = {k}");
                println!(
                    "B = {}  T = {}  (checked {}, kappa = T/N = {:.3})",
                    p.bucket,
                    p.total,
                    p.checked_gates(),
                    p.kappa
                );
                println!(
                    "Sec. 6.3 bound: max_b F(b) = 2^{:.3} at b = {} faulty gates <= 2^-{s} (exact; b searched to {})",
                    p.bound_log2, p.worst_faulty, p.faulty_searched
                );
                println!(
                    "labels: {} bits (l = {l} symbols of GF(2^8), {w} watched), compressed to 128 bits keeping {:.6} bits (Lemma 6.1)",
                    8 * l,
                    e.bits()
                );
            }
            Ok(())
        }
    }
}
