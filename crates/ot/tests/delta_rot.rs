//! Δ-ROT: correlation, forced lsb, single extension, parameter refusal, and
//! the extraction bound of Theorem 1 measured on random matrices.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error};
use brickyard_ot::delta_rot::{DeltaRotParams, DeltaRotReceiver, DeltaRotSender, ExtractionMatrix};
use brickyard_ot::iknp::CHUNK_OTS;
use common::{pair, run2, Net};

fn run(n: usize, force_lsb: bool, net: Net) -> (Block, Vec<Block>, Vec<bool>, Vec<Block>) {
    let ((delta, q), (b, t)) = run2(
        pair(net),
        move |ch| {
            let mut s = DeltaRotSender::setup(ch, &mut Prg::new(), force_lsb).unwrap();
            assert!(s.delta().is_none());
            let q = s.extend(ch, n).unwrap();
            assert!(matches!(s.extend(ch, 1), Err(Error::Config(_))));
            (s.delta().unwrap(), q)
        },
        move |ch| {
            let mut r = DeltaRotReceiver::setup(ch, &mut Prg::new()).unwrap();
            let out = r.extend(ch, n).unwrap();
            assert!(matches!(r.extend(ch, 1), Err(Error::Config(_))));
            out
        },
    );
    (delta, q, b, t)
}

#[test]
fn delta_rot_is_correlated_by_one_delta() {
    for (n, net) in [
        (1, Net::Memory),
        (300, Net::Tcp),
        (CHUNK_OTS + 77, Net::Memory),
    ] {
        let (delta, q, b, t) = run(n, false, net);
        assert_eq!((q.len(), b.len(), t.len()), (n, n, n));
        for i in 0..n {
            assert_eq!(t[i], q[i] ^ delta.and_bit(b[i]), "Δ-ROT {i}");
        }
        if n > 100 {
            let ones = b.iter().filter(|&&x| x).count();
            assert!(ones > n / 3 && ones < 2 * n / 3, "biased choice bits");
        }
    }
}

#[test]
fn forced_lsb_is_one_and_correlation_survives_the_flip() {
    // lsb(Δ'A) is 0 half the time, so 8 runs exercise the flip w.p. 1 − 2^-8.
    for _ in 0..8 {
        let (delta, q, b, t) = run(200, true, Net::Memory);
        assert!(delta.lsb());
        for i in 0..200 {
            assert_eq!(t[i], q[i] ^ delta.and_bit(b[i]));
        }
    }
}

#[test]
fn insecure_parameters_are_refused() {
    assert!(matches!(
        DeltaRotParams::new(128, 39),
        Err(Error::Config(_))
    ));
    assert!(matches!(DeltaRotParams::new(64, 40), Err(Error::Config(_))));
    assert_eq!(DeltaRotParams::new(128, 40).unwrap().leaky_len(), 168);
}

#[test]
fn extraction_in_column_space_equals_row_times_matrix() {
    let a = ExtractionMatrix::from_seed(Block(3), 168);
    let mut p = Prg::from_seed(Block(4));
    // 168 columns of 2 blocks = 256 rows.
    let cols = p.random_blocks(168 * 2);
    let mut out = vec![Block::ZERO; 128 * 2];
    a.apply_columns(&cols, 2, &mut out);
    for row in [0usize, 1, 127, 128, 255] {
        let bits: Vec<bool> = (0..168)
            .map(|j| cols[j * 2 + row / 128].bit(row % 128))
            .collect();
        let y = a.apply_bits(&bits);
        for o in 0..128 {
            assert_eq!(
                y.bit(o),
                out[o * 2 + row / 128].bit(row % 128),
                "row {row} bit {o}"
            );
        }
    }
}

/// Rank over GF(2) of a set of 128-bit rows.
fn rank(rows: &[Block]) -> usize {
    let mut basis: Vec<u128> = Vec::new();
    for r in rows {
        let mut x = r.0;
        for &b in &basis {
            x = x.min(x ^ b);
        }
        if x != 0 {
            basis.push(x);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    basis.len()
}

#[test]
fn theorem_1_bound_holds_on_random_matrices() {
    // A receiver that learned λ of the u = 168 bits of Δ' leaves l = 168 − λ
    // uniform bits; Δ'A is uniform iff the l unknown rows of A have rank 128.
    // Theorem 1: failure probability ≤ 2^(128 − l). Measure it for l = 129..132.
    let mut p = Prg::from_seed(Block(11));
    let trials = 400;
    for l in 129..=132usize {
        let fails = (0..trials)
            .filter(|_| {
                let a = ExtractionMatrix::from_seed(p.random_block(), 168);
                rank(&a.rows()[..l]) < 128
            })
            .count();
        let bound = trials as f64 * 2f64.powi(128 - l as i32);
        // 4σ of a binomial above the bound (the true rate is below the bound).
        let slack = 4.0 * bound.sqrt();
        assert!(
            (fails as f64) <= bound + slack,
            "l = {l}: {fails} failures, bound {bound}"
        );
    }
}
