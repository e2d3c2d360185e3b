//! JIMU's i-hash (`brickyard_ihash`), the sender as victim: setup (the
//! w-out-of-n OT and its Shamir shares), a random and a chosen batch with
//! the consistency check, against a recorded honest receiver transcript
//! mutated by the input, or raw bytes (`fuzz/common/replay.rs`). The
//! label parameter set (k = 88, s = 40). `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

#[path = "../common/ihash.rs"]
mod ihash;
#[path = "../common/replay.rs"]
mod replay;

libfuzzer_sys::fuzz_target!(|data: &[u8]| replay::target(ihash::sender, ihash::receiver, data));
