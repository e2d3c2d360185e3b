//! TinyTable's dealt records as a `--dealer` Bob reads them, direct
//! (`brickyard_tinytable::fuzzing::dealt`): byte 0 picks the MAC scheme
//! and the number of executions; the rest is Alice's stream: every
//! execution's table chunks and execution record (`receive_all`), then
//! the first online execution on those records with its MAC checks. `Ok`
//! or a typed error, never a panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_tinytable::fuzzing::dealt(data);
});
