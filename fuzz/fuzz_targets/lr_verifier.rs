//! Lindell–Riva's F_ExCom∆ZK (`brickyard_lindell_riva::excom`), the
//! verifier as victim: commitments, the committed selection, per-bucket
//! differences, challenges and openings, against a recorded honest prover
//! transcript mutated by the input, or raw bytes (`fuzz/common/replay.rs`).
//! `Ok` or a typed error, never a panic or an unbounded allocation.
#![no_main]

#[path = "../common/lr_excom.rs"]
mod lr_excom;
#[path = "../common/replay.rs"]
mod replay;

libfuzzer_sys::fuzz_target!(|data: &[u8]| replay::target(
    lr_excom::verifier,
    lr_excom::prover,
    data
));
