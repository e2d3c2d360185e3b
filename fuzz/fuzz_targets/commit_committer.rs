//! Commitment wire formats, the committer as victim: a recorded honest peer
//! transcript mutated by the input, or raw bytes (see
//! `brickyard_commit::fuzzing`). `Ok` or a typed error, never a panic.
#![no_main]

use brickyard_commit::fuzzing::{run, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = run(Target::Committer, data);
});
