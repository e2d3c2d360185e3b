use super::*;

/// Table 1 of the paper: (s, N, B, M, B/p as printed).
const TABLE_1: [(u32, u64, u64, u64, f64); 18] = [
    (40, 8, 10, 136, 16.95),
    (40, 8, 8, 165, 20.51),
    (40, 32, 7, 362, 11.29),
    (40, 32, 6, 437, 13.63),
    (40, 128, 6, 998, 7.79),
    (40, 128, 5, 1143, 8.92),
    (40, 1024, 5, 5627, 5.49),
    (40, 1024, 4, 5689, 5.55),
    (40, 4096, 4, 18005, 4.39),
    (40, 4096, 3, 25600, 6.25),
    (80, 8, 19, 277, 34.54),
    (80, 8, 17, 296, 36.95),
    (80, 32, 15, 706, 22.05),
    (80, 32, 13, 771, 24.07),
    (80, 128, 12, 1995, 15.58),
    (80, 128, 10, 2246, 17.54),
    (80, 1024, 9, 10843, 10.58),
    (80, 4096, 7, 36294, 8.86),
];

#[test]
fn table_1_all_18_rows() {
    for (s, n, b, m, per) in TABLE_1 {
        let c = CutAndChoose::best_for_bucket(Lemma::FullyCracked, n, b, s)
            .unwrap()
            .unwrap_or_else(|| panic!("s={s} N={n} B={b}: infeasible"));
        assert_eq!(c.m, m, "s={s} N={n} B={b}: p = {}", c.p_percent);
        // The paper rounds this column, except 6/0.44 = 13.636 printed 13.63.
        assert!(
            (c.circuits_per_execution() - per).abs() < 0.01,
            "s={s} N={n} B={b}: B/p = {}",
            c.circuits_per_execution()
        );
        assert!(c.bound_log2 <= -(s as f64));
        // One step up the grid misses the bound: p is the largest.
        if c.p_percent < 99 {
            assert!(CutAndChoose::checked(Lemma::FullyCracked, n, b, c.p_percent + 1, s).is_err());
        }
    }
}

/// The cheating-recovery buckets of Tables 2/3 (B' = 20, 14, 10 at s = 40;
/// 46, 28, 20 at s = 80) with the largest p' on the grid.
#[test]
fn recovery_rows_of_tables_2_and_3() {
    for (s, n, b, p, m) in [
        (40, 32, 20, 71, 902),
        (40, 128, 14, 76, 2358),
        (40, 1024, 10, 85, 12048),
        (80, 32, 46, 78, 1888),
        (80, 128, 28, 75, 4779),
        (80, 1024, 20, 84, 24381),
    ] {
        let c = CutAndChoose::best_for_bucket(Lemma::MajorityCracked, n, b, s)
            .unwrap()
            .unwrap();
        assert_eq!((c.p_percent, c.m), (p, m), "s={s} N={n} B'={b}");
    }
}

#[test]
fn objectives() {
    // Fewest circuits: the true minimum of the bound, which at N = 32 is
    // B = 8 (351), below the paper's listed 7 (362).
    let c = CutAndChoose::search(Lemma::FullyCracked, 32, 40, Objective::Circuits, None).unwrap();
    assert_eq!((c.b, c.p_percent, c.m), (8, 73, 351));
    let c = CutAndChoose::search(Lemma::FullyCracked, 128, 40, Objective::Circuits, None).unwrap();
    assert_eq!((c.b, c.m), (6, 998));
    // Ties go to the smaller bucket (N = 8: B = 10, 11, 12 all give 136).
    let c = CutAndChoose::search(Lemma::FullyCracked, 8, 40, Objective::Circuits, None).unwrap();
    assert_eq!((c.b, c.m), (10, 136));
    // Smallest bucket, uncapped and capped.
    let c = CutAndChoose::search(Lemma::FullyCracked, 1024, 40, Objective::Bucket, None).unwrap();
    assert_eq!((c.b, c.p_percent, c.m), (3, 16, 19200));
    let c =
        CutAndChoose::search(Lemma::FullyCracked, 1024, 40, Objective::Bucket, Some(6000)).unwrap();
    assert_eq!((c.b, c.m), (4, 5689));
    // Recovery: fewest circuits overall is an odd B'.
    let c =
        CutAndChoose::search(Lemma::MajorityCracked, 32, 40, Objective::Circuits, None).unwrap();
    assert_eq!((c.b, c.p_percent, c.m), (19, 71, 857));
}

#[test]
fn insecure_choices_are_refused() {
    let cfg = |r: Result<CutAndChoose>| matches!(r, Err(Error::Config(_)));
    // One grid step above the paper's p misses 2^-40.
    assert!(cfg(CutAndChoose::checked(
        Lemma::FullyCracked,
        32,
        7,
        63,
        40
    )));
    assert!(CutAndChoose::checked(Lemma::FullyCracked, 32, 7, 62, 40).is_ok());
    assert!(cfg(CutAndChoose::checked(
        Lemma::FullyCracked,
        32,
        7,
        100,
        40
    )));
    assert!(cfg(CutAndChoose::checked(
        Lemma::FullyCracked,
        32,
        0,
        50,
        40
    )));
    // A bucket too small for any p.
    assert!(matches!(
        LrParams::new(1024, 40, Choice::Bucket(2), Choice::Bucket(10)),
        Err(Error::Config(_))
    ));
    assert!(matches!(
        LrParams::new(32, 39, Choice::Bucket(7), Choice::Bucket(20)),
        Err(Error::Config(_))
    ));
    let p = LrParams::new(32, 40, Choice::Bucket(7), Choice::Bucket(20)).unwrap();
    assert_eq!((p.main.m, p.recovery.m), (362, 902));
    assert!(p.execution_bound_log2() <= -39.0);
    assert!(p.overall_bound_log2() > p.execution_bound_log2());
}

#[test]
fn pruned_search_equals_the_full_scan() {
    // The fewest-circuits search stops once N·B reaches the best M; the full
    // scan over every B must give the same (B, p, M), ties to the smaller B.
    for (lemma, n, s) in [
        (Lemma::FullyCracked, 8, 40),
        (Lemma::FullyCracked, 32, 40),
        (Lemma::FullyCracked, 128, 80),
        (Lemma::MajorityCracked, 8, 40),
        (Lemma::MajorityCracked, 32, 40),
    ] {
        let mut full: Option<CutAndChoose> = None;
        for b in 1..=MAX_BUCKET {
            if let Some(c) = CutAndChoose::best_for_bucket(lemma, n, b, s).unwrap() {
                if full.as_ref().is_none_or(|cur| c.m < cur.m) {
                    full = Some(c);
                }
            }
        }
        let full = full.unwrap();
        let c = CutAndChoose::search(lemma, n, s, Objective::Circuits, None).unwrap();
        assert_eq!(
            (c.b, c.p_percent, c.m),
            (full.b, full.p_percent, full.m),
            "{lemma:?} N={n} s={s}"
        );
    }
}
