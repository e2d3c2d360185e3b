//! The store's decoder of a reservation-state file body on arbitrary bytes
//! (`brickyard_store::fuzzing::state`): `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_store::fuzzing::state(data);
});
