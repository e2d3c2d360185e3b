//! `brickyard demo`: both parties in one process over loopback TCP.

use crate::circuit::Format;
use crate::error::{CliError, CliResult};
use crate::twoparty::{
    format_outputs, input_values, party_inputs, print_outputs, stdin_if_asked, RunArgs,
};
use brickyard_protocols::{driver::run_local, Role};
use clap::Args;
use serde_json::json;

/// FIPS-197 Appendix C.1, in the builtin's value convention.
const FIPS_KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
const FIPS_PLAINTEXT: &str = "0x00112233445566778899aabbccddeeff";
const FIPS_CIPHERTEXT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

/// Arguments of `brickyard demo`.
#[derive(Args, Debug)]
#[command(
    after_help = concat!("With no arguments: AES-128 on the FIPS-197 C.1 vector (Alice's key, Bob's plaintext).\n\
Values: 0x… (hex integer, wire i = bit i), decimal, or b… (bit string, char k = wire k).\n\n\
Examples:\n  \
brickyard demo\n  \
brickyard demo --circuit builtin:add32 --alice 5 --bob 7 --format int --output both\n  \
brickyard demo --circuit ../shared/circuits/bristol_fashion/sha256.txt --alice-groups 0,1 \\\n      \
--alice 0x61626380000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000018 \\\n      \
--alice 0x6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19\n  \
brickyard demo --executions 10 --json\n\n",
    crate::localnet::spin_help!())
)]
pub struct DemoArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Alice's value for her next input group (`--alice -`: read her values from stdin).
    #[arg(long = "alice", value_name = "V")]
    alice: Vec<String>,
    /// Bob's value for his next input group (`--bob -`: read his values from stdin).
    #[arg(long = "bob", value_name = "V")]
    bob: Vec<String>,
    /// Read Alice's values from a file (whitespace-separated, `#` comments).
    #[arg(long, value_name = "PATH", conflicts_with = "alice")]
    alice_file: Option<std::path::PathBuf>,
    /// Read Bob's values from a file (whitespace-separated, `#` comments).
    #[arg(long, value_name = "PATH", conflicts_with = "bob")]
    bob_file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Hex)]
    format: Format,
    /// Network shaping on the loopback link: none, lan, wan, compgc, or RTT_MS,MBIT.
    #[arg(long, default_value = "none")]
    net: String,
    /// Print outputs and the phase table as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the demo.
pub fn run(args: DemoArgs) -> CliResult {
    if args.run.tt.list_cheats(&args.run.protocol)? {
        return Ok(());
    }
    let fips = args.run.circuit == "builtin:aes128"
        && args.alice.is_empty()
        && args.bob.is_empty()
        && args.alice_file.is_none()
        && args.bob_file.is_none();
    let (alice, bob) = if fips {
        (vec![FIPS_KEY.to_string()], vec![FIPS_PLAINTEXT.to_string()])
    } else {
        if args.alice.iter().any(|v| v == "-") && args.bob.iter().any(|v| v == "-") {
            return Err(CliError::Usage(
                "only one of --alice - and --bob - can read stdin; use --alice-file/--bob-file for the other".into(),
            ));
        }
        let mut stdin = stdin_if_asked(&[&args.alice, &args.bob])?;
        (
            input_values(&args.alice, args.alice_file.as_deref(), &mut stdin)?,
            input_values(&args.bob, args.bob_file.as_deref(), &mut stdin)?,
        )
    };
    let cfg = args.run.config()?;
    let a_in = party_inputs(&cfg, Role::Alice, &alice)?;
    let b_in = party_inputs(&cfg, Role::Bob, &bob)?;
    crate::limits::check_memory_for(&args.run.protocol, &cfg, false, 2)?;
    let profile = crate::localnet::profile(&args.net)?;
    let net_name = if profile.is_some() {
        args.net.clone()
    } else {
        "loopback".to_string()
    };
    let net = crate::localnet::loopback(profile, &net_name)?;
    let proto = &args.run.protocol;
    let info = brickyard_protocols::registry::info(proto)?;
    let (pa, pb) = (
        args.run.new_party(Role::Alice, cfg.clone())?,
        args.run.new_party(Role::Bob, cfg.clone())?,
    );
    let result = crate::connect::with_progress(&cfg.progress, args.json, "demo", || {
        run_local(proto, &args.run.circuit, pa, pb, &cfg, a_in, b_in, net)
    })?;
    let mut report = result.report;
    report
        .notes
        .insert(0, format!("{} is {}", info.name, info.security));
    report.notes.extend(args.run.tt.notes(proto));
    // The outputs shown: Bob's, or Alice's when only she learns them.
    let shown = match (&result.alice_outputs, result.bob_outputs.is_empty()) {
        (Some(a), true) => a.clone(),
        _ => result.bob_outputs.clone(),
    };
    if args.json {
        let outs: Vec<Vec<String>> = shown
            .iter()
            .map(|o| format_outputs(o, args.format))
            .collect();
        let mut v = json!({ "outputs": outs, "report": report });
        if fips {
            v["expected"] = json!(FIPS_CIPHERTEXT);
        }
        println!("{v}");
        return Ok(());
    }
    if fips {
        println!("AES-128, FIPS-197 C.1: Alice's key {FIPS_KEY}, Bob's plaintext {FIPS_PLAINTEXT}");
    }
    println!(
        "output ({}):",
        match (
            result.alice_outputs.is_some(),
            result.bob_outputs.is_empty()
        ) {
            (true, true) => "Alice",
            (true, false) => "Bob and Alice",
            _ => "Bob",
        }
    );
    print_outputs(&shown, args.format)?;
    if fips {
        let got = format_outputs(&shown[0], Format::Hex);
        let ok = got.first().map(String::as_str) == Some(FIPS_CIPHERTEXT);
        println!(
            "expected {FIPS_CIPHERTEXT}: {}",
            if ok { "match" } else { "MISMATCH" }
        );
        if !ok {
            return Err(CliError::Usage(
                "the demo's output does not match FIPS-197".into(),
            ));
        }
    }
    println!();
    print!("{}", report.table());
    Ok(())
}
