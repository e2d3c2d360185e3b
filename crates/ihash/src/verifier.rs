//! IHash.Verify: Bob alone checks Encode(m)|_W = ⟨m⟩.

use crate::rs::Code;
use brickyard_core::gf256::{Field, NibbleMap};

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
        Verifier {
            field: code.field(),
            ell,
            watch: watch.to_vec(),
            systematic,
            parity: NibbleMap::new(&code.parity_rows(&watch[systematic..])),
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
}
