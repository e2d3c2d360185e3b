//! IHash.Verify: Bob alone checks Encode(m)|_W = ⟨m⟩.

use crate::layout::stride_for;
use crate::rs::Code;
use brickyard_core::gf256::{combine_rows, Field};

/// Bob's view of the code at his watch set W, ready to verify.
#[derive(Clone, Debug)]
pub struct Verifier {
    field: &'static Field,
    ell: usize,
    /// W, sorted: hash symbol k is codeword symbol `watch[k]`.
    watch: Vec<usize>,
    /// Number of watched positions below ℓ (systematic; they come first).
    systematic: usize,
    /// ℓ rows of `stride` bytes: row i = coefficient of m_i in each
    /// watched parity symbol (zero-padded).
    columns: Vec<u8>,
    stride: usize,
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
        let parity = &watch[systematic..];
        let stride = stride_for(parity.len().max(1));
        let mut columns = vec![0u8; ell * stride];
        let rows = code.parity_rows(parity);
        for (r, _) in parity.iter().enumerate() {
            for i in 0..ell {
                columns[i * stride + r] = rows.get(r, i);
            }
        }
        Verifier {
            field: code.field(),
            ell,
            watch: watch.to_vec(),
            systematic,
            columns,
            stride,
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
        for (o, &j) in out.iter_mut().zip(&self.watch[..self.systematic]) {
            *o = m[j];
        }
        let mut acc = [0u8; 64];
        let acc = if self.stride <= 64 {
            &mut acc[..self.stride]
        } else {
            return self.watched_symbols_long(m, out);
        };
        combine_rows(self.field, m, &self.columns, acc);
        out[self.systematic..].copy_from_slice(&acc[..self.watch.len() - self.systematic]);
    }

    fn watched_symbols_long(&self, m: &[u8], out: &mut [u8]) {
        let mut acc = vec![0u8; self.stride];
        combine_rows(self.field, m, &self.columns, &mut acc);
        out[self.systematic..].copy_from_slice(&acc[..self.watch.len() - self.systematic]);
    }

    /// Verify(⟨m⟩, m): whether m is a message (ℓ field elements) whose
    /// codeword matches the i-hash on every watched position.
    pub fn verify(&self, hash: &[u8], m: &[u8]) -> bool {
        if m.len() != self.ell || hash.len() != self.watch.len() {
            return false;
        }
        if !m.iter().all(|&x| self.field.contains(x)) {
            return false;
        }
        let mut acc = [0u8; 64];
        if self.stride > 64 {
            let mut out = vec![0u8; self.watch.len()];
            self.watched_symbols_long(m, &mut out);
            return out[self.systematic..] == hash[self.systematic..]
                && self.systematic_ok(hash, m);
        }
        let acc = &mut acc[..self.stride];
        combine_rows(self.field, m, &self.columns, acc);
        self.systematic_ok(hash, m)
            && acc[..self.watch.len() - self.systematic] == hash[self.systematic..]
    }

    fn systematic_ok(&self, hash: &[u8], m: &[u8]) -> bool {
        self.watch[..self.systematic]
            .iter()
            .zip(hash)
            .all(|(&j, &h)| m[j] == h)
    }
}
