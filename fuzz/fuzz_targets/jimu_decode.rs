//! JIMU's protocol messages as each party reads them, direct
//! (`brickyard_jimu::fuzzing::decode`): byte 0 picks the step (Bob's A',
//! Alice's J opening, Bob's Check openings, Bob's solderings, Alice's OT
//! corrections, Bob's Eval labels and ρ^o) and whether the rest is the
//! peer's stream or patches to the honest message; each step runs on a
//! state dealt once from fixed seeds. `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = brickyard_jimu::fuzzing::decode(data);
});
