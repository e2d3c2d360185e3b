//! Preprocess random / correlated OTs, store them (serialise), consume them
//! later with Beaver derandomisation.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error};
use brickyard_ot::beaver;
use brickyard_ot::{CotReceiverBatch, CotSenderBatch, RotReceiverBatch, RotSenderBatch};
use brickyard_ot::{IknpReceiver, IknpSender};
use common::{pair, run2, Net, NETS};

fn preprocess(net: Net, n: usize) -> (RotSenderBatch, RotReceiverBatch) {
    run2(
        pair(net),
        move |ch| {
            let mut s = IknpSender::setup(ch, &mut Prg::new()).unwrap();
            s.random_batch(ch, n).unwrap()
        },
        move |ch| {
            let mut prg = Prg::new();
            let mut r = IknpReceiver::setup(ch, &mut prg).unwrap();
            r.random_batch(ch, &mut prg, n).unwrap()
        },
    )
}

/// What another process would do: write the batch out and read it back.
fn store<T: serde::Serialize + serde::de::DeserializeOwned>(x: &T) -> T {
    postcard::from_bytes(&postcard::to_stdvec(x).unwrap()).unwrap()
}

#[test]
fn stored_random_ots_are_valid_ots() {
    let (s, r) = preprocess(Net::Memory, 1000);
    assert_eq!((s.len(), r.len()), (1000, 1000));
    let ones = r.choices().iter().filter(|&&c| c).count();
    assert!((400..600).contains(&ones), "choices look biased: {ones}");
    for ((m0, m1), (&c, &m)) in s.pairs().zip(r.choices().iter().zip(r.msgs())) {
        assert_eq!(m, if c { m1 } else { m0 });
        assert_ne!(m, if c { m0 } else { m1 });
    }
}

#[test]
fn beaver_transfers_chosen_messages_and_consumes_material() {
    for net in NETS {
        let (s, r) = preprocess(net, 500);
        let (mut s, mut r) = (store(&s), store(&r));
        for (round, n) in [(0u128, 200usize), (1, 300)] {
            let bits: Vec<bool> = (0..n).map(|i| (i * 7 + round as usize) % 3 == 1).collect();
            let msgs: Vec<(Block, Block)> = (0..n as u128)
                .map(|i| (Block(i + (round << 64)), Block(!i)))
                .collect();
            let (b2, m2) = (bits.clone(), msgs.clone());
            let (s2, got) = run2(
                pair(net),
                move |ch| {
                    beaver::send(ch, &mut s, &m2).unwrap();
                    s
                },
                move |ch| {
                    let out = beaver::receive(ch, &mut r, &b2).unwrap();
                    (r, out)
                },
            );
            s = s2;
            r = got.0;
            for i in 0..n {
                assert_eq!(got.1[i], if bits[i] { msgs[i].1 } else { msgs[i].0 });
            }
        }
        assert!(s.is_empty() && r.is_empty());
        // Used up: another transfer is refused before touching the channel.
        let (mut a, _b) = pair(Net::Memory);
        let e = beaver::send(&mut a, &mut s, &[(Block::ZERO, Block::ONES)]);
        assert!(matches!(e, Err(Error::Exhausted(_))), "{e:?}");
    }
}

#[test]
fn correlated_beaver_transfers_free_xor_labels() {
    let delta = Block(0xfeed_beef_u128 << 64 | 0x55).with_lsb(true);
    let (s, r): (CotSenderBatch, CotReceiverBatch) = run2(
        pair(Net::Memory),
        move |ch| {
            let mut s = IknpSender::setup_with_delta(ch, &mut Prg::new(), delta).unwrap();
            s.correlated_batch(ch, 64).unwrap()
        },
        move |ch| {
            let mut prg = Prg::new();
            let mut r = IknpReceiver::setup(ch, &mut prg).unwrap();
            r.correlated_batch(ch, &mut prg, 64).unwrap()
        },
    );
    let (mut s, mut r) = (store(&s), store(&r));
    assert_eq!(s.delta(), delta);
    let labels: Vec<Block> = (0..64u128).map(|i| Block(i * 0x9e37_79b9)).collect();
    let bits: Vec<bool> = (0..64).map(|i| i % 5 < 2).collect();
    let (l2, b2) = (labels.clone(), bits.clone());
    let ((), got) = run2(
        pair(Net::Memory),
        move |ch| beaver::send_correlated(ch, &mut s, &l2).unwrap(),
        move |ch| beaver::receive_correlated(ch, &mut r, &b2).unwrap(),
    );
    for i in 0..64 {
        assert_eq!(got[i], labels[i] ^ delta.and_bit(bits[i]));
    }
}

#[test]
fn desynchronised_stores_are_detected() {
    let (mut s, mut r) = preprocess(Net::Memory, 10);
    drop(r.take(1).unwrap()); // receiver skipped one OT
    let (res_s, res_r) = run2(
        pair(Net::Memory),
        move |ch| beaver::send(ch, &mut s, &[(Block(1), Block(2))]),
        move |ch| beaver::receive(ch, &mut r, &[true]),
    );
    assert!(matches!(res_s, Err(Error::Malformed(_))), "{res_s:?}");
    // The sender aborted, so the receiver sees the peer go away.
    assert!(res_r.is_err());
}
