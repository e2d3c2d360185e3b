//! Peer messages of the OT layer: the victim (`Target::TinyOtAlice`) replays an
//! honest transcript mutated by the input (see `brickyard_ot::fuzzing`)
//! and must end in `Ok` or a typed error.
#![no_main]

use brickyard_ot::fuzzing::{run, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = run(Target::TinyOtAlice, data);
});
