//! Two-party test harness: run one closure per party on a channel pair.
#![allow(dead_code)]

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
