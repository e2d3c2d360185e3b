//! TinyTable's stateless decoders, direct
//! (`brickyard_tinytable::fuzzing::decode`): the options digest, packed
//! masked values with their padding, MAC-check answers of every scheme.
//! `Ok` or a typed error, never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_tinytable::fuzzing::decode(data);
});
