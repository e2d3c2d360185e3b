//! The exact integers behind Theorem 2 live in `brickyard_core::bigint`
//! (shared with Lindell–Riva's Lemmas 2.2/2.3).

pub(crate) use brickyard_core::bigint::BigUint;
