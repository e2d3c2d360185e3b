//! The store's decoder of a manifest file (sealed JSON, parsed before or without its MAC) on arbitrary bytes
//! (`brickyard_store::fuzzing::manifest`): `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = brickyard_store::fuzzing::manifest(data);
});
