//! Parameters of the scheme, fixed at compile time so buffers have static
//! shapes; `docs/protocols/commitments.md` derives them.

/// Committed message length in bits (one [`brickyard_core::Block`]).
pub const K: usize = 128;
/// Parity bits of the code: the degree of the BCH generator polynomial
/// (19 cyclotomic cosets of size 9, see `bch.rs`).
pub const PARITY: usize = 171;
/// Code length = number of base OTs = bits of the commitment "shares".
pub const N: usize = K + PARITY;
/// Designed minimum distance of the code (BCH bound: roots α^1..α^40).
pub const D: usize = 41;
/// Statistical security parameter; the code distance must exceed it.
pub const S: usize = 40;

/// Words of a per-commitment row (bit j = code position j; 320 bits so the
/// bit-sliced data transposes in whole 8-row groups and rows stay u64-aligned).
pub const ROW_WORDS: usize = 5;
/// Rows of the bit-sliced matrix fed to the transpose (N padded with zero rows).
pub const SLICED_ROWS: usize = 64 * ROW_WORDS;
/// Bytes of a row on the wire: `ceil(N / 8)`; bits from N on must be zero.
pub const WIRE_ROW_BYTES: usize = N.div_ceil(8);

/// Blocks of 128 commitments processed together: 32 keeps every AES call at
/// the VAES pipeline depth and a chunk's rows (~150 KB) inside L2.
pub const CHUNK_BLOCKS: usize = 32;

/// Number of GF(2^128) combinations in the commit-phase consistency check.
/// One is not enough for the union bound over the watch-bit sets the
/// committer can guess (see the doc, "Consistency check").
pub const CHECK_COMBINATIONS: usize = 2;

const _: () = assert!(D > S, "the code distance must exceed s");
const _: () = assert!(N <= SLICED_ROWS && SLICED_ROWS.is_multiple_of(8));
const _: () = assert!(PARITY <= 3 * 64 && K == 128);
