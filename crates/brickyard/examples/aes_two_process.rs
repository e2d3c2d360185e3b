//! Two-party AES-128 from two processes (or machines): Alice holds the
//! key, Bob the plaintext; Bob learns the ciphertext.
//!
//! ```sh
//! cargo run --release -p brickyard --example aes_two_process -- --role alice --addr 127.0.0.1:7766 &
//! cargo run --release -p brickyard --example aes_two_process -- --role bob --addr 127.0.0.1:7766
//! ```
//!
//! Optional: `--protocol NAME` (default yao), `--input HEX` (default: the
//! FIPS-197 C.1 key for Alice, plaintext for Bob; Bob then checks the
//! ciphertext against FIPS-197).

use brickyard::{circuit, net, Computation, Role};

/// FIPS-197 Appendix C.1, in the builtin's value convention.
pub const KEY: &str = "0x000102030405060708090a0b0c0d0e0f";
/// FIPS-197 C.1 plaintext.
pub const PLAINTEXT: &str = "0x00112233445566778899aabbccddeeff";
/// FIPS-197 C.1 ciphertext.
pub const CIPHERTEXT: &str = "0x69c4e0d86a7b0430d8cdb78070b4c55a";

/// Runs one party: Alice listens on `addr`, Bob connects to it. Returns
/// Bob's ciphertext as hex (`None` for Alice, who learns nothing).
pub fn run(
    protocol: &str,
    role: Role,
    addr: &str,
    input: &str,
) -> brickyard::Result<Option<String>> {
    let c = Computation::builtin(protocol, "aes128")?;
    let width = c.circuit().inputs[if role == Role::Alice { 0 } else { 1 }].width();
    let value = circuit::parse_value(input, width).map_err(brickyard::Error::config)?;
    let opts = net::NetOptions::default();
    let mut ch = match role {
        Role::Alice => net::accept_on(addr, &opts)?,
        Role::Bob => net::connect(addr, &opts)?,
    };
    let run = c.run_party(role, &mut ch, &[value])?;
    for (name, phase) in brickyard::PHASE_NAMES.iter().zip(&run.phases) {
        eprintln!(
            "{}: {name:<12} {:>9.3} ms  sent {:>9} B  received {:>9} B",
            role.name(),
            phase.wall_ms,
            phase.traffic.bytes_sent,
            phase.traffic.bytes_received
        );
    }
    Ok(run.outputs[0]
        .as_ref()
        .map(|o| circuit::format_value(&o[0], circuit::ValueFormat::Hex)))
}

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut role = None;
    let mut addr = "127.0.0.1:7766".to_string();
    let mut protocol = "yao".to_string();
    let mut input = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--role" => role = Some(val()?.parse::<Role>()?),
            "--addr" => addr = val()?,
            "--protocol" => protocol = val()?,
            "--input" => input = Some(val()?),
            other => return Err(format!("unknown argument `{other}`").into()),
        }
    }
    let role = role.ok_or("--role alice|bob is required")?;
    let fips = input.is_none();
    let input = input.unwrap_or_else(|| match role {
        Role::Alice => KEY.to_string(),
        Role::Bob => PLAINTEXT.to_string(),
    });
    match run(&protocol, role, &addr, &input)? {
        Some(ct) => {
            println!("ciphertext {ct}");
            if fips && ct != CIPHERTEXT {
                return Err(format!("expected FIPS-197 {CIPHERTEXT}").into());
            }
        }
        None => println!("{}: done (Alice learns no output)", role.name()),
    }
    Ok(())
}
