//! `yao`: semi-honest Yao with half-gates and preprocessed OT — the baseline
//! the other protocols are measured against. See `docs/protocols/yao.md`.
//!
//! | phase | Alice (garbler) | Bob (evaluator) |
//! |---|---|---|
//! | setup | IKNP sender (base OTs) | IKNP receiver |
//! | independent | random OTs for E × (Bob's input bits), in memory or streamed to the store | same, random choices |
//! | dependent | — (the circuit is garbled online, as in CompGC's "naive" baseline) | — |
//! | online | fresh Δ; on Bob's corrections: his label pairs masked by the OTs, her labels, streamed tables, decoding | corrections `d = y ⊕ c`; derandomise, evaluate, decode |
//!
//! Security: semi-honest only. A malicious Alice can garble a different
//! function; a malicious Bob learns nothing beyond the output, but with
//! `--output both` Alice accepts only output labels that authenticate (the
//! check `output-label-authenticity`).
#![deny(missing_docs)]

mod alice;
mod bob;
pub use brickyard_rot_pool as material;

pub use alice::YaoAlice;
pub use bob::YaoBob;

// Input/output layout helpers live in the driver (yao, compgc and lego all
// use them).
pub(crate) use brickyard_driver::layout::{flatten, input_positions, split_outputs};
