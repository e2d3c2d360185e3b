//! Correlation-robust hashes from fixed-key AES (Guo–Katz–Wang–Yu, ePrint
//! 2019/074, "GKWY19"), plus the re-keyed multi-instance TCCR of
//! Guo–Katz–Wang–Weng–Yu (Crypto 2020, "GKWWY20").
//!
//! With π the fixed-key permutation of [`crate::aes::fixed_key`]:
//!
//! * `cr(x)      = π(x) ⊕ x` — correlation robust (IKNP-style OT extension);
//! * `ccr(x)     = π(σ(x)) ⊕ σ(x)` — circular correlation robust;
//! * `tccr(x, i) = π(π(x) ⊕ i) ⊕ π(x)` — tweakable CCR (half-gates);
//!
//! where `σ(x_L ‖ x_R) = (x_L ⊕ x_R ‖ x_L)` and `x_L` is the high 64 bits.
//! Which protocol uses which hash, and why, is in `docs/security.md`.
//!
//! Every batch function works through stack scratch of [`CHUNK`] blocks so
//! AES sees full pipelines without allocating.

use crate::aes::{fixed_key, Aes128};
use crate::Block;

/// Blocks hashed per AES call in the batch functions: two full 64-block
/// VAES-512 pipelines, and 2 KiB of stack per scratch buffer.
const CHUNK: usize = 128;

/// The linear orthomorphism σ(x_L ‖ x_R) = (x_L ⊕ x_R ‖ x_L), `x_L` = high
/// half. Both σ and σ(x) ⊕ x = (x_R ‖ x_L ⊕ x_R) are bijections, which is
/// what the GKWY19 CCR proof needs.
#[inline(always)]
pub fn sigma(x: Block) -> Block {
    let (lo, hi) = x.halves();
    Block::from_halves(hi, hi ^ lo)
}

/// σ applied to every block in place.
#[inline]
pub fn sigma_batch(x: &mut [Block]) {
    for b in x.iter_mut() {
        *b = sigma(*b);
    }
}

/// Correlation-robust hash `π(x) ⊕ x`.
#[inline]
pub fn cr(x: Block) -> Block {
    fixed_key().encrypt_block(x) ^ x
}

/// [`cr`] on every block, in place.
pub fn cr_batch(x: &mut [Block]) {
    mmo_batch(fixed_key(), x);
}

/// Circular-correlation-robust hash `π(σ(x)) ⊕ σ(x)`.
#[inline]
pub fn ccr(x: Block) -> Block {
    cr(sigma(x))
}

/// [`ccr`] on every block, in place.
pub fn ccr_batch(x: &mut [Block]) {
    sigma_batch(x);
    cr_batch(x);
}

/// Tweakable circular-correlation-robust hash `π(π(x) ⊕ i) ⊕ π(x)`.
#[inline]
pub fn tccr(x: Block, tweak: Block) -> Block {
    let pi = fixed_key();
    let u = pi.encrypt_block(x);
    pi.encrypt_block(u ^ tweak) ^ u
}

/// [`tccr`] of `x[j]` under `tweaks[j]`, in place.
///
/// # Panics
/// If the lengths differ (internal buffers; a mismatch is a bug).
pub fn tccr_batch(x: &mut [Block], tweaks: &[Block]) {
    assert_eq!(x.len(), tweaks.len(), "tccr_batch: length mismatch");
    let pi = fixed_key();
    let mut u = [Block::ZERO; CHUNK];
    for (xc, tc) in x.chunks_mut(CHUNK).zip(tweaks.chunks(CHUNK)) {
        let u = &mut u[..xc.len()];
        pi.encrypt_blocks_to(xc, u);
        for ((xb, ub), tb) in xc.iter_mut().zip(u.iter()).zip(tc) {
            *xb = *ub ^ *tb;
        }
        pi.encrypt_blocks(xc);
        for (xb, ub) in xc.iter_mut().zip(u.iter()) {
            *xb ^= *ub;
        }
    }
}

/// `x ← E(x) ⊕ x` over a slice (Matyas–Meyer–Oseas with a fixed key).
fn mmo_batch(aes: &Aes128, x: &mut [Block]) {
    let mut t = [Block::ZERO; CHUNK];
    for xc in x.chunks_mut(CHUNK) {
        let t = &mut t[..xc.len()];
        aes.encrypt_blocks_to(xc, t);
        for (xb, tb) in xc.iter_mut().zip(t.iter()) {
            *xb ^= *tb;
        }
    }
}

/// Multi-instance TCCR of GKWWY20: `H(x, i) = AES_{s ⊕ i}(σ(x)) ⊕ σ(x)`,
/// AES re-keyed per tweak, with `s` a fresh uniformly random per-instance
/// seed known to both parties.
///
/// Fixed-key TCCR lets one offline computation of π attack all instances
/// (every garbled circuit, every gate) at once; keying by `s ⊕ i` makes the
/// adversary's work per key useless for other tweaks and other instances.
/// The cost is one AES key schedule per distinct tweak, so hash all blocks
/// that share a tweak in one group (the half-gates garbler has two per tweak);
/// with AES-NI, eight schedules and their blocks are interleaved.
pub struct MiTccr {
    seed: Block,
}

impl std::fmt::Debug for MiTccr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MiTccr { .. }")
    }
}

impl MiTccr {
    /// An instance for one garbling; `seed` must be fresh and uniformly random
    /// per instance (e.g. drawn by the garbler from `Prg::new()` and sent).
    pub fn new(seed: Block) -> MiTccr {
        MiTccr { seed }
    }

    /// The AES key used for `tweak`.
    #[inline]
    pub fn key_for(&self, tweak: Block) -> Block {
        self.seed ^ tweak
    }

    /// `H(x, tweak)` for one block (one key schedule: slow, for tests and
    /// odd cases).
    pub fn hash(&self, x: Block, tweak: Block) -> Block {
        let s = sigma(x);
        Aes128::new(self.key_for(tweak)).encrypt_block(s) ^ s
    }

    /// Hashes `x` in place in groups of `per_tweak` consecutive blocks, group
    /// `g` under `tweaks[g]`: `x[g*per_tweak + j] ← H(x[g*per_tweak + j], tweaks[g])`.
    ///
    /// # Panics
    /// If `x.len() != tweaks.len() * per_tweak` (internal buffers).
    pub fn hash_batch(&self, x: &mut [Block], tweaks: &[Block], per_tweak: usize) {
        assert_eq!(
            x.len(),
            tweaks.len() * per_tweak,
            "MiTccr::hash_batch: length mismatch"
        );
        sigma_batch(x);
        crate::aes::mmo_rekeyed(self.seed, tweaks, per_tweak, x);
    }
}

impl Drop for MiTccr {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    fn sigma_inv(y: Block) -> Block {
        // y = (L ⊕ R ‖ L)  ⇒  L = y_lo, R = y_hi ⊕ y_lo.
        let (lo, hi) = y.halves();
        Block::from_halves(hi ^ lo, lo)
    }

    fn sigma_plus_id_inv(y: Block) -> Block {
        // σ(x) ⊕ x = (R ‖ L ⊕ R)  ⇒  R = y_hi, L = y_lo ⊕ y_hi.
        let (lo, hi) = y.halves();
        Block::from_halves(hi, lo ^ hi)
    }

    #[test]
    fn sigma_is_a_linear_orthomorphism() {
        let mut p = Prg::from_seed(Block(11));
        assert_eq!(sigma(Block::from_halves(0, 1)), Block::from_halves(1, 1));
        assert_eq!(sigma(Block::from_halves(1, 0)), Block::from_halves(0, 1));
        for _ in 0..1000 {
            let (x, y) = (p.random_block(), p.random_block());
            assert_eq!(sigma(x ^ y), sigma(x) ^ sigma(y));
            assert_eq!(sigma_inv(sigma(x)), x);
            assert_eq!(sigma_plus_id_inv(sigma(x) ^ x), x);
        }
    }

    #[test]
    fn scalar_definitions_match_the_formulas() {
        let pi = fixed_key();
        let (x, i) = (Block(0x1234), Block(0x5678));
        assert_eq!(cr(x), pi.encrypt_block(x) ^ x);
        assert_eq!(ccr(x), pi.encrypt_block(sigma(x)) ^ sigma(x));
        let u = pi.encrypt_block(x);
        assert_eq!(tccr(x, i), pi.encrypt_block(u ^ i) ^ u);
    }

    #[test]
    fn batches_equal_scalars() {
        let mut p = Prg::from_seed(Block(12));
        for n in [0usize, 1, 7, 64, 129, 300] {
            let x = p.random_blocks(n);
            let t = p.random_blocks(n);
            let mut v = x.clone();
            cr_batch(&mut v);
            assert_eq!(v, x.iter().map(|&b| cr(b)).collect::<Vec<_>>());
            let mut v = x.clone();
            ccr_batch(&mut v);
            assert_eq!(v, x.iter().map(|&b| ccr(b)).collect::<Vec<_>>());
            let mut v = x.clone();
            tccr_batch(&mut v, &t);
            let expect: Vec<_> = x.iter().zip(&t).map(|(&b, &i)| tccr(b, i)).collect();
            assert_eq!(v, expect);
        }
    }

    #[test]
    fn tweaks_separate_outputs() {
        let x = Block(77);
        let outs: std::collections::HashSet<Block> =
            (0..1000u128).map(|i| tccr(x, Block(i))).collect();
        assert_eq!(outs.len(), 1000);
        let m = MiTccr::new(Block(5));
        let outs: std::collections::HashSet<Block> =
            (0..200u128).map(|i| m.hash(x, Block(i))).collect();
        assert_eq!(outs.len(), 200);
        // The hashes are not the identity-plus-constant on a correlation.
        let d = Block(0xdd);
        assert_ne!(cr(x) ^ cr(x ^ d), d);
        assert_ne!(ccr(x) ^ ccr(x ^ d), d);
    }

    #[test]
    fn mitccr_batch_equals_scalar_and_depends_on_seed() {
        let mut p = Prg::from_seed(Block(13));
        let m = MiTccr::new(p.random_block());
        for per in [1usize, 2, 4] {
            let tweaks = p.random_blocks(37);
            let x = p.random_blocks(37 * per);
            let mut v = x.clone();
            m.hash_batch(&mut v, &tweaks, per);
            for (j, (got, xb)) in v.iter().zip(&x).enumerate() {
                assert_eq!(*got, m.hash(*xb, tweaks[j / per]));
            }
        }
        let other = MiTccr::new(Block(1));
        assert_ne!(m.hash(Block(3), Block(4)), other.hash(Block(3), Block(4)));
        // Definition check against the crate AES directly.
        let (x, t) = (Block(9), Block(10));
        let k = Aes128::new(Block(1) ^ t);
        assert_eq!(other.hash(x, t), k.encrypt_block(sigma(x)) ^ sigma(x));
    }

    #[test]
    #[should_panic(expected = "length mismatch")]
    fn tccr_batch_rejects_mismatch() {
        tccr_batch(&mut [Block::ZERO; 2], &[Block::ZERO; 1]);
    }
}
