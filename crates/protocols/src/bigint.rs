//! The exact integers behind LEGO's Theorem 2 and JIMU's Sec. 6.3 bounds
//! live in `brickyard_core::bigint` (shared with Lindell–Riva's Lemmas
//! 2.2/2.3).

pub(crate) use brickyard_core::bigint::BigUint;
