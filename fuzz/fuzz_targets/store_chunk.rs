//! The store's decoder of a data-file chunk header and its blob lengths on arbitrary bytes
//! (`brickyard_store::fuzzing::chunk`): `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_store::fuzzing::chunk(data);
});
