//! The store's decoder of a store archive's header on arbitrary bytes
//! (`brickyard_store::fuzzing::archive_header`): `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_store::fuzzing::archive_header(data);
});
