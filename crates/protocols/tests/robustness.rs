//! Every honest party against a peer that sends bytes it did not expect:
//! the honest transcript of a real run with bytes flipped or cut, and
//! random bytes. The party must end in a typed error, or in outputs of the
//! circuit's shape, never a panic or a hang (a scripted peer hangs up when
//! its bytes run out). The long version, and the fuzz target that does the
//! same with coverage guidance, are in docs/testing.md.

use brickyard_testkit as common;

use brickyard_core::Error;
use brickyard_protocols::robustness::{against, transcript};
use brickyard_protocols::{Role, RunConfig};
use common::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

const PROTOCOLS: [&str; 3] = ["yao", "tinytable", "lego"];

/// TinyTable's S-box variant computes AES-128 only.
fn aes() -> RunConfig {
    cfg_for(brickyard_circuit::resolve("builtin:aes128").unwrap())
}

/// How the peer's transcript is altered.
#[derive(Debug, Clone, Copy)]
enum Alter {
    /// As recorded (inconsistent with the honest party's fresh randomness).
    Replay,
    /// Byte `at` XORed with `x` (non-zero).
    Flip { at: usize, x: u8 },
    /// Only the first `len` bytes.
    Cut { len: usize },
    /// Random bytes of this length instead.
    Random { len: usize },
    /// Bytes 0xff (the largest length or count a field can claim).
    Ones { len: usize },
}

fn apply(a: Alter, t: &[u8], rng: &mut Rng) -> Vec<u8> {
    match a {
        Alter::Replay => t.to_vec(),
        Alter::Flip { at, x } => {
            let mut v = t.to_vec();
            if let Some(b) = v.get_mut(at) {
                *b ^= x;
            }
            v
        }
        Alter::Cut { len } => t[..len.min(t.len())].to_vec(),
        Alter::Random { len } => (0..len).map(|_| rng.next_u64() as u8).collect(),
        Alter::Ones { len } => vec![0xff; len],
    }
}

fn alterations(rng: &mut Rng, len: usize, n: usize) -> Vec<Alter> {
    let mut v = vec![
        Alter::Replay,
        Alter::Ones { len: 64 },
        Alter::Cut { len: 0 },
    ];
    for _ in 0..n {
        v.push(Alter::Flip {
            at: rng.below(len),
            x: 1 + rng.below(255) as u8,
        });
    }
    for _ in 0..n / 2 {
        v.push(Alter::Cut {
            len: rng.below(len),
        });
        v.push(Alter::Random {
            len: rng.below(4096),
        });
    }
    v
}

/// Runs `n` flips (and n/2 cuts and random strings) of each peer's
/// transcript against each honest party; `seed` makes the run reproducible.
fn survive(protocol: &str, cfg: &RunConfig, seed: u64, n: usize) {
    let mut rng = Rng(seed);
    let x = random_inputs(&mut rng, cfg, Role::Alice, 1).remove(0);
    let y = random_inputs(&mut rng, cfg, Role::Bob, 1).remove(0);
    let (ta, tb, out) = transcript(protocol, cfg, &x, &y).expect("honest run");
    let want = cfg.circuit.eval(&assemble(cfg, &x, &y)).unwrap();
    assert_eq!(out, Some(want), "{protocol}: honest transcript run");
    let widths: Vec<usize> = cfg.circuit.outputs.iter().map(|g| g.width()).collect();
    for (role, peer, inputs) in [(Role::Alice, &tb, &x), (Role::Bob, &ta, &y)] {
        for a in alterations(&mut rng, peer.len().max(1), n) {
            let bytes = apply(a, peer, &mut rng);
            let ctx = format!(
                "{protocol} honest {} vs {a:?} of {} peer bytes (seed {seed})",
                role.name(),
                peer.len()
            );
            let r = catch_unwind(AssertUnwindSafe(|| {
                against(protocol, role, cfg, inputs, &bytes)
            }))
            .unwrap_or_else(|_| panic!("{ctx}: PANIC"));
            match r {
                Ok(Some(o)) => assert_eq!(
                    o.iter().map(Vec::len).collect::<Vec<_>>(),
                    widths,
                    "{ctx}: outputs of the wrong shape"
                ),
                Ok(None) => {}
                Err(Error::Io(e)) => panic!("{ctx}: untyped I/O error {e}"),
                Err(_) => {}
            }
        }
    }
}

#[test]
fn honest_parties_survive_altered_transcripts() {
    let seed = 0x0b57_2024;
    println!("seed {seed:#x}");
    let mut rng = Rng(seed);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 24, 2));
    for p in PROTOCOLS {
        survive(p, &cfg, seed, 8);
    }
    survive("tinytable-sbox", &aes(), seed, 2);
}

/// Many more alterations (set `ROBUST_N`, default 400, and `ROBUST_SEED`).
#[test]
#[ignore]
fn honest_parties_survive_many_altered_transcripts() {
    let n: usize = std::env::var("ROBUST_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let seed: u64 = std::env::var("ROBUST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed);
    println!("seed {seed} n {n}");
    let mut rng = Rng(seed);
    let cfg = cfg_for(random_circuit(&mut rng, 2, 40, 2));
    for p in PROTOCOLS {
        survive(p, &cfg, seed, n);
    }
    survive("tinytable-sbox", &aes(), seed, n / 8);
}
