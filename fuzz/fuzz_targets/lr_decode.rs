//! Lindell–Riva's stateless decoders, direct
//! (`brickyard_lindell_riva::fuzzing::decode`): packed bit vectors, Bob's
//! opened cut-and-choose selection, Bob's probe-resistant matrix specs
//! (postcard, then every premise of the probe-resistance argument).
//! `Ok` or a typed error, never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_lindell_riva::fuzzing::decode(data);
});
