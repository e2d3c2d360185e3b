//! LEGO's batch messages (the batch-name coin toss and the batch listing
//! before Build), honest Bob against a mutated honest transcript or raw
//! bytes (`brickyard_lego::fuzzing`): `Ok` or a typed error,
//! never a panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_lego::fuzzing::run(data);
});
