//! KOS correctness for every OT kind, sizes across chunk and check-batch
//! boundaries, over memory and TCP channels.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error};
use brickyard_ot::kos::KOS_BATCH;
use brickyard_ot::{KosReceiver, KosSender};
use common::{choices, pair, run2, tcp_pair, Net};
use std::time::Duration;

#[test]
fn correlated_ot_has_free_xor_form() {
    common::check_correlated_free_xor_form!(KosSender, KosReceiver);
}

#[test]
fn random_and_chosen_ot_across_check_batches() {
    let n = KOS_BATCH + 300;
    let c = choices(5, n);
    let c2 = c.clone();
    let msgs: Vec<(Block, Block)> = (0..n as u128).map(|i| (Block(i), Block(!i))).collect();
    let m2 = msgs.clone();
    let (pairs, (got_r, got_c)) = run2(
        pair(Net::Tcp),
        |ch| {
            let delta = Block(0xfeed).with_lsb(true);
            let mut s = KosSender::setup_with_delta(ch, &mut Prg::new(), delta).unwrap();
            assert_eq!(s.delta(), delta);
            let pairs = s.random(ch, n).unwrap();
            s.chosen(ch, &m2).unwrap();
            pairs
        },
        move |ch| {
            let mut r = KosReceiver::setup(ch, &mut Prg::new()).unwrap();
            (r.random(ch, &c2).unwrap(), r.chosen(ch, &c2).unwrap())
        },
    );
    for i in 0..n {
        let (m0, m1) = pairs[i];
        assert_ne!(m0, m1);
        assert_eq!(got_r[i], if c[i] { m1 } else { m0 }, "random OT {i}");
        assert_eq!(
            got_c[i],
            if c[i] { msgs[i].1 } else { msgs[i].0 },
            "chosen OT {i}"
        );
    }
}

#[test]
fn batches_hold_consistent_material() {
    let ((cs, rs), (cr, rr)) = run2(
        pair(Net::Memory),
        |ch| {
            let mut s = KosSender::setup(ch, &mut Prg::new()).unwrap();
            (
                s.correlated_batch(ch, 500).unwrap(),
                s.random_batch(ch, 300).unwrap(),
            )
        },
        |ch| {
            let mut p = Prg::new();
            let mut r = KosReceiver::setup(ch, &mut p).unwrap();
            (
                r.correlated_batch(ch, &mut p, 500).unwrap(),
                r.random_batch(ch, &mut p, 300).unwrap(),
            )
        },
    );
    for ((&q, &t), &c) in cs.q().iter().zip(cr.t()).zip(cr.choices()) {
        assert_eq!(t, q ^ cs.delta().and_bit(c));
    }
    let ones = cr.choices().iter().filter(|&&b| b).count();
    assert!(
        (150..350).contains(&ones),
        "choice bits look biased: {ones}"
    );
    for (((m0, m1), &m), &c) in rs.pairs().zip(rr.msgs()).zip(rr.choices()) {
        assert_eq!(m, if c { m1 } else { m0 });
    }
    assert_eq!(rr.next_index(), 500);
}

#[test]
fn truncated_check_answer_is_an_error_not_a_hang() {
    let (res, _) = run2(
        tcp_pair(Duration::from_millis(300)),
        |ch| {
            let mut s = KosSender::setup(ch, &mut Prg::new())?;
            s.correlated(ch, 200)
        },
        |ch: &mut Channel| {
            let mut p = Prg::new();
            let _r = brickyard_ot::base::send_random(ch, &mut p, 128).unwrap();
            // Columns of 2 data blocks + the mask block, then only half an answer.
            ch.send_blocks(&vec![Block::ZERO; 128 * 3]).unwrap();
            ch.flush().unwrap();
            let _seed = ch.recv_block().unwrap();
            ch.send_blocks(&[Block::ZERO; 64]).unwrap();
            ch.flush().unwrap();
            std::thread::sleep(Duration::from_millis(500));
        },
    );
    assert!(
        matches!(
            res,
            Err(Error::Timeout(_)) | Err(Error::Disconnected(_)) | Err(Error::Io(_))
        ),
        "{res:?}"
    );
}

#[test]
fn all_zero_columns_fail_the_check() {
    // A receiver that sends garbage columns and a garbage answer is caught.
    let (res, _) = run2(
        tcp_pair(Duration::from_secs(5)),
        |ch| {
            let mut s = KosSender::setup(ch, &mut Prg::new())?;
            s.correlated(ch, 200)
        },
        |ch: &mut Channel| {
            let mut p = Prg::new();
            let _r = brickyard_ot::base::send_random(ch, &mut p, 128).unwrap();
            ch.send_blocks(&vec![Block::ZERO; 128 * 3]).unwrap();
            ch.flush().unwrap();
            let _seed = ch.recv_block().unwrap();
            ch.send_blocks(&[Block(7); 129]).unwrap();
            ch.flush().unwrap();
        },
    );
    assert!(
        matches!(
            res,
            Err(Error::Cheating {
                check: "kos-consistency"
            })
        ),
        "{res:?}"
    );
}

/// The committed extension (garbled-circuit ZK): the base-OT flight the
/// receiver records is exactly what the sender's setup PRG seed and Δ
/// replay, and another Δ or seed replays something else.
#[test]
fn sender_base_flight_replays_from_its_seed_and_delta() {
    let (seed, delta) = (Block(0x5eed), Block(0xde17a));
    let (_, flight) = run2(
        pair(Net::Memory),
        move |ch| {
            let mut s = KosSender::setup_with_delta(ch, &mut Prg::from_seed(seed), delta).unwrap();
            s.correlated(ch, 300).unwrap();
        },
        |ch| {
            let (mut r, flight) = KosReceiver::setup_recorded(ch, &mut Prg::new()).unwrap();
            r.correlated(ch, &choices(3, 300)).unwrap();
            flight
        },
    );
    let replay = |seed, delta| KosSender::replay_base_flight(&mut Prg::from_seed(seed), delta);
    assert_eq!(replay(seed, delta).unwrap(), flight);
    assert_ne!(replay(seed, delta ^ Block(1 << 40)).unwrap(), flight);
    assert_ne!(replay(seed ^ Block(1), delta).unwrap(), flight);
}
