//! A faulty or hostile peer yields typed errors, never a panic or a hang.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error};
use brickyard_ot::{IknpReceiver, IknpSender};
use common::{run2, tcp_pair};
use std::time::{Duration, Instant};

const SHORT: Duration = Duration::from_millis(200);

#[test]
fn garbage_points_are_malformed() {
    // Extension sender is the base-OT receiver and expects the point S:
    // send junk (not a canonical encoding).
    let (res, _) = run2(
        tcp_pair(SHORT),
        |ch| IknpSender::setup(ch, &mut Prg::new()).map(|_| ()),
        |ch: &mut Channel| {
            ch.send_bytes(&[0xee; 32]).unwrap();
            ch.flush().unwrap();
            std::thread::sleep(Duration::from_millis(50));
        },
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
    // Extension receiver is the base-OT sender and gets 128 pairs
    // (r_0, r_1): junk encodings. (All-identity pairs would be valid group
    // elements, which the protocol tolerates.)
    let (res, _) = run2(
        tcp_pair(SHORT),
        |ch| IknpReceiver::setup(ch, &mut Prg::new()).map(|_| ()),
        |ch: &mut Channel| {
            let mut a = [0u8; 32];
            ch.recv_bytes(&mut a).unwrap();
            ch.send_bytes(&[0xee; 64 * 128]).unwrap();
            ch.flush().unwrap();
            std::thread::sleep(Duration::from_millis(50));
        },
    );
    assert!(matches!(res, Err(Error::Malformed(_))), "{res:?}");
}

#[test]
fn stalled_peer_times_out() {
    // During setup: the peer connects and says nothing.
    let start = Instant::now();
    let (res, _) = run2(
        tcp_pair(SHORT),
        |ch| IknpSender::setup(ch, &mut Prg::new()).map(|_| ()),
        |_ch: &mut Channel| std::thread::sleep(Duration::from_millis(600)),
    );
    assert!(matches!(res, Err(Error::Timeout(_))), "{res:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // During extension: setup completes, then the receiver stalls.
    let (res, _) = run2(
        tcp_pair(SHORT),
        |ch| {
            let mut s = IknpSender::setup(ch, &mut Prg::new())?;
            let first = s.correlated(ch, 1000);
            // After an interrupted extension the session refuses to go on
            // (the parties' PRG positions may differ).
            let again = s.correlated(ch, 10);
            assert!(matches!(again, Err(Error::Config(_))), "{again:?}");
            first
        },
        |ch: &mut Channel| {
            let r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
            std::thread::sleep(Duration::from_millis(600));
            drop(r);
        },
    );
    assert!(matches!(res, Err(Error::Timeout(_))), "{res:?}");
}

#[test]
fn peer_that_leaves_mid_extension_is_disconnected() {
    let (res, _) = run2(
        tcp_pair(Duration::from_secs(10)),
        |ch| {
            let mut s = IknpSender::setup(ch, &mut Prg::new())?;
            s.random(ch, 100_000)
        },
        |ch: &mut Channel| {
            let mut r = IknpReceiver::setup(ch, &mut Prg::new()).unwrap();
            // Half a chunk's columns, then hang up.
            let _ = r.correlated(ch, &[true; 10]);
            ch.send_blocks(&[Block::ONES; 1000]).unwrap();
            ch.flush().unwrap();
        },
    );
    assert!(matches!(res, Err(Error::Disconnected(_))), "{res:?}");
}
