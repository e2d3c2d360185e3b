//! gczk's proof messages after the committed OT, direct
//! (`brickyard_gczk::fuzzing::decode`): byte 0 picks the side and the
//! relation; the prover reads the digest, the garbled tables and the
//! verifier's seed (with `gczk-garbling`), the verifier the digest, the
//! commitment and the opening (`gczk-commitment`, `gczk-output`), on a
//! state dealt from a fixed seed. `Ok` or a typed error, never a panic or
//! an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_gczk::fuzzing::decode(data);
});
