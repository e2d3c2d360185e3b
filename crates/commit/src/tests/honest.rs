//! Honest runs: values, homomorphism, batch and bit openings, more batches
//! later, thread counts, and the per-commitment correlation itself.

use super::{ideal_setup, run};
use crate::code::xor_rows;
use brickyard_core::prg::Prg;
use brickyard_core::Block;

#[test]
fn material_has_the_documented_correlation() {
    // w_i = t_i ⊕ (Δ_R ∧ C(m_i)) for every commitment, both modes.
    let (mut c, mut r) = ideal_setup(1);
    let msgs = Prg::from_seed(Block(5)).random_blocks(200);
    let (a, b) = run(
        &mut c,
        &mut r,
        |c, ch| {
            (
                c.commit_random(ch, 1000).unwrap(),
                c.commit(ch, &msgs).unwrap(),
            )
        },
        |r, ch| {
            (
                r.receive_commitments(ch, 1000).unwrap(),
                r.receive_commitments(ch, 200).unwrap(),
            )
        },
    );
    assert_eq!(a, (0..1000, 1000..1200));
    assert_eq!(b, a);
    assert_eq!(c.values(1000..1200).unwrap(), &msgs[..]);
    let watch = r.state.watch;
    for id in 0..1200 {
        let cw = c.params.code().encode(c.state.msgs[id]);
        let masked: [u64; crate::params::ROW_WORDS] = std::array::from_fn(|i| cw[i] & watch[i]);
        assert_eq!(xor_rows(&c.state.t[id], &r.state.w[id]), masked, "id {id}");
    }
    // Random values are not degenerate.
    let v = c.values(0..1000).unwrap();
    assert!(v.windows(2).all(|p| p[0] != p[1]));
}

#[test]
fn open_xor_batch_and_bits_agree_with_values() {
    let (mut c, mut r) = ideal_setup(2);
    let sets: Vec<Vec<usize>> = vec![
        vec![0],
        vec![3, 7],
        vec![1, 2, 300, 999],
        vec![],
        vec![5, 5],
    ];
    let ids = [0usize, 128, 129, 999, 42];
    let blinders: Vec<usize> = (1000..1040).collect();
    let ((), (opened, xored, batch, batch_x, bits)) = run(
        &mut c,
        &mut r,
        |c, ch| {
            c.commit_random(ch, 1040).unwrap();
            c.open(ch, &ids).unwrap();
            c.open_xor(ch, &sets).unwrap();
            c.batch_open(ch, &ids).unwrap();
            c.batch_open_xor(ch, &sets).unwrap();
            c.open_bits(ch, &sets, 0, &blinders).unwrap();
        },
        |r, ch| {
            r.receive_commitments(ch, 1040).unwrap();
            (
                r.verify_open(ch, &ids).unwrap(),
                r.verify_open_xor(ch, &sets).unwrap(),
                r.verify_batch_open(ch, &ids).unwrap(),
                r.verify_batch_open_xor(ch, &sets).unwrap(),
                r.verify_open_bits(ch, &sets, 0, &blinders).unwrap(),
            )
        },
    );
    let val = |s: &[usize]| s.iter().fold(Block::ZERO, |a, &i| a ^ c.value(i).unwrap());
    let want_ids: Vec<Block> = ids.iter().map(|&i| c.value(i).unwrap()).collect();
    let want_sets: Vec<Block> = sets.iter().map(|s| val(s)).collect();
    assert_eq!(opened, want_ids);
    assert_eq!(batch, want_ids);
    assert_eq!(xored, want_sets);
    assert_eq!(batch_x, want_sets);
    assert_eq!(xored[3], Block::ZERO);
    assert_eq!(xored[4], Block::ZERO);
    assert_eq!(bits, want_sets.iter().map(|v| v.lsb()).collect::<Vec<_>>());
}

#[test]
fn later_batches_and_thread_counts_compose() {
    // Batches continue the PRG streams; each party's thread count is local.
    let (c, r) = ideal_setup(3);
    let (mut c, mut r) = (c.with_threads(2), r.with_threads(3));
    let msgs = Prg::from_seed(Block(6)).random_blocks(5000);
    let sizes = [1usize, 128, 4097, 20_000];
    let (ranges, got) = run(
        &mut c,
        &mut r,
        |c, ch| {
            let mut v: Vec<_> = sizes
                .iter()
                .map(|&n| c.commit_random(ch, n).unwrap())
                .collect();
            v.push(c.commit(ch, &msgs).unwrap());
            let all: Vec<usize> = (0..c.len()).step_by(97).collect();
            c.open(ch, &all).unwrap();
            c.batch_open(ch, &all).unwrap();
            v
        },
        |r, ch| {
            let mut v: Vec<_> = sizes
                .iter()
                .map(|&n| r.receive_commitments(ch, n).unwrap())
                .collect();
            v.push(r.receive_commitments(ch, 5000).unwrap());
            let all: Vec<usize> = (0..r.len()).step_by(97).collect();
            (
                v,
                r.verify_open(ch, &all).unwrap(),
                r.verify_batch_open(ch, &all).unwrap(),
            )
        },
    );
    assert_eq!(ranges, got.0);
    let all: Vec<usize> = (0..c.len()).step_by(97).collect();
    let want: Vec<Block> = all.iter().map(|&i| c.value(i).unwrap()).collect();
    assert_eq!(got.1, want);
    assert_eq!(got.2, want);
    assert_eq!(c.values(ranges[4].clone()).unwrap(), &msgs[..]);
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let mut outs = Vec::new();
    for t in [1usize, 2, 5] {
        let (c, r) = ideal_setup(4);
        let (mut c, mut r) = (c.with_threads(t), r.with_threads(t));
        run(
            &mut c,
            &mut r,
            |c, ch| c.commit_random(ch, 9000).unwrap(),
            |r, ch| r.receive_commitments(ch, 9000).unwrap(),
        );
        outs.push((c.state.msgs.clone(), c.state.t.clone(), r.state.w.clone()));
    }
    assert!(outs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn interleaved_batches_equal_sequential_ones_and_stay_closed_until_checked() {
    // Two batches started before either is checked (LEGO sends its garbled
    // tables in between): same ids and correlation as one after the other,
    // and the receiver refuses to open a batch whose check has not run.
    let (mut c, mut r) = ideal_setup(31);
    let msgs = Prg::from_seed(Block(6)).random_blocks(300);
    let (ids, (rids, refused)) = run(
        &mut c,
        &mut r,
        |c, ch| {
            let a = c.commit_random_start(ch, 1000).unwrap();
            assert_eq!(a.ids(), 0..1000);
            ch.send_block(Block(77)).unwrap();
            let b = c.commit_start(ch, &msgs).unwrap();
            let ids = (
                c.commit_finish(ch, a).unwrap(),
                c.commit_finish(ch, b).unwrap(),
            );
            c.batch_open(ch, &[5, 1100]).unwrap();
            ids
        },
        |r, ch| {
            let a = r.receive_start(ch, 1000).unwrap();
            assert_eq!(ch.recv_block().unwrap(), Block(77));
            let b = r.receive_start(ch, 300).unwrap();
            let refused = r.verify_batch_open(ch, &[5]).is_err();
            let ids = (
                r.receive_finish(ch, a).unwrap(),
                r.receive_finish(ch, b).unwrap(),
            );
            let v = r.verify_batch_open(ch, &[5, 1100]).unwrap();
            assert_eq!(v[1], msgs[100]);
            (ids, refused)
        },
    );
    assert_eq!(ids, (0..1000, 1000..1300));
    assert_eq!(rids, ids);
    assert!(refused, "an unchecked batch must not be opened");
    let watch = r.state.watch;
    for id in 0..1300 {
        let cw = c.params.code().encode(c.state.msgs[id]);
        let masked: [u64; crate::params::ROW_WORDS] = std::array::from_fn(|i| cw[i] & watch[i]);
        assert_eq!(xor_rows(&c.state.t[id], &r.state.w[id]), masked, "id {id}");
    }
}
