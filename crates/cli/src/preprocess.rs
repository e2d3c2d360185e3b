//! `brickyard preprocess`: run the preprocessing phases now and keep the
//! material in a store for later `brickyard run --store` executions.

use crate::connect::{with_progress, PeerArgs};
use crate::error::CliResult;
use crate::twoparty::RunArgs;
use brickyard_core::prg::Prg;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::Role;
use brickyard_store::{agree_session_id, Store, StoreConfig};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `brickyard preprocess`.
#[derive(Args, Debug)]
#[command(
    after_help = "Preprocessing is made for --executions future executions of --circuit (yao's only\n\
depends on Bob's input width) and kept in --store, one directory per party and session.\n\
Each piece is used once, ever: `brickyard run --store DIR` reserves it durably before use.\n\n\
Example, two terminals:\n  \
brickyard preprocess --role alice --listen 0.0.0.0:7766 --store alice.store --executions 1000\n  \
brickyard preprocess --role bob --connect HOST:7766 --store bob.store --executions 1000\n\
then later, as often as material lasts:\n  \
brickyard run --role alice --listen 0.0.0.0:7766 --store alice.store --input 0x0001…0f\n  \
brickyard run --role bob --connect HOST:7766 --store bob.store --input 0x0011…ff"
)]
pub struct PreprocessArgs {
    #[command(flatten)]
    run: RunArgs,
    /// This party's role.
    #[arg(long, value_parser = ["alice", "bob"])]
    role: String,
    #[command(flatten)]
    peer: PeerArgs,
    /// The store directory to create (must not exist yet).
    #[arg(long)]
    store: PathBuf,
    /// Where the store's MAC key is kept (default: $BRICKYARD_HOME/keys, outside the store).
    #[arg(long)]
    key: Option<PathBuf>,
    /// Print the store summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the preprocessing phases into a new store.
pub fn run(args: PreprocessArgs) -> CliResult {
    let role: Role = args.role.parse().map_err(crate::error::CliError::Usage)?;
    let cfg = args.run.config()?;
    let mut ch = args.peer.open(role.name())?;
    let mut contribution = [0u8; 16];
    Prg::new().fill_bytes(&mut contribution);
    let session = agree_session_id(&mut ch, role.store_role(), contribution)?;
    let mut scfg = StoreConfig::new(&args.run.protocol, role.store_role(), session);
    scfg.key_path = args.key.clone();
    let store = Store::create(&args.store, scfg)?;
    let mut party = args.run.new_party(role, cfg.clone())?;
    party.attach_store(store)?;
    let phases = PhaseSet {
        preprocess: true,
        online: false,
    };
    let run = with_progress(&cfg.progress, args.json, "preprocessing", || {
        run_party(
            &args.run.protocol,
            party.as_mut(),
            role,
            &mut ch,
            &cfg,
            &[],
            phases,
        )
    })?;
    drop(party);
    let info = brickyard_store::info_with_key(&args.store, args.key.as_deref())?;
    if args.json {
        let v = serde_json::json!({
            "role": role.name(),
            "store": args.store,
            "phases": run.phases.iter().zip(brickyard_protocols::report::PHASE_NAMES).take(3).map(|(p, n)| serde_json::json!({
                "name": n, "wall_ms": p.wall_ms, "bytes_sent": p.traffic.bytes_sent, "bytes_received": p.traffic.bytes_received,
            })).collect::<Vec<_>>(),
            "info": info,
        });
        println!("{v}");
    } else {
        for (p, n) in run
            .phases
            .iter()
            .zip(brickyard_protocols::report::PHASE_NAMES)
            .take(3)
        {
            println!(
                "{n:<12} {:>10.1} ms  sent {:>12} B  received {:>12} B",
                p.wall_ms, p.traffic.bytes_sent, p.traffic.bytes_received
            );
        }
        print!("{}", crate::store::render(&info));
    }
    Ok(())
}
