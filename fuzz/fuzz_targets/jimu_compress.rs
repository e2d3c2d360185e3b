//! JIMU's A' (Setup) as Bob reads it, direct
//! (`brickyard_jimu::fuzzing::compress`): 16 rows of 32 bytes and the
//! rank check `compress-rank`. Its own target because a full-rank A'
//! costs milliseconds a run in the fuzz build. `Ok` or a typed error,
//! never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_jimu::fuzzing::compress(data);
});
