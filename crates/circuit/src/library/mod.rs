//! Standard circuits, addressable by name (`builtin:NAME` on the CLI).
//!
//! Names: `aes128`, `aes128-round`, `aes128-final-round`, `aes128-cbc:M`,
//! `des`, `des-expanded`, `sha256`, `addN`, `subN`, `mulN`, `ltN`, `eqN`, `hammingN`,
//! `levenshtein-cell:W`, `levenshtein:L`. Group layouts and bit orders are in
//! each module and in `docs/circuits.md`.

pub mod aes;
pub mod arith;
pub mod des;
pub mod levenshtein;
pub mod sbox;
pub mod sha256;

use crate::ir::Circuit;
use arith::IntOp;

/// Why a builtin name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    /// No builtin has this name.
    #[error("unknown builtin circuit {0:?} (try `brickyard circuit list`)")]
    Unknown(String),
    /// The size parameter is missing, not a number, or out of range.
    #[error("bad size in {name:?}: expected an integer in {min}..={max}")]
    BadSize {
        /// The name as given.
        name: String,
        /// Smallest allowed value.
        min: usize,
        /// Largest allowed value.
        max: usize,
    },
}

/// Size limits keep a typo from asking for a circuit that does not fit in
/// memory (mul1024 alone would be a million ANDs).
const INT_MAX: usize = 4096;
const MUL_MAX: usize = 512;
const CBC_MAX: usize = 1024;
const LEV_MAX: usize = 512;
const CELL_MAX: usize = 32;

fn size(name: &str, s: &str, min: usize, max: usize) -> Result<usize, LibraryError> {
    match s.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(LibraryError::BadSize {
            name: name.to_string(),
            min,
            max,
        }),
    }
}

/// Builds the standard circuit called `name`.
pub fn builtin(name: &str) -> Result<Circuit, LibraryError> {
    match name {
        "aes128" => return Ok(aes::aes128()),
        "aes128-round" => return Ok(aes::aes128_round(false)),
        "aes128-final-round" => return Ok(aes::aes128_round(true)),
        "sha256" => return Ok(sha256::sha256()),
        "des" => return Ok(des::des()),
        "des-expanded" => return Ok(des::des_expanded()),
        _ => {}
    }
    if let Some(m) = name.strip_prefix("aes128-cbc:") {
        return Ok(aes::aes128_cbc(size(name, m, 1, CBC_MAX)?));
    }
    if let Some(w) = name.strip_prefix("levenshtein-cell:") {
        return Ok(levenshtein::levenshtein_cell(size(name, w, 1, CELL_MAX)?));
    }
    if let Some(l) = name.strip_prefix("levenshtein:") {
        return Ok(levenshtein::levenshtein(size(name, l, 1, LEV_MAX)?));
    }
    let ops = [
        ("add", IntOp::Add, INT_MAX),
        ("sub", IntOp::Sub, INT_MAX),
        ("mul", IntOp::Mul, MUL_MAX),
        ("lt", IntOp::Lt, INT_MAX),
        ("eq", IntOp::Eq, INT_MAX),
        ("hamming", IntOp::Hamming, INT_MAX),
    ];
    for (prefix, op, max) in ops {
        if let Some(n) = name.strip_prefix(prefix) {
            if n.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
                return Ok(arith::int_circuit(op, size(name, n, 1, max)?));
            }
        }
    }
    Err(LibraryError::Unknown(name.to_string()))
}

/// Every builtin (parameterised ones with their parameter as a letter) and
/// a one-line description with its group layout.
pub fn builtin_names() -> Vec<(String, String)> {
    [
        ("aes128", "AES-128 encryption, key schedule inside: key(128), plaintext(128) -> ciphertext(128); REVERSED bit order"),
        ("aes128-round", "one AES round SubBytes,ShiftRows,MixColumns,AddRoundKey: state(128), round_key(128) -> state(128)"),
        ("aes128-final-round", "last AES round (no MixColumns): state(128), round_key(128) -> state(128)"),
        ("aes128-cbc:M", "AES-128-CBC of M blocks, IV = 0: key(128), plaintext(128*M) -> ciphertext(128*M)"),
        ("des", "DES encryption (FIPS 46-3), key schedule inside: key(64, parity bits ignored), plaintext(64) -> ciphertext(64); REVERSED bit order"),
        ("des-expanded", "DES encryption under given round keys: round_keys(768 = K1..K16), plaintext(64) -> ciphertext(64); REVERSED bit order"),
        ("sha256", "SHA-256 compression: block(512), chaining_value(256) -> chaining_value(256); REVERSED bit order"),
        ("addN", "a + b mod 2^N: a(N), b(N) -> out(N); LSB first"),
        ("subN", "a - b mod 2^N: a(N), b(N) -> out(N)"),
        ("mulN", "a * b mod 2^N (low half): a(N), b(N) -> out(N)"),
        ("ltN", "unsigned a < b: a(N), b(N) -> out(1)"),
        ("eqN", "a == b: a(N), b(N) -> out(1)"),
        ("hammingN", "Hamming distance popcount(a xor b): a(N), b(N) -> out(ceil(log2(N+1)))"),
        ("levenshtein-cell:W", "one edit-distance DP step: a(8), b(8), diag(W), up(W), left(W) -> d(W)"),
        ("levenshtein:L", "edit distance of two L-byte strings: a(8L), b(8L) -> distance(ceil(log2(L+1)))"),
    ]
    .into_iter()
    .map(|(n, d)| (n.to_string(), d.to_string()))
    .collect()
}
