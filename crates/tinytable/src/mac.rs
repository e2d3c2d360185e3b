//! The two ways a party is committed to its table entries.
//!
//! * **Lookup MAC** (Fig. 3 / Fig. 5): for entry `c` the verifier holds one
//!   random k-bit string per possible value, `a_c^v` for `v < 2^m`; the
//!   committer holds only `a_c^{s_c}` for its actual share `s_c`. Opening
//!   `s'` means "I know `a_c^{s'}`"; a wrong `s'` needs a string the cheater
//!   never saw, so it survives with probability 2^-k. Nothing is sent per
//!   entry: both sides XOR the strings into accumulators compared once.
//! * **Linear MAC** (Sec. 3): the verifier holds one key `α ∈ GF(2^k)` and a
//!   pad `β_c` per entry; the committer holds `y_c = α·s_c + β_c`, where
//!   `α·s_c` is the *unreduced* carry-less product (degree < k+m−1, the
//!   paper's field 𝔾 trick: no reduction is ever needed). Forging `s' ≠ s`
//!   means finding `y'` with `y' − y = α(s' − s)`, i.e. guessing `α`:
//!   probability 2^-k. Openings are batched (Sec. 3.3): the committer sends
//!   `H = ⊕ F(y_c)` with `F` fixed-key AES (MMO, `π(d) ⊕ d`), truncated to
//!   k bits, and the verifier recomputes it from `α·s'_c + β_c`.
//! * **Passive**: no MACs — the semi-honest protocol of Fig. 2, kept only as
//!   the "Passive" row of the paper's tables (reports say so).

use brickyard_core::hash::tccr_batch;
use brickyard_core::{Block, Error, Result};

/// Tweak spaces of the TCCR calls made under (or beside) TinyOT's Δ, by
/// the high half of the tweak, so that no two uses ever share a tweak:
///
/// * TinyOT's leaky AND (`brickyard_ot::tinyot::leaky_and`): high half 0
///   (tweaks `2L + side` for session indices L < 2^62);
/// * the lookup strings of real preprocessing (`preprocessing.rs`,
///   `a^v = F(mac^v)`): high half [`LOOKUP_TWEAK`] | owner;
/// * the batched linear-MAC hash `F` of [`Acc`]: high half
///   [`ACC_TWEAK`] | purpose << 8 | prover, low half the block's position.
pub const LOOKUP_TWEAK: u64 = 1 << 63;
/// See [`LOOKUP_TWEAK`].
pub const ACC_TWEAK: u64 = 1 << 62;

/// What an [`Acc`] authenticates (part of its hash tweaks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Table entries opened in the online layers.
    Tables = 1,
    /// Output-mask shares.
    Outputs = 2,
}

/// The tweak-space key of an [`Acc`] proving `purpose` for the party
/// `prover` (0 = Alice, 1 = Bob): the prover and the verifier of the same
/// MACs use the same key, and no two accumulators of a run share one.
pub fn acc_key(purpose: Purpose, prover: u64) -> u64 {
    ACC_TWEAK | (purpose as u64) << 8 | prover
}

/// How table entries (and output-mask shares) are authenticated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MacScheme {
    /// No authentication: semi-honest only.
    Passive,
    /// Per-entry lookup strings of `k` bits (Fig. 3/5).
    Lookup {
        /// Security parameter: a cheat survives with probability 2^-k.
        k: u32,
    },
    /// Linear MAC `α·x + β` over GF(2^k) without reduction (Sec. 3).
    Linear {
        /// Security parameter: a cheat survives with probability 2^-k.
        k: u32,
    },
}

impl MacScheme {
    /// Parses `passive`, `lookup-32`, `lookup-64`, `linear-32`, `linear-64`.
    pub fn parse(s: &str) -> Result<MacScheme> {
        let bad = || {
            Error::config(format!(
                "unknown MAC scheme `{s}` (expected passive, lookup-32, lookup-64, linear-32 or linear-64)"
            ))
        };
        if s == "passive" {
            return Ok(MacScheme::Passive);
        }
        let (kind, k) = s.split_once('-').ok_or_else(bad)?;
        let k: u32 = match k {
            "32" => 32,
            "64" => 64,
            _ => return Err(bad()),
        };
        match kind {
            "lookup" => Ok(MacScheme::Lookup { k }),
            "linear" => Ok(MacScheme::Linear { k }),
            _ => Err(bad()),
        }
    }

    /// The name [`MacScheme::parse`] accepts.
    pub fn name(self) -> String {
        match self {
            MacScheme::Passive => "passive".into(),
            MacScheme::Lookup { k } => format!("lookup-{k}"),
            MacScheme::Linear { k } => format!("linear-{k}"),
        }
    }

    /// The statistical security parameter (0 = passive).
    pub fn k(self) -> u32 {
        match self {
            MacScheme::Passive => 0,
            MacScheme::Lookup { k } | MacScheme::Linear { k } => k,
        }
    }

    /// Whether entries carry MACs.
    pub fn is_malicious(self) -> bool {
        self != MacScheme::Passive
    }

    /// Bytes of one k-bit key or lookup string.
    pub fn key_bytes(self) -> usize {
        self.k() as usize / 8
    }

    /// Bytes of the committer's tag for one `m`-bit entry.
    pub fn tag_bytes(self, m: u32) -> usize {
        match self {
            MacScheme::Passive => 0,
            MacScheme::Lookup { k } => k as usize / 8,
            MacScheme::Linear { k } => (k + m - 1).div_ceil(8) as usize,
        }
    }

    /// Bytes the verifier keeps per `m`-bit entry of the peer.
    pub fn verify_bytes(self, m: u32) -> usize {
        match self {
            MacScheme::Passive => 0,
            MacScheme::Lookup { k } => (k as usize / 8) << m,
            MacScheme::Linear { .. } => self.tag_bytes(m),
        }
    }

    /// Mask of the value bits of a proof (k bits).
    fn proof_mask(self) -> u64 {
        match self.k() {
            0 => 0,
            64 => u64::MAX,
            k => (1u64 << k) - 1,
        }
    }
}

/// Reads a little-endian integer of `b.len() ≤ 16` bytes.
#[inline]
pub fn read_le(b: &[u8]) -> u128 {
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(b);
    u128::from_le_bytes(w)
}

/// Writes the low `out.len()` bytes of `v`, little-endian.
#[inline]
pub fn write_le(out: &mut [u8], v: u128) {
    let n = out.len();
    out.copy_from_slice(&v.to_le_bytes()[..n]);
}

/// `α·x` as polynomials over GF(2), unreduced, for an entry of `m ≤ 8`
/// bits: constant time (masks, no branch or index on `x` or `α`).
#[inline]
pub fn clmul_small(alpha: u64, x: u8, m: u32) -> u128 {
    let mut acc = 0u128;
    for j in 0..m {
        let mask = 0u128.wrapping_sub(((x >> j) & 1) as u128);
        acc ^= ((alpha as u128) << j) & mask;
    }
    acc
}

/// Linear-MAC values hashed per fixed-key AES call (two full VAES-512
/// pipelines of `brickyard_core::hash`).
const F_BATCH: usize = 128;

/// One side's running authentication value for a batch of openings.
///
/// Lookup strings are XORed in directly (Fig. 5). Linear-MAC values `d_i`
/// (`k + m − 1` bits each) are packed into 128-bit blocks, in slots of 32
/// bits (binary linear-32: four per block), 64 bits (binary linear-64,
/// S-box linear-32: two per block) or 128 bits (S-box linear-64), and the
/// blocks are hashed [`F_BATCH`] at a time into
/// `H = ⊕_j F(d_{jp} ‖ … ‖ d_{jp+p−1})` (Sec. 3.3, with `F` applied to
/// packed blocks: a `d_i` the committer cannot predict makes its whole
/// block an input it has never seen, so the paper's random-oracle argument
/// is unchanged; both sides pack in the same order because they run the
/// same loops). Memory stays constant however many entries a batch opens,
/// and AES always sees full pipelines.
pub struct Acc {
    scheme: MacScheme,
    /// High half of every hash tweak ([`acc_key`]).
    key: u64,
    /// Blocks hashed so far: the low half of the next block's tweak, so
    /// that equal blocks at different positions never cancel in `H`.
    counter: u64,
    lookup: u64,
    hashed: u64,
    /// Slot width in bits (32, 64 or 128), linear MAC only.
    slot: u32,
    /// Filled 32-bit words of `buf`.
    pos: usize,
    buf: [Block; F_BATCH],
}

impl Acc {
    /// An empty accumulator for `m`-bit entries whose hash tweaks live in
    /// the space `key` ([`acc_key`]).
    pub fn new(scheme: MacScheme, m: u32, key: u64) -> Acc {
        let slot = match scheme {
            MacScheme::Linear { k } => (k + m - 1).next_power_of_two().max(32),
            _ => 128,
        };
        Acc {
            scheme,
            key,
            counter: 0,
            lookup: 0,
            hashed: 0,
            slot,
            pos: 0,
            buf: [Block::ZERO; F_BATCH],
        }
    }
    /// An empty accumulator like this one (same scheme, slots and tweak
    /// space), for the next batch of openings.
    pub fn fresh(&self) -> Acc {
        Acc {
            scheme: self.scheme,
            key: self.key,
            counter: 0,
            lookup: 0,
            hashed: 0,
            slot: self.slot,
            pos: 0,
            buf: [Block::ZERO; F_BATCH],
        }
    }
    /// Adds a lookup string (Fig. 5: `m_A ⊕= a^{e_A}` / `t_B ⊕= a^{e_A}`).
    #[inline(always)]
    pub fn add_lookup(&mut self, s: u64) {
        self.lookup ^= s;
    }
    /// Adds a linear-MAC value `d < 2^(k+m−1)` (a tag, or the verifier's
    /// recomputation).
    #[inline(always)]
    pub fn add_linear(&mut self, d: u128) {
        let words: &mut [u32] = bytemuck::cast_slice_mut(&mut self.buf[..]);
        match self.slot {
            32 => {
                words[self.pos] = d as u32;
                self.pos += 1;
            }
            64 => {
                words[self.pos] = d as u32;
                words[self.pos + 1] = (d >> 32) as u32;
                self.pos += 2;
            }
            _ => {
                for (j, w) in words[self.pos..self.pos + 4].iter_mut().enumerate() {
                    *w = (d >> (32 * j)) as u32;
                }
                self.pos += 4;
            }
        }
        if self.pos == 4 * F_BATCH {
            self.hash_pending();
        }
    }
    /// [`Acc::add_linear`] of every value of `vals`, in order: the same
    /// packing, with the slot width resolved once per call instead of once
    /// per value (the online phase collects a layer's values first).
    pub fn extend_linear(&mut self, mut vals: &[u128]) {
        let per = (self.slot / 32) as usize;
        while !vals.is_empty() {
            let n = ((4 * F_BATCH - self.pos) / per).min(vals.len());
            let (now, rest) = vals.split_at(n);
            let at = self.pos / per;
            match self.slot {
                32 => {
                    let w: &mut [u32] = bytemuck::cast_slice_mut(&mut self.buf[..]);
                    for (o, &d) in w[at..at + n].iter_mut().zip(now) {
                        *o = d as u32;
                    }
                }
                64 => {
                    let w: &mut [u64] = bytemuck::cast_slice_mut(&mut self.buf[..]);
                    for (o, &d) in w[at..at + n].iter_mut().zip(now) {
                        *o = d as u64;
                    }
                }
                _ => {
                    for (o, &d) in self.buf[at..at + n].iter_mut().zip(now) {
                        *o = Block(d);
                    }
                }
            }
            self.pos += n * per;
            vals = rest;
            if self.pos == 4 * F_BATCH {
                self.hash_pending();
            }
        }
    }
    /// `hashed ⊕= ⊕ F_j(block_j)` over the filled blocks (a partly filled
    /// last block is zero-padded), `F_j` = the fixed-key TCCR hash under
    /// the tweak (key, j) with j the block's position in this accumulator,
    /// truncated to its low 64 bits (then to k by `finish`). The position
    /// in the tweak keeps two equal blocks from cancelling; the key keeps
    /// the table and output proofs of both parties apart.
    fn hash_pending(&mut self) {
        let blocks = self.pos.div_ceil(4);
        if let Some(partial) = self.buf.get_mut(self.pos / 4) {
            if !self.pos.is_multiple_of(4) {
                partial.0 &= (1u128 << (32 * (self.pos % 4))) - 1;
            }
        }
        let mut tweaks = [Block::ZERO; F_BATCH];
        for (j, t) in tweaks[..blocks].iter_mut().enumerate() {
            *t = Block::from_halves(self.counter + j as u64, self.key);
        }
        self.counter += blocks as u64;
        let pending = &mut self.buf[..blocks];
        tccr_batch(pending, &tweaks[..blocks]);
        self.hashed ^= pending.iter().fold(0u64, |h, b| h ^ b.0 as u64);
        self.pos = 0;
    }
    /// The k-bit value sent (committer) or compared (verifier):
    /// the XOR of lookup strings, or `H` (Sec. 3.3).
    pub fn finish(mut self) -> u64 {
        let v = match self.scheme {
            MacScheme::Passive => 0,
            MacScheme::Lookup { .. } => self.lookup,
            MacScheme::Linear { .. } => {
                self.hash_pending();
                self.hashed
            }
        };
        v & self.scheme.proof_mask()
    }
}

impl Drop for Acc {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.lookup.zeroize();
        self.hashed.zeroize();
        self.buf.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_roundtrip() {
        for s in [
            "passive",
            "lookup-32",
            "lookup-64",
            "linear-32",
            "linear-64",
        ] {
            assert_eq!(MacScheme::parse(s).unwrap().name(), s);
        }
        assert!(MacScheme::parse("lookup-128").is_err());
        assert!(MacScheme::parse("linear").is_err());
    }

    #[test]
    fn clmul_is_linear_and_matches_schoolbook() {
        let a = 0xdead_beef_0123_4567u64;
        for x in [0u8, 1, 2, 0x80, 0xff, 0x5a] {
            let mut want = 0u128;
            for j in 0..8 {
                if (x >> j) & 1 == 1 {
                    want ^= (a as u128) << j;
                }
            }
            assert_eq!(clmul_small(a, x, 8), want);
            assert_eq!(
                clmul_small(a, x, 8) ^ clmul_small(a, 0x33, 8),
                clmul_small(a, x ^ 0x33, 8)
            );
        }
    }

    #[test]
    fn packed_hash_depends_on_every_value_and_its_position() {
        for (scheme, m) in [
            (MacScheme::Linear { k: 64 }, 1),
            (MacScheme::Linear { k: 32 }, 1),
            (MacScheme::Linear { k: 64 }, 8),
            (MacScheme::Linear { k: 32 }, 8),
        ] {
            let bits = scheme.k() + m - 1;
            let vals: Vec<u128> = (0..300u128)
                .map(|i| (i * 0x9e37_79b9_7f4a_7c15_f39c) & ((1u128 << bits) - 1))
                .collect();
            let h = |v: &[u128]| {
                let mut a = Acc::new(scheme, m, acc_key(Purpose::Tables, 0));
                for &d in v {
                    a.add_linear(d);
                }
                a.finish()
            };
            let base = h(&vals);
            for split in [0, 1, 3, 200, 300] {
                let mut a = Acc::new(scheme, m, acc_key(Purpose::Tables, 0));
                a.extend_linear(&vals[..split]);
                a.add_linear(vals[split.min(299)]);
                a.extend_linear(&vals[(split + 1).min(300)..]);
                let want = if split < 300 {
                    base
                } else {
                    h(&[&vals[..], &vals[299..]].concat())
                };
                assert_eq!(a.finish(), want, "extend_linear packs as add_linear");
            }
            assert_eq!(base, h(&vals), "deterministic");
            for i in [0, 1, 2, 127, 128, 299] {
                let mut v = vals.clone();
                v[i] ^= 1 << (bits - 1);
                assert_ne!(h(&v), base, "value {i} counts");
            }
            if bits <= 64 {
                let mut v = vals.clone();
                v.swap(0, 1);
                assert_ne!(h(&v), base, "positions inside a block count");
            }
            assert_ne!(h(&vals[..299]), base, "length counts");
        }
    }

    /// Two equal blocks in one batch opening must not cancel (with an
    /// untweaked F they did: F(b) ⊕ F(b) = 0, so a committer could drop a
    /// pair of equal blocks from H); and the four proofs of a run hash
    /// under four different tweak spaces.
    #[test]
    fn equal_blocks_do_not_cancel_and_keys_separate() {
        let scheme = MacScheme::Linear { k: 64 };
        let key = acc_key(Purpose::Tables, 1);
        let h = |v: &[u128], key: u64| {
            let mut a = Acc::new(scheme, 8, key);
            a.extend_linear(v);
            a.finish()
        };
        // S-box linear-64: one value per block.
        let d = 0x1234_5678_9abc_def0_1122u128;
        assert_ne!(h(&[d, d], key), 0, "a pair of equal blocks cancelled");
        assert_ne!(h(&[7, d, d], key), h(&[7], key));
        let keys = [
            acc_key(Purpose::Tables, 0),
            acc_key(Purpose::Tables, 1),
            acc_key(Purpose::Outputs, 0),
            acc_key(Purpose::Outputs, 1),
        ];
        for (i, &a) in keys.iter().enumerate() {
            assert!(a & LOOKUP_TWEAK == 0 && a & ACC_TWEAK != 0);
            for &b in &keys[i + 1..] {
                assert_ne!(h(&[d], a), h(&[d], b));
            }
        }
    }

    #[test]
    fn tag_sizes_match_the_papers_counting() {
        // Table 1, S-box linear-64: 8 + 2·72 bits per entry = 19 bytes.
        let s = MacScheme::Linear { k: 64 };
        assert_eq!(1 + s.tag_bytes(8) + s.verify_bytes(8), 19);
        // Binary lookup-64: 1 bit + k + 2k per entry.
        let l = MacScheme::Lookup { k: 64 };
        assert_eq!(l.tag_bytes(1) + l.verify_bytes(1), 24);
    }
}
