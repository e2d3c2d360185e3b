//! XOR-homomorphic UC commitments from OT, a PRG and a linear code.
#![deny(missing_docs)]

mod bch;
pub mod code;
pub mod params;
