//! The prover's hash commitment to its output label (JKO13 needs it so that
//! a verifier who garbled a circuit that leaks the witness through the
//! output label learns nothing: the prover opens only after its checks).

use brickyard_core::Block;

const CONTEXT: &str = "brickyard 2026-11 gczk output-label commitment v1";

/// `H(r ‖ label)` with a 128-bit random `r` (hiding in the random-oracle
/// model; binding by collision resistance).
pub fn commit(label: Block, r: Block) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(CONTEXT);
    h.update(&r.to_bytes());
    h.update(&label.to_bytes());
    *h.finalize().as_bytes()
}
