//! Yao's millionaires' problem on a circuit written with the builder:
//! Alice and Bob learn whether Alice is richer (x > y) and nothing else.
//!
//! ```sh
//! cargo run -p brickyard --example millionaires -- 1000000 999999 [PROTOCOL]
//! ```

use brickyard::{bits, net, BitVec, CircuitBuilder, Computation, OutputMode};

/// x > y on 64-bit unsigned wealth: 64 AND gates (the borrow chain of y − x).
pub fn richer_circuit() -> brickyard::Circuit {
    let mut b = CircuitBuilder::new();
    let x = b.input("alice_wealth", 64);
    let y = b.input("bob_wealth", 64);
    let alice_richer = b.lt(&y, &x);
    b.output("alice_richer", &BitVec(vec![alice_richer]));
    b.finish()
}

/// Runs both parties in this process over loopback TCP; both learn the bit.
pub fn alice_is_richer(protocol: &str, x: u64, y: u64) -> brickyard::Result<bool> {
    let c = Computation::new(protocol, richer_circuit())?
        .named("millionaires")
        .with_output(OutputMode::Both);
    let run = c.run_local(
        &[bits(x.into(), 64)],
        &[bits(y.into(), 64)],
        net::loopback()?,
    )?;
    let bob_sees = run.bob_outputs[0][0][0];
    let alice_sees = run.alice_outputs.as_ref().map(|o| o[0][0][0]);
    assert_eq!(
        alice_sees,
        Some(bob_sees),
        "both parties learn the same bit"
    );
    print!("{}", run.report.table());
    Ok(bob_sees)
}

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let x: u64 = args.first().map_or(Ok(1_000_000), |s| s.parse())?;
    let y: u64 = args.get(1).map_or(Ok(999_999), |s| s.parse())?;
    let protocol = args.get(2).map_or("yao", String::as_str);
    let richer = alice_is_richer(protocol, x, y)?;
    println!(
        "Alice ({x}) {} Bob ({y})",
        if richer {
            "is richer than"
        } else {
            "is not richer than"
        }
    );
    Ok(())
}
