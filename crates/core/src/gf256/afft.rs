//! Systematic Reed–Solomon parity by the additive FFT (Lin–Chung–Han).
//!
//! With evaluation points α_i = i and ℓ = 2^k, the message positions
//! 0..ℓ are the GF(2)-subspace W_k = span(1, 2, …, 2^{k−1}) of the field's
//! bytes, and the parity positions fill its cosets jℓ ⊕ W_k (j ≥ 1). Write
//! the message polynomial P (degree < ℓ) in the basis
//! X_j(x) = Π_{i : bit i of j} ŝ_i(x), where ŝ_i(x) = s_i(x)/s_i(2^i) and
//! s_i(x) = Π_{a ∈ W_i} (x − a) is GF(2)-linear and vanishes on W_i. Then
//! P = P_0 + ŝ_{m−1}·P_1 on a block of 2^m coefficients, and ŝ_{m−1} is
//! the constant ω = ŝ_{m−1}(β) on β ⊕ W_{m−1} and ω + 1 on
//! β ⊕ 2^{m−1} ⊕ W_{m−1}; so evaluating on the coset β ⊕ W_m is the
//! butterfly (D_0, D_1) ↦ (D_0 + ω·D_1, D_0 + ω·D_1 + D_1) and two
//! evaluations of half the size. The inverse butterflies interpolate from
//! the ℓ message symbols (on W_k) to the coefficients, the forward ones
//! evaluate those on every parity coset: (ℓ/2)·k products by a constant
//! per transform, 240 for the (86, 32) label code against the 1 728 of the
//! parity matrix. The result is the same codeword (the polynomial of
//! degree < ℓ through the message is unique), which the tests check
//! against [`super::GfMatrix`] products of the Lagrange parity matrix.
//!
//! Work is symbol-major like [`super::GfMatrix`]'s [`StridedMap`]: one
//! byte row per code position, a block of [`BLOCK`] columns (messages) at
//! a time, each butterfly one [`super::slice::butterfly_on`] call on two
//! rows of the block (L1-resident: ℓ rows of `BLOCK` bytes, twice).

use super::slice::{butterfly_inv_on, butterfly_on, ConstMul, Kernel};
use super::{Field, StridedMap};

/// Columns (bytes per row) transformed at a time.
const BLOCK: usize = 256;

/// The additive-FFT encoder of the systematic [n, 2^k] code at α_i = i.
#[derive(Clone, Debug)]
pub struct SubspaceCode {
    k: u32,
    n: usize,
    /// ω of every butterfly group of the inverse transform on W_k, in
    /// [`twiddles`] order.
    inverse: Vec<ConstMul>,
    /// The same for the forward transform on each parity coset jℓ ⊕ W_k,
    /// j = 1, 2, ….
    forward: Vec<Vec<ConstMul>>,
}

/// ŝ_i(x) = s_i(x)/s_i(2^i) with s_i(x) = Π_{a < 2^i} (x ⊕ a).
fn s_hat(f: &Field, i: u32, x: u8) -> u8 {
    let s = |y: u8| (0..1u16 << i).fold(1u8, |acc, a| f.mul(acc, y ^ a as u8));
    f.div(s(x), s(1u8 << i)).expect("2^i is not in W_i")
}

/// The ω's of a transform of size 2^k on β ⊕ W_k, level by level from
/// the top (m = k: one block) down to m = 1 (2^{k−1} blocks), blocks in
/// order: block b of level m covers positions b·2^m.. and its points are
/// β ⊕ b·2^m ⊕ W_m.
fn twiddles(f: &Field, k: u32, beta: u8) -> Vec<ConstMul> {
    let mut out = Vec::new();
    for m in (1..=k).rev() {
        for b in 0..1usize << (k - m) {
            let shift = beta ^ (b << m) as u8;
            out.push(ConstMul::new(f, s_hat(f, m - 1, shift)));
        }
    }
    out
}

impl SubspaceCode {
    /// The encoder for n and ℓ, or `None` unless ℓ is a power of two with
    /// 2 ≤ ℓ < n ≤ 2^σ.
    pub fn new(field: &'static Field, n: usize, ell: usize) -> Option<SubspaceCode> {
        if !ell.is_power_of_two() || ell < 2 || ell >= n || n > field.order() {
            return None;
        }
        let k = ell.trailing_zeros();
        let cosets = n.div_ceil(ell);
        Some(SubspaceCode {
            k,
            n,
            inverse: twiddles(field, k, 0),
            forward: (1..cosets)
                .map(|j| twiddles(field, k, (j * ell) as u8))
                .collect(),
        })
    }

    fn ell(&self) -> usize {
        1 << self.k
    }

    /// Runs the butterflies of one transform on `rows` (ℓ rows of `w`
    /// bytes at stride `BLOCK`): forward from the top level down, inverse
    /// (`inv`) from the bottom up. A group with ω = 0 (the block holding
    /// the coset's shift β itself) needs only the XOR.
    fn transform(&self, kernel: Kernel, tw: &[ConstMul], rows: &mut [u8], w: usize, inv: bool) {
        let k = self.k;
        for step in 0..k {
            // Level m has 2^{k−m} groups; its twiddles start after those
            // of the levels above it.
            let m = if inv { step + 1 } else { k - step };
            let off = (1usize << (k - m)) - 1;
            let h = 1usize << (m - 1);
            for b in 0..1usize << (k - m) {
                let omega = &tw[off + b];
                let base = b << m;
                for t in base..base + h {
                    let (lo, hi) = rows.split_at_mut((t + h) * BLOCK);
                    let a = &mut lo[t * BLOCK..t * BLOCK + w];
                    let c = &mut hi[..w];
                    if omega.constant() == 0 {
                        xor_into(c, a);
                    } else if inv {
                        butterfly_inv_on(kernel, omega, a, c);
                    } else {
                        butterfly_on(kernel, omega, a, c);
                    }
                }
            }
        }
    }
}

/// out ^= the code's parity of `input` (the same map as its (n − ℓ) × ℓ
/// parity matrix as a [`super::GfMatrix`]).
impl StridedMap for SubspaceCode {
    fn inputs(&self) -> usize {
        self.ell()
    }

    fn outputs(&self) -> usize {
        self.n - self.ell()
    }

    fn add_checked(
        &self,
        kernel: Kernel,
        input: &[u8],
        in_stride: usize,
        len: usize,
        out: &mut [u8],
        out_stride: usize,
    ) {
        let (ell, n) = (self.ell(), self.n);
        let mut d = vec![0u8; ell * BLOCK];
        let mut e = vec![0u8; ell * BLOCK];
        let mut start = 0;
        while start < len {
            let w = BLOCK.min(len - start);
            for (c, row) in d.chunks_exact_mut(BLOCK).enumerate() {
                row[..w].copy_from_slice(&input[c * in_stride + start..][..w]);
            }
            self.transform(kernel, &self.inverse, &mut d, w, true);
            let last = self.forward.len();
            for (j, tw) in self.forward.iter().enumerate() {
                let j = j + 1;
                // The last coset transforms the coefficients in place.
                let rows = if j == last {
                    &mut d
                } else {
                    e.copy_from_slice(&d);
                    &mut e
                };
                self.transform(kernel, tw, rows, w, false);
                for (t, row) in rows.chunks_exact(BLOCK).enumerate() {
                    let p = j * ell + t;
                    if p >= n {
                        break;
                    }
                    xor_into(&mut out[(p - ell) * out_stride + start..][..w], &row[..w]);
                }
            }
            start += w;
        }
    }
}

/// dst ^= src (equal lengths).
fn xor_into(dst: &mut [u8], src: &[u8]) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d ^= x;
    }
}
