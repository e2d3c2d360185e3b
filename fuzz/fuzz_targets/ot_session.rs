//! Every OT-layer message after the base OTs, with its check, at
//! thousands of runs per second: KOS (both roles), Δ-ROT (both roles) and
//! TinyOT (both roles) over base OTs dealt from a fixed seed
//! (`brickyard_ot::fuzzing::dealt`). Byte 0 picks the victim; the rest
//! mutates the honest peer's recorded transcript or is the raw peer stream
//! (`fuzz/common/replay.rs`). `Ok` or a typed error, never a panic or an
//! unbounded allocation.
#![no_main]

#[path = "../common/replay.rs"]
mod replay;

libfuzzer_sys::fuzz_target!(|data: &[u8]| replay::select(
    &brickyard_ot::fuzzing::dealt::SESSIONS,
    data
));
