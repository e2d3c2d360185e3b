//! Preprocess now, compute later: both parties preprocess for three
//! executions into their own stores, then run three separate online
//! executions from them; a fourth finds the material used up. Each piece
//! of material is used once, ever (reserved durably before use).
//!
//! ```sh
//! cargo run -p brickyard --example preprocess_then_run [-- DIR]
//! ```
//! Stores and keys go to DIR (default: a fresh temporary directory).

use brickyard::{bits, net, Computation, Error, PartyRun, Role, StoreLocation};
use std::path::Path;

/// Runs `f` as Alice in a thread and as Bob here, over loopback TCP.
fn both<F>(f: F) -> brickyard::Result<(PartyRun, PartyRun)>
where
    F: Fn(Role, &mut brickyard::Channel) -> brickyard::Result<PartyRun>
        + Send
        + Sync
        + Clone
        + 'static,
{
    let net = net::loopback()?;
    let (mut ch_a, mut ch_b) = (net.alice, net.bob);
    let fa = f.clone();
    let alice = std::thread::spawn(move || fa(Role::Alice, &mut ch_a));
    let bob = f(Role::Bob, &mut ch_b);
    let alice = alice
        .join()
        .map_err(|_| Error::config("Alice's thread panicked"))?;
    Ok((alice?, bob?))
}

/// The whole story in `dir`; returns Bob's three sums.
pub fn story(dir: &Path) -> brickyard::Result<Vec<u128>> {
    let loc = |who: &str| {
        StoreLocation::new(dir.join(format!("{who}.store")))
            .with_key(dir.join(format!("{who}.key")))
    };
    let stores = [loc("alice"), loc("bob")];
    let pick = move |role: Role| stores[if role == Role::Alice { 0 } else { 1 }].clone();

    // Offline: preprocessing for 3 executions of the 32-bit adder.
    let batch = Computation::builtin("yao", "add32")?.with_executions(3)?;
    let (pre, p) = (batch.clone(), pick.clone());
    let (_, bob) = both(move |role, ch| pre.preprocess(role, ch, &p(role)))?;
    println!(
        "preprocessed: {:.1} ms of Bob's time",
        bob.phases.iter().map(|p| p.wall_ms).sum::<f64>()
    );
    println!("{:?}", pick(Role::Bob).info()?.kinds);

    // Online, later: one execution per run, as needed.
    let once = Computation::builtin("yao", "add32")?;
    let mut sums = Vec::new();
    for (x, y) in [(1u128, 2u128), (30, 12), (1 << 31, 1 << 31)] {
        let (c, p) = (once.clone(), pick.clone());
        let (_, bob) = both(move |role, ch| {
            let v = if role == Role::Alice { x } else { y };
            c.run_stored(role, ch, &p(role), &[bits(v, 32)])
        })?;
        let sum = brickyard::to_u128(&bob.outputs[0].as_ref().expect("Bob learns the sum")[0])
            .unwrap_or(0);
        println!(
            "{x} + {y} = {sum} (mod 2^32), online {:.3} ms",
            bob.phases[3].wall_ms
        );
        sums.push(sum);
    }

    // A fourth execution: the stores are used up.
    let (c, p) = (once.clone(), pick.clone());
    match both(move |role, ch| c.run_stored(role, ch, &p(role), &[bits(0, 32)])) {
        Err(e) => println!("fourth run refused: {e}"),
        Ok(_) => {
            return Err(Error::config(
                "a fourth run consumed material that was used up",
            ))
        }
    }
    Ok(sums)
}

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp;
    let dir = match std::env::args().nth(1) {
        Some(d) => std::path::PathBuf::from(d),
        None => {
            tmp = tempfile::tempdir()?;
            tmp.path().to_path_buf()
        }
    };
    story(&dir)?;
    Ok(())
}
