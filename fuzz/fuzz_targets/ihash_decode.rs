//! JIMU's i-hash stateless decoders, direct (`brickyard_ihash::fuzzing::decode`):
//! corrections and check answers (symbols of GF(2^8) or GF(2^6)), the
//! verdict byte. `Ok` or a typed error, never a panic or an unbounded
//! allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_ihash::fuzzing::decode(data);
});
