//! IKNP correctness for every OT kind over memory and TCP channels.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ot::iknp::{CHOSEN_BATCH_OTS, CHUNK_OTS};
use brickyard_ot::{IknpReceiver, IknpSender};
use common::{choices, pair, run2, Net, NETS};

#[test]
fn correlated_ot_has_free_xor_form_across_many_extensions() {
    common::check_correlated_free_xor_form!(IknpSender, IknpReceiver);
}

#[test]
fn chosen_delta_is_the_correlation() {
    let delta = Block(0x1234_5678_9abc_def0_0fed_cba9_8765_4321).with_lsb(true);
    let c = choices(9, 300);
    let c2 = c.clone();
    let ((d, q), t) = run2(
        pair(Net::Memory),
        move |ch| {
            let mut s = IknpSender::setup_with_delta(ch, &mut Prg::new(), delta).unwrap();
            (s.delta(), s.correlated(ch, 300).unwrap())
        },
        move |ch| {
            let mut r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
            r.correlated(ch, &c2).unwrap()
        },
    );
    assert_eq!(d, delta);
    for i in 0..300 {
        assert_eq!(t[i], q[i] ^ delta.and_bit(c[i]));
    }
}

#[test]
fn random_ot_gives_exactly_the_chosen_key() {
    for net in NETS {
        let n = CHUNK_OTS + 77;
        let c = choices(3, n);
        let c2 = c.clone();
        let (pairs, got) = run2(
            pair(net),
            move |ch| {
                let mut s = IknpSender::setup(ch, &mut Prg::new()).unwrap();
                let _warm = s.random(ch, 5).unwrap();
                s.random(ch, n).unwrap()
            },
            move |ch| {
                let mut r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
                let _warm = r.random(ch, &[true, false, true, true, false]).unwrap();
                r.random(ch, &c2).unwrap()
            },
        );
        let (m00, m01) = pairs[0];
        let mut xors = std::collections::HashSet::new();
        for i in 0..n {
            let (m0, m1) = pairs[i];
            let (want, other) = if c[i] { (m1, m0) } else { (m0, m1) };
            assert_eq!(got[i], want, "{net:?} OT {i}");
            assert_ne!(got[i], other);
            xors.insert(m0 ^ m1);
        }
        // Hashing removed the Δ-correlation between the two keys.
        assert_eq!(xors.len(), n);
        assert_ne!(m00, m01);
    }
}

#[test]
fn chosen_ot_over_super_batches_and_tcp() {
    // Over TCP and more than one super-batch: the reply of the sender must
    // not deadlock against the receiver's still-streaming columns.
    for (net, n) in [(Net::Memory, 1000), (Net::Tcp, CHOSEN_BATCH_OTS + 300)] {
        let c = choices(5, n);
        let c2 = c.clone();
        let msgs: Vec<(Block, Block)> = (0..n as u128)
            .map(|i| (Block(i * 2), Block(i * 2 + 1)))
            .collect();
        let m2 = msgs.clone();
        let ((), got) = run2(
            pair(net),
            move |ch| {
                let mut s = IknpSender::setup(ch, &mut Prg::new()).unwrap();
                s.chosen(ch, &m2).unwrap();
            },
            move |ch| {
                let mut r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
                r.chosen(ch, &c2).unwrap()
            },
        );
        assert_eq!(got.len(), n);
        for i in 0..n {
            assert_eq!(
                got[i],
                if c[i] { msgs[i].1 } else { msgs[i].0 },
                "{net:?} {i}"
            );
        }
    }
}

#[test]
fn mixed_kinds_share_one_session() {
    let c = choices(11, 200);
    let c2 = c.clone();
    let msgs: Vec<(Block, Block)> = (0..200u128).map(|i| (Block(i), Block(i + 1000))).collect();
    let m2 = msgs.clone();
    let ((delta, q, pairs), (t, keys, chosen)) = run2(
        pair(Net::Memory),
        move |ch| {
            let mut s = IknpSender::setup(ch, &mut Prg::new()).unwrap();
            let q = s.correlated(ch, 200).unwrap();
            let p = s.random(ch, 200).unwrap();
            s.chosen(ch, &m2).unwrap();
            (s.delta(), q, p)
        },
        move |ch| {
            let mut r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
            let t = r.correlated(ch, &c2).unwrap();
            let k = r.random(ch, &c2).unwrap();
            let x = r.chosen(ch, &c2).unwrap();
            (t, k, x)
        },
    );
    for i in 0..200 {
        assert_eq!(t[i], q[i] ^ delta.and_bit(c[i]));
        assert_eq!(keys[i], if c[i] { pairs[i].1 } else { pairs[i].0 });
        assert_eq!(chosen[i], if c[i] { msgs[i].1 } else { msgs[i].0 });
    }
}
