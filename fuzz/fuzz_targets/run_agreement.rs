//! The run agreement (a postcard `Agreement`) and a phase barrier against
//! arbitrary peer bytes (`brickyard_driver::fuzzing::agreement`): `Ok`
//! or a typed error, never a panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_driver::fuzzing::agreement(data);
});
