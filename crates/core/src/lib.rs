//! Brickyard core: the types and kernels every other layer stands on.
//!
//! Nothing here knows about circuits or protocols. Hot kernels work on slices
//! of [`Block`]s so that AES and carry-less multiplication see many blocks per
//! call; each SIMD kernel has a portable twin tested on the same vectors.
#![deny(missing_docs)]

pub mod aes;
pub mod bigint;
pub mod block;
pub mod channel;
pub mod cpu_time;
pub mod error;
pub mod gf128;
pub mod gf2;
pub mod gf256;
pub mod hash;
pub mod hugepage;
pub mod prefetch;
pub mod prg;
pub mod transpose;
pub mod transpose_cols;

pub use block::Block;
pub use channel::{Channel, ChannelStats};
pub use error::{Error, ErrorKind, Result};
