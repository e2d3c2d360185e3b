//! The Masny–Rindal base OT: correctness, refusal of malformed points, and
//! what a deviating receiver or sender can (not) do, as MR19's proof says.
//! `cargo test -p brickyard-ot --features adversary --test base_ot`

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Error};
use brickyard_ot::base;
use common::{choices, pair, run2, Net, NETS};

#[test]
fn keys_match_the_choices_on_every_transport_and_size() {
    for net in NETS {
        for n in [0usize, 1, 2, 128, 300] {
            let c = choices(n as u128 + 5, n);
            let c2 = c.clone();
            let (keys, got) = run2(
                pair(net),
                |ch| base::send_random(ch, &mut Prg::new(), n).unwrap(),
                move |ch| base::receive_random(ch, &mut Prg::new(), &c2).unwrap(),
            );
            assert_eq!((keys.len(), got.len()), (n, n));
            for i in 0..n {
                let (k0, k1) = keys[i];
                assert_ne!(k0, k1);
                assert_eq!(got[i], if c[i] { k1 } else { k0 }, "OT {i} of {n}");
            }
            let mut all: Vec<Block> = keys.iter().flat_map(|&(a, b)| [a, b]).collect();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 2 * n, "keys repeat across OTs");
        }
    }
}

#[test]
fn one_flight_each_way() {
    let n = 128;
    let c = choices(9, n);
    let ((_, stats_s), _) = run2(
        pair(Net::Memory),
        |ch| {
            let k = base::send_random(ch, &mut Prg::new(), n).unwrap();
            (k, ch.stats())
        },
        move |ch| base::receive_random(ch, &mut Prg::new(), &c).unwrap(),
    );
    assert_eq!(stats_s.bytes_sent, 32);
    assert_eq!(stats_s.bytes_received, 64 * n as u64);
}

/// Canonical-encoding failures from RFC 9496 (Ristretto255), §A.2 style:
/// a field element ≥ p, a negative (odd) field element, and a point that
/// is not on the curve's image; plus the wrong length.
const BAD: [[u8; 32]; 4] = [
    [
        0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0x7f,
    ],
    [
        0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0,
    ],
    [0xff; 32],
    [
        0x26, 0x94, 0x8d, 0x35, 0xca, 0x62, 0xe6, 0x43, 0xe2, 0x6a, 0x83, 0x17, 0x73, 0x32, 0xe6,
        0xb6, 0xaf, 0xeb, 0x9d, 0x08, 0xe4, 0x26, 0x8b, 0x65, 0x0f, 0x1f, 0x5b, 0xbd, 0x8d, 0x81,
        0xd3, 0x71,
    ],
];

#[test]
fn non_canonical_points_are_malformed() {
    for bad in BAD {
        assert!(matches!(base::decode_point(&bad), Err(Error::Malformed(_))));
    }
    assert!(matches!(
        base::decode_point(&[0u8; 31]),
        Err(Error::Malformed(_))
    ));
    // The identity is a valid receiver point but never a valid S.
    assert!(base::decode_point(&[0u8; 32]).is_ok());
    assert!(matches!(
        base::decode_sender_point(&[0u8; 32]),
        Err(Error::Malformed(_))
    ));
    // On the wire: a bad S makes the receiver fail with Malformed…
    for bad in BAD.into_iter().chain([[0u8; 32]]) {
        let (_, r) = run2(
            pair(Net::Memory),
            move |ch| {
                ch.send_bytes(&bad).unwrap();
                ch.flush().unwrap();
                let mut flight = vec![0u8; 64 * 3];
                ch.recv_bytes(&mut flight).unwrap();
            },
            |ch| base::receive_random(ch, &mut Prg::new(), &[true, false, true]),
        );
        assert!(matches!(r, Err(Error::Malformed(_))), "{r:?}");
    }
    // …and one bad point anywhere in the receiver's flight makes the
    // sender fail with Malformed.
    for (slot, bad) in [(0usize, BAD[0]), (3, BAD[1]), (5, BAD[3])] {
        let (r, _) = run2(
            pair(Net::Memory),
            |ch| base::send_random(ch, &mut Prg::new(), 3),
            move |ch| {
                let mut prg = Prg::from_seed(Block(3));
                let mut flight = Vec::new();
                for _ in 0..6 {
                    let mut wide = [0u8; 64];
                    prg.fill_bytes(&mut wide);
                    let p = curve25519_dalek::RistrettoPoint::from_uniform_bytes(&wide);
                    flight.extend_from_slice(&p.compress().to_bytes());
                }
                flight[32 * slot..32 * slot + 32].copy_from_slice(&bad);
                ch.send_bytes(&flight).unwrap();
                ch.flush().unwrap();
                let mut s = [0u8; 32];
                let _ = ch.recv_bytes(&mut s);
            },
        );
        assert!(matches!(r, Err(Error::Malformed(_))), "slot {slot}: {r:?}");
    }
}

#[test]
fn oversized_batches_are_refused() {
    let (mut a, _b) = brickyard_core::channel::memory_pair();
    let r = base::send_random(&mut a, &mut Prg::new(), base::MAX_BATCH + 1);
    assert!(matches!(r, Err(Error::Config(_))), "{r:?}");
}

#[cfg(feature = "adversary")]
mod deviating {
    use super::*;
    use base::deviant;

    /// A receiver that knows both discrete logs of `(r_0, r_1)`, or sends
    /// `r_0 = r_1`, learns neither key (MR19: it knows `pk_j`'s discrete
    /// log only for a side it programmed through `H_i`), and the honest
    /// sender still outputs two distinct keys per OT.
    #[test]
    fn a_receiver_that_deviates_learns_no_key() {
        type Deviant = fn(
            &mut brickyard_core::Channel,
            &mut Prg,
            usize,
        ) -> brickyard_core::Result<Vec<[Block; 2]>>;
        for (what, f) in [
            ("both discrete logs", deviant::receive_both_dlogs as Deviant),
            ("r_0 = r_1", deviant::receive_equal_pair as Deviant),
        ] {
            let n = 64;
            let (keys, guesses) = run2(
                pair(Net::Memory),
                |ch| base::send_random(ch, &mut Prg::new(), n).unwrap(),
                move |ch| f(ch, &mut Prg::new(), n).unwrap(),
            );
            for (i, (&(k0, k1), g)) in keys.iter().zip(&guesses).enumerate() {
                assert_ne!(k0, k1);
                for guess in g {
                    assert!(*guess != k0 && *guess != k1, "{what}: OT {i} key learned");
                }
            }
        }
    }

    /// The receiver's flight does not depend on the sender's point (it is
    /// sent before `S` is read) nor on the choices beyond which half is
    /// programmed: with the same randomness, choice 1 gives choice 0's
    /// flight with the halves swapped, and each half is a uniform point in
    /// either case (`a·G − H_i(·)` for uniform `a`, or a uniform point).
    /// A sender that sends an arbitrary point (one whose discrete log it
    /// does not know) makes the receiver output keys, nothing else.
    #[test]
    fn a_deviating_sender_learns_nothing_about_the_choices() {
        let n = 32;
        let flight_for = |c: bool| {
            let choices = vec![c; n];
            let (flight, keys) = run2(
                pair(Net::Memory),
                move |ch| {
                    let s = deviant::random_group_element(&mut Prg::from_seed(Block(11)));
                    deviant::send_point(ch, s, n).unwrap()
                },
                move |ch| base::receive_random(ch, &mut Prg::from_seed(Block(12)), &choices),
            );
            assert_eq!(keys.unwrap().len(), n);
            flight
        };
        let (f0, f1) = (flight_for(false), flight_for(true));
        for (p0, p1) in f0.chunks_exact(64).zip(f1.chunks_exact(64)) {
            assert_eq!(p0[..32], p1[32..]);
            assert_eq!(p0[32..], p1[..32]);
            assert_ne!(p0[..32], p0[32..]);
        }
        // The flight leaves before S arrives: a sender that reads the
        // whole flight before sending anything does not deadlock.
        let (flight, keys) = run2(
            pair(Net::Memory),
            |ch| {
                let mut flight = vec![0u8; 64 * n];
                ch.recv_bytes(&mut flight).unwrap();
                let s = deviant::random_group_element(&mut Prg::new());
                ch.send_bytes(&s.compress().to_bytes()).unwrap();
                ch.flush().unwrap();
                flight
            },
            move |ch| base::receive_random(ch, &mut Prg::new(), &vec![true; n]),
        );
        assert_eq!(flight.len(), 64 * n);
        assert_eq!(keys.unwrap().len(), n);
    }
}
