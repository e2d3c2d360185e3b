//! Arbitrary and mutated input never panics the parser, and what it accepts
//! is a valid circuit. Fixed seeds keep the default run fast and
//! reproducible; `BRICKYARD_FUZZ_ITERS=100000 cargo test -p
//! brickyard-circuit --release --test robustness -- --ignored` runs longer.

mod common;

use brickyard_circuit::{builtin, parse_bristol_bytes, write_bristol_fashion};
use common::Rng;

/// Parses; a success must validate, a failure must name a plausible line.
fn probe(data: &[u8]) {
    match parse_bristol_bytes(data) {
        Ok(c) => c.validate().expect("accepted circuits are valid"),
        Err(e) => {
            let lines = data.iter().filter(|&&b| b == b'\n').count() + 2;
            assert!(e.line <= lines, "line {} of a {lines}-line input", e.line);
            assert!(!e.to_string().is_empty());
        }
    }
}

const VOCAB: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "64",
    "4294967295",
    "4294967296",
    "-1",
    "XOR",
    "AND",
    "INV",
    "NOT",
    "EQ",
    "EQW",
    "MAND",
    "x",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r\n",
    "é",
];

/// Real circuit texts to mutate: a few small builtins, written out, plus a
/// small shared file when available.
fn seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = ["add4", "lt3", "levenshtein-cell:2"]
        .iter()
        .map(|n| write_bristol_fashion(&builtin(n).unwrap()).into_bytes())
        .collect();
    v.push(b"3 8\n2 2 2\n1 1\n\n4 2 0 1 2 3 4 5 MAND\n1 1 1 6 EQ\n2 1 4 6 7 XOR\n".to_vec());
    v.push(b"2 4\n1 1 1\n\n2 1 0 1 2 AND\n1 1 2 3 INV\n".to_vec());
    if let Some(dir) = common::shared_circuits() {
        if let Ok(b) = std::fs::read(dir.join("bristol_fashion/neg64.txt")) {
            v.push(b);
        }
    }
    v
}

fn tokens(data: &[u8]) -> Vec<Vec<u8>> {
    // Keep separators as their own tokens so mutations can hit them too.
    let mut out: Vec<Vec<u8>> = Vec::new();
    for &b in data {
        let sep = b.is_ascii_whitespace();
        match out.last_mut() {
            Some(t) if t.first().is_some_and(|c| c.is_ascii_whitespace()) == sep => t.push(b),
            _ => out.push(vec![b]),
        }
    }
    out
}

fn mutate(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut toks = tokens(data);
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(toks.len());
        match rng.below(6) {
            0 if !toks.is_empty() => {
                toks.remove(i);
            }
            1 if !toks.is_empty() => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 if !toks.is_empty() => toks[i] = VOCAB[rng.below(VOCAB.len())].as_bytes().to_vec(),
            3 => toks.insert(i, VOCAB[rng.below(VOCAB.len())].as_bytes().to_vec()),
            4 if !toks.is_empty() => {
                let j = rng.below(toks.len());
                toks.swap(i, j);
            }
            _ => {
                let cut = rng.below(toks.len() + 1);
                toks.truncate(cut);
            }
        }
    }
    toks.concat()
}

fn run(iters: usize) {
    let mut rng = Rng::new(0x5eed);
    for _ in 0..iters {
        let n = rng.below(64);
        probe(&rng.bytes(n));
        let junk: Vec<u8> = (0..rng.below(40))
            .flat_map(|_| VOCAB[rng.below(VOCAB.len())].bytes())
            .collect();
        probe(&junk);
    }
    let seeds = seeds();
    for s in &seeds {
        probe(s);
        for _ in 0..iters {
            probe(&mutate(&mut rng, s));
        }
    }
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    run(300);
}

#[test]
#[ignore = "long randomized run; see the module docs for the command"]
fn long_random_and_mutated_inputs_never_panic() {
    let iters = std::env::var("BRICKYARD_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    run(iters);
}
