//! `brickyard bench --protocol P …`: the phase table under a shaped link,
//! median over several runs with random inputs.

use crate::error::CliResult;
use crate::twoparty::RunArgs;
use brickyard_core::prg::Prg;
use brickyard_protocols::driver::run_local;
use brickyard_protocols::registry::info;
use brickyard_protocols::report::{median, Report};
use brickyard_protocols::{PartyInputs, Role, RunConfig};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of the protocol benchmark.
#[derive(Args, Debug)]
pub struct ProtocolBenchArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Link shaping: none (plain loopback), lan, wan, compgc, or RTT_MS,MBIT.
    #[arg(long, default_value = "none")]
    pub net: String,
    /// Timed runs; every number reported is the median over runs.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Print the report as JSON (schema: docs/bench-json.md).
    #[arg(long)]
    pub json: bool,
}

fn random_inputs(cfg: &RunConfig, role: Role, prg: &mut Prg) -> Vec<PartyInputs> {
    (0..cfg.executions)
        .map(|_| {
            cfg.groups_of(role)
                .iter()
                .map(|&g| prg.random_bits(cfg.circuit.inputs[g].width()))
                .collect()
        })
        .collect()
}

/// Median of each number over the runs' reports (traffic is taken from the
/// first run: it does not depend on timing). The first execution is the
/// first run's: the only one in a fresh process, as `brickyard run` sees
/// it; later runs reuse the process's warm code and allocator. Steps are
/// medians by position when every run named the same steps (else the
/// first run's).
fn median_report(reports: &[Report]) -> Report {
    let mut r = reports[0].clone();
    let same_steps = reports.iter().all(|x| {
        x.steps.len() == r.steps.len()
            && x.steps
                .iter()
                .zip(&r.steps)
                .all(|(a, b)| (&a.phase, &a.party, &a.name) == (&b.phase, &b.party, &b.name))
    });
    if same_steps {
        for (i, st) in r.steps.iter_mut().enumerate() {
            st.wall_ms = median(
                &reports
                    .iter()
                    .map(|x| x.steps[i].wall_ms)
                    .collect::<Vec<_>>(),
            );
            let cpu: Option<Vec<f64>> = reports.iter().map(|x| x.steps[i].cpu_ms).collect();
            st.cpu_ms = cpu.map(|c| median(&c));
        }
    }
    for (i, p) in r.phases.iter_mut().enumerate() {
        p.wall_ms = median(
            &reports
                .iter()
                .map(|x| x.phases[i].wall_ms)
                .collect::<Vec<_>>(),
        );
    }
    r.online.latency_ms = median(
        &reports
            .iter()
            .map(|x| x.online.latency_ms)
            .collect::<Vec<_>>(),
    );
    r.online.throughput_ms = median(
        &reports
            .iter()
            .map(|x| x.online.throughput_ms)
            .collect::<Vec<_>>(),
    );
    r
}

/// Runs the benchmark.
pub fn run(args: ProtocolBenchArgs) -> CliResult {
    let cfg = args.run.config()?;
    let runs = args.runs.max(1);
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(runs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} runs, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(format!(
        "bench {} on {}",
        args.run.protocol, args.run.circuit
    ));
    let r = measure(&args.run, &cfg, &args.net, runs, || bar.inc(1));
    bar.finish_and_clear();
    let r = r?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&r).map_err(|e| crate::error::CliError::Usage(e.to_string()))?
        );
    } else {
        print!("{}", r.table());
    }
    Ok(())
}

/// The phase table of `runs` runs of `run` (configured as `cfg`) over the
/// link `net` (`--net` syntax), each with fresh random inputs and every
/// output checked against the plaintext evaluation; the median report,
/// with the protocol's notes. `after_run` is called after each run (for
/// progress). `bench --protocol` and `bench report` both measure here, so
/// their numbers mean the same.
pub(crate) fn measure(
    run: &RunArgs,
    cfg: &RunConfig,
    net: &str,
    runs: usize,
    after_run: impl FnMut(),
) -> Result<Report, crate::error::CliError> {
    let mut r = measure_parties(
        &run.protocol,
        &run.circuit,
        cfg,
        net,
        runs,
        |role, cfg| run.new_party(role, cfg),
        after_run,
    )?;
    r.notes.extend(run.tt.notes(&run.protocol));
    Ok(r)
}

/// [`measure`] with the parties made by `new_party` (a protocol with
/// options the registry's defaults do not cover, e.g. jimu at k = 127).
pub(crate) fn measure_parties(
    proto: &str,
    circuit: &str,
    cfg: &RunConfig,
    net: &str,
    runs: usize,
    new_party: impl Fn(
        Role,
        RunConfig,
    ) -> Result<Box<dyn brickyard_protocols::Party>, crate::error::CliError>,
    mut after_run: impl FnMut(),
) -> Result<Report, crate::error::CliError> {
    if cfg.output == brickyard_protocols::OutputMode::Alice {
        return Err(crate::error::CliError::Usage(
            "bench checks Bob's outputs: use --output bob or both".into(),
        ));
    }
    let profile = crate::localnet::profile(net)?;
    let net_name = if profile.is_some() {
        net.to_string()
    } else {
        "loopback".into()
    };
    let runs = runs.max(1);
    let mut prg = Prg::new();
    let mut reports = Vec::with_capacity(runs);
    for _ in 0..runs {
        let a = random_inputs(cfg, Role::Alice, &mut prg);
        let b = random_inputs(cfg, Role::Bob, &mut prg);
        let link = crate::localnet::loopback(profile.clone(), &net_name)?;
        let out = run_local(
            proto,
            circuit,
            new_party(Role::Alice, cfg.clone())?,
            new_party(Role::Bob, cfg.clone())?,
            cfg,
            a.clone(),
            b.clone(),
            link,
        )?;
        // A benchmark of a wrong computation is worthless: check every output.
        for (x, got) in out.bob_outputs.iter().enumerate() {
            let want = cfg
                .circuit
                .eval(&assemble(cfg, &a[x], &b[x]))
                .map_err(brickyard_circuit::Error::from)?;
            if *got != want {
                return Err(crate::error::CliError::Usage(format!(
                    "{proto} computed a wrong output in execution {x}"
                )));
            }
        }
        reports.push(out.report);
        after_run();
    }
    let mut r = median_report(&reports);
    r.notes.insert(
        0,
        format!(
            "{} is {}; median of {runs} run(s)",
            proto,
            info(proto)?.security
        ),
    );
    Ok(r)
}

fn assemble(cfg: &RunConfig, a: &PartyInputs, b: &PartyInputs) -> Vec<Vec<bool>> {
    let mut all = vec![Vec::new(); cfg.circuit.inputs.len()];
    for (&g, v) in cfg.alice_groups.iter().zip(a) {
        all[g] = v.clone();
    }
    for (&g, v) in cfg.bob_groups.iter().zip(b) {
        all[g] = v.clone();
    }
    all
}
