//! The commitment receiver's stateless decoders, direct
//! (`brickyard_commit::fuzzing::decode`): the batch header against the
//! expected count and block, count prefixes, full openings with their
//! padding beyond the code length (codes of s = 40 … 83), bit claims.
//! `Ok` or a typed error, never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_commit::fuzzing::decode(data);
});
