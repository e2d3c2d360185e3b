//! IHash.Verify: Bob alone checks Encode(m)|_W = ⟨m⟩.
//!
//! One pair at a time ([`Verifier::verify`]) the work is 2ℓ table lookups
//! of the watched parity images; a batch ([`Verifier::verify_batch`]) is
//! turned symbol-major so that each entry of the watched parity matrix
//! multiplies 32 messages per AVX2 shuffle pair, which is several times
//! cheaper per message than the lookups and does not depend on where the
//! tables fall in L1.

use crate::layout::Rows;
use crate::rs::Code;
use brickyard_core::gf256::layout::transpose;
use brickyard_core::gf256::{Field, GfMatrix, NibbleMap, StridedMap};
use zeroize::Zeroizing;

/// Pairs [`Verifier::verify_batch`] works on at a time: the transposed
/// messages and i-hashes of a block (≤ 2 · 64 rows of this many bytes)
/// stay in L1 while the product runs over them.
const BLOCK: usize = 256;

/// Bob's view of the code at his watch set W, ready to verify.
#[derive(Clone, Debug)]
pub struct Verifier {
    field: &'static Field,
    ell: usize,
    /// W, sorted: hash symbol k is codeword symbol `watch[k]`.
    watch: Vec<usize>,
    /// Number of watched positions below ℓ (systematic; they come first).
    systematic: usize,
    /// m ↦ its watched parity symbols (the rows of the parity matrix at
    /// W's parity positions), as per-nibble tables: one verification is 2ℓ
    /// table lookups and XORs, with no per-call setup.
    parity: NibbleMap,
    /// The same rows as a matrix, for symbol-major batches.
    parity_matrix: GfMatrix,
}

impl Verifier {
    /// The verifier for `code` at the sorted positions `watch`.
    pub fn new(code: &Code, watch: &[usize]) -> Verifier {
        assert!(
            watch.windows(2).all(|p| p[0] < p[1]),
            "watch set must be sorted"
        );
        assert!(
            watch.last().is_none_or(|&j| j < code.n()),
            "watch position out of range"
        );
        let ell = code.ell();
        let systematic = watch.iter().take_while(|&&j| j < ell).count();
        let parity_matrix = code.parity_rows(&watch[systematic..]);
        Verifier {
            field: code.field(),
            ell,
            watch: watch.to_vec(),
            systematic,
            parity: NibbleMap::new(&parity_matrix),
            parity_matrix,
        }
    }

    /// The watch set W.
    pub fn watch(&self) -> &[usize] {
        &self.watch
    }

    /// Encode(m)|_W into `out` (w bytes), without the symbol checks.
    pub fn watched_symbols(&self, m: &[u8], out: &mut [u8]) {
        assert_eq!(m.len(), self.ell, "verify: message length");
        assert_eq!(out.len(), self.watch.len(), "verify: hash length");
        let (sys, par) = out.split_at_mut(self.systematic);
        for (o, &j) in sys.iter_mut().zip(&self.watch) {
            *o = m[j];
        }
        self.parity.apply(m, par);
    }

    /// Verify(⟨m⟩, m): whether m is a message (ℓ field elements) whose
    /// codeword matches the i-hash on every watched position.
    pub fn verify(&self, hash: &[u8], m: &[u8]) -> bool {
        if m.len() != self.ell || hash.len() != self.watch.len() {
            return false;
        }
        if self.field.sigma() != 8 && !m.iter().all(|&x| self.field.contains(x)) {
            return false;
        }
        let (sys, par) = hash.split_at(self.systematic);
        // One OR of differences, not a branch per watched symbol: the
        // systematic part and the parity part are both always computed.
        let diff = self.watch[..self.systematic]
            .iter()
            .zip(sys)
            .fold(0u8, |d, (&j, &h)| d | (m[j] ^ h));
        (diff == 0) & self.parity.matches(m, par)
    }

    /// [`Verifier::verify`] of every pair: `ok[i]` = Verify(hashes\[i\],
    /// msgs\[i\]). Rows of the wrong width fail every pair, as they would
    /// one by one; the three lengths must be equal.
    ///
    /// A block of pairs is transposed (symbol-major: one row per message
    /// position, one byte per pair), the watched parity rows of the
    /// i-hashes get G_W · m added, so they are zero exactly where the
    /// product matches, and the systematic rows get the message rows they
    /// watch added; a pair verifies iff its column of the block is all
    /// zero (and, for σ < 8, its message bytes are field elements).
    pub fn verify_batch(&self, hashes: &Rows, msgs: &Rows, ok: &mut [bool]) {
        assert!(
            hashes.len() == msgs.len() && ok.len() == msgs.len(),
            "verify_batch: hashes, messages and results differ in number"
        );
        self.batch(hashes, msgs, None, |i, d, _| ok[i] = d == 0);
    }

    /// For every pair, which of ⟨h⟩ and ⟨h⟩ ⊕ `shift` the message
    /// verifies against: `Some(false)` if Verify(hashes\[i\], msgs\[i\]),
    /// else `Some(true)` if Verify(hashes\[i\] ⊕ shift, msgs\[i\]), else
    /// `None` — the two one-by-one checks a garbled-circuit evaluator makes
    /// of a label it cannot tell apart from its Δ-shifted twin (shift =
    /// ⟨Δ⟩), from one product G_W · m per pair. A `shift` or rows of the
    /// wrong width give `None` everywhere.
    pub fn verify_batch_either(
        &self,
        hashes: &Rows,
        shift: &[u8],
        msgs: &Rows,
        out: &mut [Option<bool>],
    ) {
        assert!(
            hashes.len() == msgs.len() && out.len() == msgs.len(),
            "verify_batch_either: hashes, messages and results differ in number"
        );
        if shift.len() != self.watch.len() {
            out.fill(None);
            return;
        }
        self.batch(hashes, msgs, Some(shift), |i, d0, d1| {
            out[i] = if d0 == 0 {
                Some(false)
            } else if d1 == 0 {
                Some(true)
            } else {
                None
            };
        });
    }

    /// The batch kernel: calls `found(i, d0, d1)` for every pair, with d0
    /// the OR of the differences between ⟨h⟩ and Encode(m)|_W (plus
    /// out-of-field message bits) and d1 the same against ⟨h⟩ ⊕ shift (d1
    /// = d0 without a shift). Rows of the wrong width give d0 = d1 = 1.
    fn batch(
        &self,
        hashes: &Rows,
        msgs: &Rows,
        shift: Option<&[u8]>,
        mut found: impl FnMut(usize, u8, u8),
    ) {
        let n = msgs.len();
        let w = self.watch.len();
        if msgs.width() != self.ell || hashes.width() != w {
            (0..n).for_each(|i| found(i, 1, 1));
            return;
        }
        // Whole 16-byte columns: the padding of `Rows` (zeros up to a
        // multiple of 32) covers them, and the transpose runs on 16 × 16
        // blocks only.
        let (ell16, w16) = (self.ell.div_ceil(16) * 16, w.div_ceil(16) * 16);
        let (ms, hs) = (msgs.stride(), hashes.stride());
        // Wiped on drop 16 bytes per volatile write (a byte vector is
        // wiped a byte at a time, which cost more than the product on
        // batches of a few hundred pairs).
        let mut m_t = Zeroizing::new(vec![0u128; ell16 * BLOCK / 16]);
        let mut h_t = Zeroizing::new(vec![0u128; w16 * BLOCK / 16]);
        let (m_t, h_t): (&mut [u8], &mut [u8]) = (
            bytemuck::cast_slice_mut(&mut m_t[..]),
            bytemuck::cast_slice_mut(&mut h_t[..]),
        );
        let mut diff = [0u8; BLOCK];
        let mut diff1 = [0u8; BLOCK];
        let outside = !((self.field.order() - 1) as u8);
        let sys = self.systematic;
        let mut start = 0;
        while start < n {
            let len = BLOCK.min(n - start);
            transpose(&msgs.padded()[start * ms..], ms, len, ell16, m_t, BLOCK);
            transpose(&hashes.padded()[start * hs..], hs, len, w16, h_t, BLOCK);
            self.parity_matrix
                .apply_add_strided(m_t, BLOCK, len, &mut h_t[sys * BLOCK..], BLOCK);
            let d = &mut diff[..len];
            d.fill(0);
            let d1 = &mut diff1[..len];
            d1.fill(0);
            for (k, &j) in self.watch[..sys].iter().enumerate() {
                let (h, m) = (&h_t[k * BLOCK..][..len], &m_t[j * BLOCK..][..len]);
                match shift {
                    None => {
                        for ((d, &h), &m) in d.iter_mut().zip(h).zip(m) {
                            *d |= h ^ m;
                        }
                    }
                    Some(sh) => {
                        let c = sh[k];
                        for (((d, d1), &h), &m) in d.iter_mut().zip(d1.iter_mut()).zip(h).zip(m) {
                            *d |= h ^ m;
                            *d1 |= h ^ m ^ c;
                        }
                    }
                }
            }
            for k in sys..w {
                let h = &h_t[k * BLOCK..][..len];
                match shift {
                    None => {
                        for (d, &h) in d.iter_mut().zip(h) {
                            *d |= h;
                        }
                    }
                    Some(sh) => {
                        let c = sh[k];
                        for ((d, d1), &h) in d.iter_mut().zip(d1.iter_mut()).zip(h) {
                            *d |= h;
                            *d1 |= h ^ c;
                        }
                    }
                }
            }
            if outside != 0 {
                let mut bad = [0u8; BLOCK];
                let bad = &mut bad[..len];
                for c in 0..self.ell {
                    for (b, &m) in bad.iter_mut().zip(&m_t[c * BLOCK..][..len]) {
                        *b |= m & outside;
                    }
                }
                for ((d, d1), &b) in d.iter_mut().zip(d1.iter_mut()).zip(bad.iter()) {
                    *d |= b;
                    *d1 |= b;
                }
            }
            if shift.is_none() {
                d1.copy_from_slice(d);
            }
            for (k, (&a, &b)) in d.iter().zip(d1.iter()).enumerate() {
                found(start + k, a, b);
            }
            start += len;
        }
    }
}
