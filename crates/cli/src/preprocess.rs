//! `brickyard preprocess`: run the preprocessing phases now and keep the
//! material in a store for later `brickyard run --store` executions.

use crate::connect::{with_progress, PeerArgs};
use crate::error::CliResult;
use crate::twoparty::RunArgs;
use brickyard_core::prg::Prg;
use brickyard_protocols::driver::{run_party, PhaseSet};
use brickyard_protocols::lego::{GenerateSize, LegoOptions};
use brickyard_protocols::Role;
use brickyard_store::{agree_session_id, Expected, Store, StoreConfig};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `brickyard preprocess`.
#[derive(Args, Debug)]
#[command(
    after_help = "Preprocessing is made for --executions future executions of --circuit (yao's only\n\
depends on Bob's input width) and kept in --store, one directory per party and session.\n\
Each piece is used once, ever: `brickyard run --store DIR` reserves it durably before use.\n\n\
Between two machines add the TLS flags (see `brickyard run --help`): --cert, --cert-key and\n\
--peer-ca or --peer-fingerprint; a non-loopback address without them is refused unless --plain.\n\
Below, $TLS stands for this party's flags, e.g. --cert me.tls/cert.pem --cert-key me.tls/key.pem\n\
--peer-fingerprint sha256:<the peer's, from `brickyard tls fingerprint`>.\n\n\
Example, two terminals:\n  \
brickyard preprocess --role alice --listen 0.0.0.0:7766 --store alice.store --executions 1000 $TLS\n  \
brickyard preprocess --role bob --connect HOST:7766 --store bob.store --executions 1000 $TLS\n\
then later, as often as material lasts:\n  \
brickyard run --role alice --listen 0.0.0.0:7766 --store alice.store --input 0x0001…0f $TLS\n  \
brickyard run --role bob --connect HOST:7766 --store bob.store --input 0x0011…ff $TLS\n\n\
LEGO's preprocessing is function-independent (NST17 Generate): it needs only sizes, either\n\
--and-gates Q --inputs N --outputs M, or enough for --executions copies of --circuit. The\n\
circuit is chosen later: `brickyard run --store` builds it from unused buckets (Build), then\n\
evaluates. Running preprocess again on the same stores adds a batch (each batch has its own\n\
Δ and commitment session; one built copy takes all its buckets from one batch):\n  \
brickyard preprocess --protocol lego --role alice --listen 0.0.0.0:7766 --store a.store --and-gates 100000 --inputs 4096 --outputs 2048 $TLS\n  \
brickyard preprocess --protocol lego --role bob --connect HOST:7766 --store b.store --and-gates 100000 --inputs 4096 --outputs 2048 $TLS\n\
then later, for any circuit that fits:\n  \
brickyard run --protocol lego --circuit builtin:aes128 --role alice --listen 0.0.0.0:7766 --store a.store --input 0x0001…0f $TLS\n  \
brickyard run --protocol lego --circuit builtin:aes128 --role bob --connect HOST:7766 --store b.store --input 0x0011…ff $TLS\n\n\
JIMU's preprocessing is function-independent too (Setup with Step 5b, Generate with the wire pools,\n\
Check, the OTs of Bob's input shares): --and-gates Q --inputs N makes Q AND buckets and pools for N\n\
input bits of each party (--outputs is required with them and not used: outputs take no material),\n\
or enough for --executions copies of --circuit. Each later `run --store` builds its circuit (any\n\
circuit that fits) from unused records. Running preprocess again on the same stores adds a\n\
batch with its own Setup (one run takes all its material from one batch):\n  \
brickyard preprocess --protocol jimu --role alice --listen 0.0.0.0:7766 --store a.store --and-gates 20000 --inputs 512 --outputs 0 $TLS\n  \
brickyard preprocess --protocol jimu --role bob --connect HOST:7766 --store b.store --and-gates 20000 --inputs 512 --outputs 0 $TLS"
)]
pub struct PreprocessArgs {
    #[command(flatten)]
    run: RunArgs,
    /// This party's role.
    #[arg(long, value_parser = ["alice", "bob"])]
    role: String,
    #[command(flatten)]
    peer: PeerArgs,
    /// The store directory to create (must not exist yet, except for lego
    /// and jimu, which add a batch to an existing store of the same session).
    #[arg(long)]
    store: PathBuf,
    /// lego, jimu: Generate(q, n, m) for q AND gates (with --inputs and
    /// --outputs), instead of enough for --executions copies of --circuit.
    #[arg(long, value_name = "Q", requires_all = ["inputs", "outputs"])]
    and_gates: Option<u64>,
    /// lego: n input wires (input buckets, and as many Δ-ROTs); jimu: n
    /// input bits of each party (pool wires, Bob's s shares each).
    #[arg(long, value_name = "N", requires_all = ["and_gates", "outputs"])]
    inputs: Option<u64>,
    /// lego: m output wires (output blinders); jimu: not used.
    #[arg(long, value_name = "M", requires_all = ["and_gates", "inputs"])]
    outputs: Option<u64>,
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
    let lego = args.run.protocol == "lego";
    let jimu = args.run.protocol == "jimu";
    let sizes = match (args.and_gates, args.inputs, args.outputs) {
        (Some(and_gates), Some(inputs), Some(outputs)) => Some(GenerateSize {
            and_gates,
            inputs,
            outputs,
        }),
        _ => None,
    };
    if sizes.is_some() && !lego && !jimu {
        return Err(crate::error::CliError::Usage(
            "--and-gates/--inputs/--outputs size lego's and jimu's Generate; other protocols take --executions"
                .into(),
        ));
    }
    // Local mistakes are reported before connecting: the address, the
    // store directory, the memory a Generate of this size needs.
    args.peer.check()?;
    let add_batch = (lego || jimu) && args.store.join("manifest.json").exists();
    if !add_batch && args.store.exists() {
        return Err(crate::error::CliError::Usage(format!(
            "{}: already exists (preprocess makes a new store; only lego and jimu add batches to an existing one)",
            args.store.display()
        )));
    }
    if args.run.protocol == "lindell-riva" {
        crate::limits::check_lr_preprocess(&cfg, role, &args.store)?;
    } else if lego {
        crate::limits::check_lego_generate(&cfg, sizes)?;
    } else if sizes.is_none() {
        crate::limits::check_memory(&args.run.protocol, &cfg, false)?;
    }
    let mut party = match sizes {
        Some(g) if jimu => {
            let size = brickyard_protocols::jimu::PoolSize {
                and_gates: g.and_gates,
                alice_inputs: g.inputs,
                bob_inputs: g.inputs,
            };
            args.run
                .tt
                .jimu_party_sized(role, cfg.clone(), Some(size))?
        }
        Some(g) => {
            args.run.cg.check_other("lego")?;
            let opts = LegoOptions {
                generate: Some(g),
                ..Default::default()
            };
            args.run.tt.lego_party(role, cfg.clone(), opts)?
        }
        None => args.run.new_party(role, cfg.clone())?,
    };
    // What the material is bound to (checked by every later run) and what
    // `store info` calls it.
    let parameters = party.store_parameters();
    let mut about = std::collections::BTreeMap::new();
    if lego {
        about.insert(
            "material".to_string(),
            "function-independent (LEGO Generate batches)".to_string(),
        );
    } else if jimu {
        about.insert(
            "material".to_string(),
            "function-independent (JIMU Setup, Generate, Check, share OTs)".to_string(),
        );
    } else {
        about.insert("circuit".to_string(), args.run.circuit.clone());
        about.insert(
            "executions made".to_string(),
            args.run.executions.to_string(),
        );
    }
    // Adding a lego or jimu batch to an existing store: open it (and check what it
    // was made for) before connecting.
    let existing = if add_batch {
        let mut expected = Expected::new(&args.run.protocol, role.store_role());
        expected.key_path = args.key.clone();
        expected.parameters = parameters.clone();
        let store = Store::open(&args.store, &expected)?;
        store.check_usable()?;
        Some(store)
    } else {
        None
    };
    let mut ch = args.peer.open(role.name())?;
    let opened = (|| -> Result<Store, brickyard_core::Error> {
        let mut contribution = [0u8; 16];
        Prg::new().fill_bytes(&mut contribution);
        let session = agree_session_id(&mut ch, role.store_role(), contribution)?;
        match existing {
            // Another batch; the run agreement checks the peer's store
            // is of the same session before anything is generated.
            Some(store) => Ok(store),
            None => {
                let mut scfg = StoreConfig::new(&args.run.protocol, role.store_role(), session);
                scfg.key_path = args.key.clone();
                scfg.parameters = parameters;
                scfg.about = about;
                Store::create(&args.store, scfg)
            }
        }
    })();
    let store = match opened {
        Ok(s) => s,
        Err(e) => {
            brickyard_protocols::driver::abort_peer(&mut ch, &e);
            return Err(e.into());
        }
    };
    if let Err(e) = party.attach_store(store) {
        brickyard_protocols::driver::abort_peer(&mut ch, &e);
        return Err(e.into());
    }
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
            "channel": ch.security(),
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
