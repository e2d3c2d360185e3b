//! Two-party test harness: run one closure per party on a channel pair.
#![allow(dead_code, unused_macros, unused_imports)]

use brickyard_core::channel::{self, memory_pair, NetOptions};
use brickyard_core::Channel;
use std::time::Duration;

/// Which transport a test runs over.
#[derive(Clone, Copy, Debug)]
pub enum Net {
    Memory,
    Tcp,
}

pub const NETS: [Net; 2] = [Net::Memory, Net::Tcp];

/// A connected pair over loopback TCP with the given read timeout.
pub fn tcp_pair(read_timeout: Duration) -> (Channel, Channel) {
    let l = channel::listen("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let opts = NetOptions::with_read_timeout(read_timeout);
    let o2 = opts.clone();
    let t = std::thread::spawn(move || channel::connect(&addr, &o2).unwrap());
    let a = channel::accept(&l, &opts).unwrap();
    (a, t.join().unwrap())
}

pub fn pair(net: Net) -> (Channel, Channel) {
    match net {
        Net::Memory => memory_pair(),
        Net::Tcp => tcp_pair(Duration::from_secs(30)),
    }
}

/// Runs `fa` on the first endpoint in this thread and `fb` on the second in
/// another; returns both results.
pub fn run2<A, B: Send + 'static>(
    (a, b): (Channel, Channel),
    fa: impl FnOnce(&mut Channel) -> A,
    fb: impl FnOnce(&mut Channel) -> B + Send + 'static,
) -> (A, B) {
    let t = std::thread::spawn(move || {
        let mut b = b;
        fb(&mut b)
    });
    // `a` is dropped before the join, so a party that returns early (an
    // error) hangs up and its peer sees `Disconnected` instead of waiting.
    let ra = {
        let mut a = a;
        fa(&mut a)
    };
    let rb = t.join().unwrap();
    (ra, rb)
}

/// OT counts that hit the edges: empty, sub-row, one row, chunk boundaries.
pub const SIZES: [usize; 6] = [0, 1, 127, 128, 1000, brickyard_ot::iknp::CHUNK_OTS + 129];

/// Reproducible choice bits for a test.
pub fn choices(seed: u128, n: usize) -> Vec<bool> {
    brickyard_core::prg::Prg::from_seed(brickyard_core::Block(seed)).random_bits(n)
}

/// The correlated-OT property every extension (IKNP, KOS) must have: over
/// every size in [`SIZES`] and every transport, `t = q ⊕ c·Δ` with Δ ≠ 0,
/// and later extensions use fresh pad bits (no `q` repeats across calls).
/// A macro because the extensions share method names, not a trait.
macro_rules! check_correlated_free_xor_form {
    ($sender:ty, $receiver:ty) => {{
        use brickyard_core::{prg::Prg, Block};
        use common::{choices, pair, run2, NETS, SIZES};
        for net in NETS {
            let all: Vec<Vec<bool>> = SIZES.iter().map(|&n| choices(n as u128, n)).collect();
            let all2 = all.clone();
            let ((delta, qs), ts) = run2(
                pair(net),
                |ch| {
                    let mut s = <$sender>::setup(ch, &mut Prg::new()).unwrap();
                    let qs: Vec<Vec<Block>> = SIZES
                        .iter()
                        .map(|&n| s.correlated(ch, n).unwrap())
                        .collect();
                    assert_eq!(s.ots_done(), SIZES.iter().sum::<usize>() as u64);
                    (s.delta(), qs)
                },
                move |ch| {
                    let mut r = <$receiver>::setup(ch, &mut Prg::new()).unwrap();
                    all2.iter()
                        .map(|c| r.correlated(ch, c).unwrap())
                        .collect::<Vec<_>>()
                },
            );
            assert_ne!(delta, Block::ZERO);
            for ((q, t), c) in qs.iter().zip(&ts).zip(&all) {
                assert_eq!(q.len(), c.len());
                for i in 0..c.len() {
                    assert_eq!(t[i], q[i] ^ delta.and_bit(c[i]), "{net:?} OT {i}");
                }
            }
            let mut flat: Vec<Block> = qs.concat();
            let n = flat.len();
            flat.sort();
            flat.dedup();
            assert_eq!(flat.len(), n, "q repeats across calls");
        }
    }};
}
pub(crate) use check_correlated_free_xor_form;
