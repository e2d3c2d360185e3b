//! `brickyard run`: one party per process, over TCP.

use crate::circuit::Format;
use crate::error::CliResult;
use crate::twoparty::{
    format_outputs, input_values, party_inputs, print_outputs, stdin_if_asked, RunArgs,
};
use brickyard_protocols::driver::{run_party, PartyRun, PhaseSet};
use brickyard_protocols::report::median;
use brickyard_protocols::Role;
use brickyard_store::{Expected, Store};
use clap::Args;
use serde_json::json;

/// Arguments of `brickyard run`.
#[derive(Args, Debug)]
#[command(
    after_help = concat!("Start one process per party, in either order (connect retries until --connect-timeout).\n\n\
Example, two terminals on one machine (plain TCP on loopback):\n  \
brickyard run --role alice --listen 127.0.0.1:7766 --circuit builtin:aes128 --input 0x000102030405060708090a0b0c0d0e0f\n  \
brickyard run --role bob --connect 127.0.0.1:7766 --circuit builtin:aes128 --input 0x00112233445566778899aabbccddeeff\n\n\
Two machines: mutual TLS 1.3. Each party makes an identity once (`brickyard tls keygen --out DIR`) and\n\
gives the peer its cert.pem or fingerprint; secret inputs from a file or stdin, not the command line:\n  \
brickyard run --role alice --listen 0.0.0.0:7766 --circuit builtin:aes128 --input-file alice.in \\\n    \
--cert alice.tls/cert.pem --cert-key alice.tls/key.pem --peer-fingerprint sha256:<bob's>\n  \
brickyard run --role bob --connect HOST:7766 --circuit builtin:aes128 --input - < bob.in \\\n    \
--cert bob.tls/cert.pem --cert-key bob.tls/key.pem --peer-ca alice-cert.pem\n\
A non-loopback address without TLS flags is refused unless --plain is given.\n\n\
With --store DIR the run uses preprocessing made earlier by `brickyard preprocess` (see its --help).\n\
For lego the store holds function-independent Generate batches: this run first builds --executions\n\
copies of --circuit from unused buckets (Build, the dependent phase), then evaluates them; jimu\n\
likewise builds each run's circuit from its store's unused buckets and wire pools.\n\
Both parties must give the same --protocol, --circuit, --alice-groups/--bob-groups, --output and --executions;\n\
the run stops with an error before any cryptography if they differ.\n\n",
    crate::localnet::spin_help!())
)]
pub struct RunCmdArgs {
    #[command(flatten)]
    run: RunArgs,
    /// This party's role.
    #[arg(long, value_parser = ["alice", "bob"])]
    role: String,
    #[command(flatten)]
    peer: crate::connect::PeerArgs,
    /// Use preprocessing from this store (made by `brickyard preprocess`)
    /// instead of preprocessing now.
    #[arg(long)]
    store: Option<std::path::PathBuf>,
    /// The store's key file, if not in the default place.
    #[arg(long, requires = "store")]
    key: Option<std::path::PathBuf>,
    /// After a run that stopped on one side (crash, kill, lost connection):
    /// let both stores move forward to the larger next index, burning the
    /// material only one side reserved, and cut records only one side
    /// holds. Both parties must pass it; without it such stores are refused.
    #[arg(long, requires = "store")]
    resync: bool,
    /// This party's value for its next input group (one per owned group, or
    /// one per owned group per execution); `--input -` reads the values
    /// from stdin. Values on the command line show in `ps` and shell
    /// history: for secrets use `--input -` or `--input-file`.
    #[arg(long = "input", value_name = "V")]
    inputs: Vec<String>,
    /// Read this party's values from a file (whitespace- or newline-separated,
    /// `#` starts a comment), in the order `--input` takes them.
    #[arg(long, value_name = "PATH", conflicts_with = "inputs")]
    input_file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Hex)]
    format: Format,
    /// Print outputs and this party's statistics as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs one party. Everything that can fail locally (arguments, inputs,
/// the address, the store) is checked before connecting, so a mistake is
/// reported at once instead of after the peer has waited; once connected,
/// a failure is sent to the peer as an abort (see the driver).
pub fn run(args: RunCmdArgs) -> CliResult {
    let role: Role = args.role.parse().map_err(crate::error::CliError::Usage)?;
    args.peer.check()?;
    let mut cfg = args.run.config()?;
    let mut stdin = stdin_if_asked(&[&args.inputs])?;
    let values = input_values(&args.inputs, args.input_file.as_deref(), &mut stdin)?;
    let inputs = party_inputs(&cfg, role, &values)?;
    crate::limits::check_memory(&args.run.protocol, &cfg, args.store.is_some())?;
    let mut party = args.run.new_party(role, cfg.clone())?;
    // The store is opened before connecting: one made for another circuit,
    // MAC scheme, preprocessing source (--dealer) or protocol is refused
    // here, naming what differs, before any material is touched.
    let phases = match &args.store {
        Some(dir) => {
            let mut expected = Expected::new(&args.run.protocol, role.store_role());
            expected.key_path = args.key.clone();
            expected.parameters = party.store_parameters();
            let mut store = Store::open(dir, &expected)?;
            store.check_usable()?;
            store.allow_resync(args.resync);
            cfg.store_session = Some(store.session_id().to_hex());
            party.attach_store(store)?;
            PhaseSet {
                preprocess: false,
                online: true,
            }
        }
        None => PhaseSet::ALL,
    };
    let mut ch = args.peer.open(role.name())?;
    let quiet = args.json;
    let run = crate::connect::with_progress(&cfg.progress, quiet, "executions", || {
        run_party(
            &args.run.protocol,
            party.as_mut(),
            role,
            &mut ch,
            &cfg,
            &inputs,
            phases,
        )
    })?;
    report(&args, role, &run, &ch.security())
}

fn report(
    args: &RunCmdArgs,
    role: Role,
    run: &PartyRun,
    channel: &brickyard_core::channel::LinkSecurity,
) -> CliResult {
    let outs: Vec<_> = run.outputs.iter().flatten().cloned().collect();
    // This process sees only its own side of the traffic and time.
    let latency_ms = median(&run.execution_ms);
    let first_ms = run.execution_ms.first().copied().unwrap_or(0.0);
    if args.json {
        let formatted: Vec<Vec<String>> = outs
            .iter()
            .map(|o| format_outputs(o, args.format))
            .collect();
        let v = json!({
            "role": role.name(),
            "channel": channel,
            "outputs": formatted,
            "phases": run.phases.iter().zip(brickyard_protocols::report::PHASE_NAMES).map(|(p, n)| json!({
                "name": n, "wall_ms": p.wall_ms, "bytes_sent": p.traffic.bytes_sent,
                "bytes_received": p.traffic.bytes_received, "flights_sent": p.traffic.rounds,
            })).collect::<Vec<_>>(),
            "online": {"latency_ms": latency_ms, "first_ms": first_ms, "execution_ms": run.execution_ms},
            "steps": run.steps.iter().map(|(i, st)| json!({
                "phase": brickyard_protocols::report::PHASE_NAMES[*i], "name": st.name, "wall_ms": st.ms,
                "cpu_ms": st.cpu_ms,
            })).collect::<Vec<_>>(),
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
    for (i, st) in &run.steps {
        eprintln!(
            "  {:<12} {:<36} {:>9.3} ms wall {:>9} ms cpu",
            brickyard_protocols::report::PHASE_NAMES[*i],
            st.name,
            st.ms,
            st.cpu_ms.map_or("-".to_string(), |c| format!("{c:.3}"))
        );
    }
    eprintln!(
        "online latency {} (median, this side), first execution {}",
        brickyard_protocols::report::human_ms(latency_ms),
        brickyard_protocols::report::human_ms(first_ms)
    );
    Ok(())
}
