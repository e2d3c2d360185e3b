//! Binding measured on a toy code: a forgery whose codeword agrees with
//! the original on ℓ − 1 positions (the most an MDS code allows) passes
//! Verify with probability C(ℓ−1, w) / C(n, w) over a uniform watch set.

mod common;
use brickyard_core::gf256::GF64;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{Code, Verifier};

fn binomial(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64)
}

fn measure(n: usize, ell: usize, w: usize, trials: usize, seed: u128) {
    let code = Code::new(&GF64, n, ell);
    let mut prg = Prg::from_seed(Block(seed));
    let mut m1 = vec![0u8; ell];
    prg.fill_bytes(&mut m1);
    m1.iter_mut().for_each(|x| *x &= 63);
    // d = c·e_{ℓ−1}: codeword zero exactly on positions 0..ℓ−2.
    let mut m2 = m1.clone();
    m2[ell - 1] ^= 0x2b;
    let (c1, c2) = (code.encode(&m1), code.encode(&m2));
    assert_eq!(c1.iter().zip(&c2).filter(|(a, b)| a == b).count(), ell - 1);
    let mut hits = 0;
    let mut hash = vec![0u8; w];
    for _ in 0..trials {
        let mut all: Vec<usize> = (0..n).collect();
        prg.shuffle(&mut all);
        let mut watch = all[..w].to_vec();
        watch.sort_unstable();
        let v = Verifier::new(&code, &watch);
        v.watched_symbols(&m1, &mut hash);
        assert!(v.verify(&hash, &m1));
        hits += v.verify(&hash, &m2) as usize;
    }
    let p = binomial(ell as u64 - 1, w as u64) / binomial(n as u64, w as u64);
    common::assert_rate("binding", hits, trials, p, seed);
}

#[test]
fn binding_rate_on_a_toy_code() {
    measure(12, 6, 3, 20_000, 0xb1d);
}

/// `cargo-slot test -p brickyard-ihash --release --test binding -- --ignored`
#[test]
#[ignore]
fn binding_rate_on_toy_codes_long() {
    measure(12, 6, 3, 1_000_000, 0xb1e);
    measure(20, 10, 4, 1_000_000, 0xb1f);
}
