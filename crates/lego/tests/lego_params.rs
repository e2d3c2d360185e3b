//! Theorem 2 parameters against the paper's Table V.

use brickyard_protocols::lego::{LegoParams, Objective};

/// AES-128 as the paper counts it: 6800 ANDs + 128 identity gates on the
/// outputs, 256 input wires.
const AES_Q: u64 = 6928;
const AES_N: u64 = 256;
/// SHA-256 compression as the paper's dependent-phase data implies
/// (90825 ANDs + 256 output identity gates), 768 input wires.
const SHA_Q: u64 = 91081;
const SHA_N: u64 = 768;

/// (q per circuit, n per circuit, circuits, β, p_g = 2^-tg, α, p_a = 2^-ta).
const TABLE_V: &[(u64, u64, u64, u32, u32, u32, u32)] = &[
    (AES_Q, AES_N, 1, 7, 4, 6, 3),
    (AES_Q, AES_N, 32, 4, 2, 3, 2),
    (AES_Q, AES_N, 128, 4, 3, 3, 3),
    (AES_Q, AES_N, 1024, 4, 5, 3, 6),
    (SHA_Q, SHA_N, 1, 5, 3, 4, 4),
    (SHA_Q, SHA_N, 32, 4, 4, 3, 5),
    (SHA_Q, SHA_N, 128, 4, 6, 3, 5),
    (SHA_Q, SHA_N, 256, 4, 7, 3, 5),
];

#[test]
fn every_table_v_row_meets_theorem_2_exactly() {
    for &(q, n, c, beta, tg, alpha, ta) in TABLE_V {
        let p = LegoParams::checked(q * c, n * c, 40, beta, tg, ta)
            .unwrap_or_else(|e| panic!("row {c}×q={q}: {e}"));
        assert_eq!(p.alpha, alpha);
        assert_eq!((p.beta_in, p.alpha_in), (2 * beta + 1, 2 * alpha + 1));
        let b = p.bound();
        assert!(b.holds && b.total_log2 <= -40.0, "{b:?}");
        // The rows are tight: one bucket element less breaks the bound.
        if beta > 2 {
            assert!(LegoParams::checked(q * c, n * c, 40, beta - 1, tg, ta).is_err());
        }
    }
}

#[test]
fn optimiser_reproduces_the_single_and_32_aes_rows_and_never_costs_more() {
    // The rows the paper's own script chose with our communication model.
    for &(q, n, c, beta, tg, _, ta) in &TABLE_V[..2] {
        let p = LegoParams::optimise(q * c, n * c, 40, Objective::Communication).unwrap();
        assert_eq!((p.beta, p.tg, p.ta), (beta, tg, ta), "{c} × AES");
    }
    for &(q, n, c, beta, tg, _, ta) in TABLE_V.iter().filter(|r| r.2 <= 128) {
        let paper = LegoParams::checked(q * c, n * c, 40, beta, tg, ta).unwrap();
        let ours = LegoParams::optimise(q * c, n * c, 40, Objective::Communication).unwrap();
        assert!(ours.bound().holds);
        assert!(ours.cost().independent_bytes <= paper.cost().independent_bytes * 1.000001);
    }
}

#[test]
fn bucket_size_objective_trades_communication_for_smaller_buckets() {
    let comm = LegoParams::optimise(AES_Q, AES_N, 40, Objective::Communication).unwrap();
    let small = LegoParams::optimise(AES_Q, AES_N, 40, Objective::BucketSize).unwrap();
    assert!(small.beta < comm.beta);
    assert!(small.cost().independent_bytes > comm.cost().independent_bytes);
    assert!(small.bound().holds);
}

#[test]
fn components_leave_enough_after_cut_and_choose() {
    let p = LegoParams::checked(AES_Q, AES_N, 40, 7, 4, 3).unwrap();
    let (g, a) = p.components();
    let need_g = AES_Q * 7 + AES_N * 15;
    assert!(g as f64 * (1.0 - p.p_g()) > need_g as f64);
    assert!(a > AES_Q * 6 + AES_N * 13);
}
