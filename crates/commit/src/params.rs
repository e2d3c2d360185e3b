//! Parameters of the scheme. The message length, the row layout and the
//! chunking are fixed at compile time (buffers have static shapes); the
//! code, and with it the number of base OTs, the correction bits and the
//! bit-opening repetitions, is derived at run time from the statistical
//! parameter s ([`CommitParams`]); `docs/protocols/commitments.md` derives
//! each bound.

use crate::code::Code;
use brickyard_core::{Error, Result};

/// Committed message length in bits (one [`brickyard_core::Block`]).
pub const K: usize = 128;

/// Words of a per-commitment row (bit j = code position j, bits from N on
/// zero). 448 bits hold the code of every s up to [`CommitParams::max_s`]
/// = 86 (s = 40: N = 299 in words 0..5; s = 83, LEGO's components at
/// s = 80: N = 437); the wire, the transposes and the GF(2^128) checks
/// use only the code's N bits (`CommitParams::n`), and the padding words
/// stay zero.
pub const ROW_WORDS: usize = 7;
/// Longest code the row layout holds.
pub const MAX_N: usize = 64 * ROW_WORDS;
/// Shortest code (one parity bit).
pub const MIN_N: usize = K + 1;
/// Words of a code's parity part in a row (words 2.. of a row).
pub const PARITY_WORDS: usize = ROW_WORDS - 2;
/// Most parity bits a code may have.
pub const MAX_PARITY: usize = MAX_N - K;

/// Blocks of 128 commitments processed together: 32 keeps every AES call at
/// the VAES pipeline depth and a chunk's rows (~150 KB) inside L2.
pub const CHUNK_BLOCKS: usize = 32;

/// Fewest GF(2^128) combinations in the commit-phase consistency check.
/// One is not enough for the union bound over the watch-bit sets the
/// committer can guess (see the doc, "Consistency check"); longer codes
/// need more ([`CommitParams::checks`]).
pub const MIN_CHECKS: usize = 2;
/// Most combinations the check may use.
pub const MAX_CHECKS: usize = 8;
/// What the check's bad event must stay below, in bits beyond s, at the
/// largest batch ([`crate::receiver::MAX_BATCH`]).
pub const CHECK_MARGIN: f64 = 20.0;

/// Smallest statistical parameter the scheme accepts.
pub const MIN_S: u32 = 40;
/// The statistical parameter of [`CommitParams::default`] (the scheme on
/// its own: `brickyard bench commit`). Protocols pass their own.
pub const DEFAULT_S: u32 = 40;

/// Everything of the scheme that depends on the statistical parameter s:
/// each of its failure events is bounded by 2^-s (binding, including the
/// consistency check and batch openings: 2^-D with D ≥ s + 1; bit
/// openings: s random combinations, 2^-s). Both parties must use the same
/// s (a different code length makes the base-OT count and every message
/// size differ, which the peer refuses as `Malformed`).
#[derive(Clone, Copy)]
pub struct CommitParams {
    s: u32,
    code: &'static Code,
    checks: usize,
}

impl PartialEq for CommitParams {
    fn eq(&self, other: &Self) -> bool {
        self.s == other.s
            && self.distance() == other.distance()
            && self.n() == other.n()
            && self.checks == other.checks
    }
}

impl Eq for CommitParams {}

impl std::fmt::Debug for CommitParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CommitParams {{ s: {}, N: {}, D: {}, checks: {} }}",
            self.s,
            self.n(),
            self.distance(),
            self.checks
        )
    }
}

impl CommitParams {
    /// The parameters for statistical parameter `s`: the narrow-sense BCH
    /// code with roots α^1..α^s (designed distance ≥ s + 1),
    /// shortened to K message bits. Refuses `s <` [`MIN_S`] and codes the
    /// row layout cannot hold (`Config`).
    pub fn new(s: u32) -> Result<CommitParams> {
        if s < MIN_S {
            return Err(Error::config(format!(
                "commitments: s = {s} refused (need s ≥ {MIN_S})"
            )));
        }
        Self::with_distance(s, s as usize + 1)
    }

    /// Parameters whose code has designed distance ≥ `d`, with `s` bit-opening
    /// repetitions; `Config` when the row layout cannot hold the code.
    fn with_distance(s: u32, d: usize) -> Result<CommitParams> {
        let code = Code::for_distance(d).ok_or_else(|| {
            Error::config(format!(
                "commitments: s = {s} needs a BCH code of distance ≥ {d}, which does not fit the {}-bit rows (largest supported s: {})",
                MAX_N,
                Self::max_s()
            ))
        })?;
        // The fewest check combinations whose bad event at the largest
        // batch stays CHECK_MARGIN bits below 2^-s.
        let max_blocks = (crate::receiver::MAX_BATCH / 128) as u64;
        let checks = (MIN_CHECKS..=MAX_CHECKS)
            .find(|&c| {
                let p = CommitParams { s, code, checks: c };
                p.check_bad_event_log2(max_blocks + c as u64) <= -(s as f64) - CHECK_MARGIN
            })
            .ok_or_else(|| {
                Error::config(format!(
                    "commitments: s = {s} needs more than {MAX_CHECKS} check combinations"
                ))
            })?;
        Ok(CommitParams { s, code, checks })
    }

    /// GF(2^128) combinations of the commit-phase consistency check (and
    /// mask blocks per batch): [`MIN_CHECKS`], or more where the code is
    /// long enough that Σ_{e<D} C(N, e)·2^-e needs them.
    pub fn checks(&self) -> usize {
        self.checks
    }

    /// The largest s whose code fits the row layout.
    pub fn max_s() -> u32 {
        (MIN_S..)
            .take_while(|&s| Code::for_distance(s as usize + 1).is_some())
            .last()
            .unwrap_or(0)
    }

    /// Statistical parameter.
    pub fn s(&self) -> u32 {
        self.s
    }

    /// The code.
    pub fn code(&self) -> &'static Code {
        self.code
    }

    /// Code length = number of base OTs = bits of the commitment shares.
    pub fn n(&self) -> usize {
        self.code.n()
    }

    /// Parity bits of the code (correction bits per random commitment).
    pub fn parity(&self) -> usize {
        self.code.parity_bits()
    }

    /// Designed distance D of the code (BCH bound).
    pub fn distance(&self) -> usize {
        self.code.distance()
    }

    /// Random combinations (and blinders) of a bit opening.
    pub fn blinders(&self) -> usize {
        self.s as usize
    }

    /// Bytes of a row on the wire: `ceil(N / 8)`; bits from N on must be zero.
    pub fn wire_row_bytes(&self) -> usize {
        self.n().div_ceil(8)
    }

    /// Bytes of one opening `(m, t)` on the wire.
    pub fn opening_bytes(&self) -> usize {
        16 + self.wire_row_bytes()
    }

    /// log2 of the binding bound per session: a committer that passes the
    /// consistency check with a non-codeword outside fewer than D positions
    /// and later opens anything but the extracted value must guess the
    /// watch bits on D positions (commitments.md, "Binding").
    pub fn binding_log2(&self) -> f64 {
        -(self.distance() as f64)
    }

    /// log2 of the bound on the consistency check's bad event for a batch
    /// of `blocks` blocks of 128 commitments:
    /// `Σ_{e<D} C(N, e)·2^-e·(blocks/2^128)^c` for c = [`Self::checks`]
    /// combinations (commitments.md).
    pub fn check_bad_event_log2(&self, blocks: u64) -> f64 {
        let n = self.n();
        let mut log_binom = 0.0f64; // log2 C(n, e)
        let mut terms = Vec::with_capacity(self.distance());
        for e in 0..self.distance() {
            if e > 0 {
                log_binom += ((n - e + 1) as f64).log2() - (e as f64).log2();
            }
            terms.push(log_binom - e as f64);
        }
        let max = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let sum = max + terms.iter().map(|t| (t - max).exp2()).sum::<f64>().log2();
        sum + self.checks as f64 * ((blocks.max(1) as f64).log2() - 128.0)
    }

    /// log2 of a bit opening's bound: each of the s random combinations
    /// catches a wrong claimed bit with probability 1/2.
    pub fn bit_open_log2(&self) -> f64 {
        -(self.blinders() as f64)
    }
}

impl Default for CommitParams {
    fn default() -> Self {
        CommitParams::new(DEFAULT_S).expect("the default code fits the row layout")
    }
}

const _: () = assert!(MIN_N <= MAX_N && MAX_N.is_multiple_of(8));
const _: () = assert!(MAX_PARITY <= PARITY_WORDS * 64 && K == 128);

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest s the 448-bit rows hold.
    const MAX_S_FOR_TESTS: u32 = 86;

    #[test]
    fn every_parameter_follows_s() {
        let p40 = CommitParams::new(40).unwrap();
        assert_eq!((p40.distance(), p40.parity(), p40.n()), (41, 171, 299));
        assert_eq!(p40.blinders(), 40);
        let p43 = CommitParams::new(43).unwrap();
        // Roots α^1..α^44: 21 cyclotomic cosets of size 9.
        assert_eq!((p43.distance(), p43.parity(), p43.n()), (45, 189, 317));
        assert_eq!(p43.blinders(), 43);
        assert_eq!(p43.wire_row_bytes(), 40);
        let max_blocks = (crate::receiver::MAX_BATCH / 128) as u64;
        for s in MIN_S..=CommitParams::max_s() {
            let p = CommitParams::new(s).unwrap();
            assert!(p.distance() > s as usize, "s = {s}");
            assert!(p.n() <= MAX_N, "s = {s}");
            assert!(p.binding_log2() <= -(s as f64) - 1.0);
            let bad = p.check_bad_event_log2(max_blocks + p.checks() as u64);
            assert!(bad <= -(s as f64) - CHECK_MARGIN, "s = {s}: {bad}");
            if p.checks() > MIN_CHECKS {
                // The fewest that do: one fewer misses the margin.
                let fewer = CommitParams {
                    checks: p.checks() - 1,
                    ..p
                };
                assert!(fewer.check_bad_event_log2(max_blocks) > -(s as f64) - CHECK_MARGIN);
            }
        }
        // s = 40 and LEGO's s = 43 keep the two combinations they had.
        assert_eq!((p40.checks(), p43.checks()), (2, 2));
        // LEGO's components at s = 80: the [437, 128, 85] code.
        let p83 = CommitParams::new(83).unwrap();
        assert_eq!((p83.n(), p83.distance()), (437, 85), "{p83:?}");
        assert_eq!(CommitParams::max_s(), MAX_S_FOR_TESTS);
    }

    #[test]
    fn insecure_or_unsupported_s_is_refused() {
        assert!(matches!(CommitParams::new(39), Err(Error::Config(_))));
        let too_big = MAX_S_FOR_TESTS + 1;
        let e = CommitParams::new(too_big).unwrap_err();
        let want = format!("largest supported s: {MAX_S_FOR_TESTS}");
        assert!(
            matches!(e, Error::Config(ref m) if m.contains(&want)),
            "{e}"
        );
    }

    #[test]
    fn bad_event_bound_matches_the_documented_figure() {
        // commitments.md: Σ_{e<41} C(299, e)·2^-e ≈ 2^126.4.
        let p = CommitParams::new(40).unwrap();
        let at_one_block = p.check_bad_event_log2(1) + 256.0;
        assert!((at_one_block - 126.4).abs() < 0.1, "{at_one_block}");
    }
}
