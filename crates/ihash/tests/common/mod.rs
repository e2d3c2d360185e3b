#![allow(dead_code)]
use brickyard_core::channel::memory_pair;
use brickyard_core::Channel;

/// Runs Alice and Bob on a memory channel pair, each in its own thread.
pub fn run<A, B, RA, RB>(alice: A, bob: B) -> (RA, RB)
where
    A: FnOnce(&mut Channel) -> RA + Send + 'static,
    B: FnOnce(&mut Channel) -> RB + Send + 'static,
    RA: Send + 'static,
    RB: Send + 'static,
{
    let (mut ca, mut cb) = memory_pair();
    let ha = std::thread::spawn(move || alice(&mut ca));
    let rb = bob(&mut cb);
    (ha.join().expect("alice panicked"), rb)
}

/// Two-sided check that `hits` of `trials` is within 4 standard
/// deviations of probability `p`.
pub fn assert_rate(name: &str, hits: usize, trials: usize, p: f64, seed: u128) {
    let rate = hits as f64 / trials as f64;
    let sd = (p * (1.0 - p) / trials as f64).sqrt();
    println!("{name}: {hits}/{trials} = {rate:.5}, expected {p:.5} ± 4·{sd:.5} (seed {seed:#x})");
    assert!(
        (rate - p).abs() <= 4.0 * sd,
        "{name}: rate {rate:.5} outside {p:.5} ± {:.5} (seed {seed:#x})",
        4.0 * sd
    );
}
