//! `brickyard run`: one party per process, over TCP.

use crate::circuit::Format;
use crate::error::CliResult;
use crate::twoparty::{format_outputs, party_inputs, print_outputs, RunArgs};
use brickyard_core::channel::{accept, connect, listen, NetOptions};
use brickyard_protocols::driver::{run_party, PartyRun, PhaseSet};
use brickyard_protocols::registry::new_party;
use brickyard_protocols::report::median;
use brickyard_protocols::Role;
use clap::Args;
use serde_json::json;
use std::time::Duration;

/// Arguments of `brickyard run`.
#[derive(Args, Debug)]
#[command(
    after_help = "Start one process per party, in either order (connect retries until --connect-timeout).\n\n\
Example, two terminals (or two machines):\n  \
brickyard run --role alice --listen 0.0.0.0:7766 --circuit builtin:aes128 --input 0x000102030405060708090a0b0c0d0e0f\n  \
brickyard run --role bob --connect HOST:7766 --circuit builtin:aes128 --input 0x00112233445566778899aabbccddeeff\n\n\
Both parties must give the same --protocol, --circuit, --alice-groups/--bob-groups, --output and --executions;\n\
the run stops with an error before any cryptography if they differ."
)]
pub struct RunCmdArgs {
    #[command(flatten)]
    run: RunArgs,
    /// This party's role.
    #[arg(long, value_parser = ["alice", "bob"])]
    role: String,
    /// Wait for the peer on this address (e.g. 0.0.0.0:7766).
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    listen: Option<String>,
    /// Connect to the peer at this address (e.g. 10.0.0.2:7766).
    #[arg(long)]
    connect: Option<String>,
    /// This party's value for its next input group (one per owned group, or
    /// one per owned group per execution).
    #[arg(long = "input", value_name = "V")]
    inputs: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Hex)]
    format: Format,
    /// Seconds without progress before a read fails.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Seconds to keep retrying --connect (or waiting in --listen).
    #[arg(long, default_value_t = 60)]
    connect_timeout: u64,
    /// Print outputs and this party's statistics as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs one party.
pub fn run(args: RunCmdArgs) -> CliResult {
    let role: Role = args.role.parse().map_err(crate::error::CliError::Usage)?;
    let cfg = args.run.config()?;
    let inputs = party_inputs(&cfg, role, &args.inputs)?;
    let opts = NetOptions {
        read_timeout: Duration::from_secs(args.timeout),
        connect_timeout: Duration::from_secs(args.connect_timeout),
        accept_timeout: Duration::from_secs(args.connect_timeout),
        profile: None,
    };
    let mut ch = match (&args.listen, &args.connect) {
        (Some(addr), _) => {
            let l = listen(addr)?;
            if !args.json {
                eprintln!(
                    "{}: listening on {}",
                    role.name(),
                    l.local_addr().map_err(brickyard_core::Error::Io)?
                );
            }
            accept(&l, &opts)?
        }
        (None, Some(addr)) => connect(addr, &opts)?,
        (None, None) => unreachable!("clap requires --listen or --connect"),
    };
    let mut party = new_party(&args.run.protocol, role, cfg.clone())?;
    let run = run_party(
        &args.run.protocol,
        party.as_mut(),
        role,
        &mut ch,
        &cfg,
        &inputs,
        PhaseSet::ALL,
    )?;
    report(&args, role, &run)
}

fn report(args: &RunCmdArgs, role: Role, run: &PartyRun) -> CliResult {
    let outs: Vec<_> = run.outputs.iter().flatten().cloned().collect();
    // This process sees only its own side of the traffic and time.
    let latency_ms = median(&run.execution_ms);
    if args.json {
        let formatted: Vec<Vec<String>> = outs
            .iter()
            .map(|o| format_outputs(o, args.format))
            .collect();
        let v = json!({
            "role": role.name(),
            "outputs": formatted,
            "phases": run.phases.iter().zip(brickyard_protocols::report::PHASE_NAMES).map(|(p, n)| json!({
                "name": n, "wall_ms": p.wall_ms, "bytes_sent": p.traffic.bytes_sent,
                "bytes_received": p.traffic.bytes_received, "flights_sent": p.traffic.rounds,
            })).collect::<Vec<_>>(),
            "online": {"latency_ms": latency_ms},
        });
        println!("{v}");
        return Ok(());
    }
    if outs.is_empty() {
        println!("{}: done (this party learns no output)", role.name());
    } else {
        print_outputs(&outs, args.format)?;
    }
    eprintln!(
        "{:<12} {:>12} {:>14} {:>14}",
        "phase", "wall ms", "bytes sent", "bytes recv"
    );
    for (p, n) in run
        .phases
        .iter()
        .zip(brickyard_protocols::report::PHASE_NAMES)
    {
        eprintln!(
            "{:<12} {:>12.3} {:>14} {:>14}",
            n, p.wall_ms, p.traffic.bytes_sent, p.traffic.bytes_received
        );
    }
    eprintln!("online latency {latency_ms:.3} ms (median, this side)");
    Ok(())
}
