//! The systematic [n, ℓ, n−ℓ+1] Reed–Solomon code over GF(2^σ).
//!
//! A message m ∈ GF(2^σ)^ℓ is the list of values at α_0..α_{ℓ−1} of the
//! unique polynomial P of degree < ℓ through them; its codeword is
//! (P(α_0), …, P(α_{n−1})) with α_i = i (n ≤ 2^σ distinct points). So the
//! first ℓ symbols are the message (systematic) and parity symbol j ≥ ℓ is
//! Σ_i m_i · L_i(α_j), L_i the Lagrange basis polynomials. Two codewords
//! agreeing on ℓ positions come from the same P: the code is MDS, distance
//! n − ℓ + 1, which is what IHash's binding counts on.
//!
//! Three encoders, tested to agree: [`Code::encode_reference`] (Lagrange
//! coefficients and products by shift-and-add, no tables), [`Code::encode`]
//! (log/exp tables, one message), [`Code::encode_batch`] (the core slice
//! kernels on symbol-major batches).

use brickyard_core::gf256::{reference, Field, GfMatrix, StridedMap, SubspaceCode};
use std::sync::OnceLock;

/// A systematic Reed–Solomon code with its parity matrix.
#[derive(Clone, Debug)]
pub struct Code {
    field: &'static Field,
    n: usize,
    ell: usize,
    /// (n − ℓ) × ℓ: row j − ℓ gives parity symbol j.
    parity: GfMatrix,
    /// The additive-FFT encoder when ℓ is a power of two (the label code
    /// for k = 88: 240 products by a constant per message instead of the
    /// parity matrix's 1 728), else `None`.
    fft: Option<SubspaceCode>,
    /// The same coefficients computed by reference arithmetic (row-major),
    /// built on first use by [`Code::encode_reference`].
    reference: OnceLock<Vec<u8>>,
}

impl Code {
    /// The [n, ℓ] code over `field`; panics unless 1 ≤ ℓ < n ≤ 2^σ.
    pub fn new(field: &'static Field, n: usize, ell: usize) -> Code {
        assert!(
            1 <= ell && ell < n && n <= field.order(),
            "rs: need 1 ≤ ℓ < n ≤ 2^σ"
        );
        let parity = GfMatrix::from_fn(field, n - ell, ell, |r, i| {
            lagrange(field, ell, i, (ell + r) as u8)
        });
        Code {
            field,
            n,
            ell,
            parity,
            fft: SubspaceCode::new(field, n, ell),
            reference: OnceLock::new(),
        }
    }

    /// The field.
    pub fn field(&self) -> &'static Field {
        self.field
    }

    /// Code length n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Dimension ℓ.
    pub fn ell(&self) -> usize {
        self.ell
    }

    /// The (n − ℓ) × ℓ parity matrix.
    pub fn parity_matrix(&self) -> &GfMatrix {
        &self.parity
    }

    /// Column j of the ℓ × n generator matrix (e_j for j < ℓ).
    pub fn generator_column(&self, j: usize) -> Vec<u8> {
        if j < self.ell {
            (0..self.ell).map(|i| (i == j) as u8).collect()
        } else {
            self.parity.row(j - self.ell).to_vec()
        }
    }

    /// The rows of the parity matrix for the given positions (all ≥ ℓ).
    pub fn parity_rows(&self, positions: &[usize]) -> GfMatrix {
        GfMatrix::from_fn(self.field, positions.len(), self.ell, |r, i| {
            self.parity.get(positions[r] - self.ell, i)
        })
    }

    /// Encode(m) with log/exp tables.
    pub fn encode(&self, m: &[u8]) -> Vec<u8> {
        let mut c = m.to_vec();
        c.extend(self.parity.mul_vec(m));
        c
    }

    /// Encode(m) by the definition: Lagrange coefficients and products by
    /// shift-and-add, without tables or the stored matrix.
    pub fn encode_reference(&self, m: &[u8]) -> Vec<u8> {
        assert_eq!(m.len(), self.ell, "rs: message length");
        let (f, ell) = (self.field, self.ell);
        let coef = self.reference.get_or_init(|| {
            (ell..self.n)
                .flat_map(|j| (0..ell).map(move |i| lagrange_reference(f, ell, i, j as u8)))
                .collect()
        });
        let mut c = m.to_vec();
        for row in coef.chunks_exact(ell) {
            let y = (0..ell).fold(0u8, |acc, i| acc ^ reference::mul(f, m[i], row[i]));
            c.push(y);
        }
        c
    }

    /// Parity symbols of a symbol-major batch: `messages` is ℓ rows of
    /// `len` bytes (row i = symbol i of every message), `parity` gets
    /// n − ℓ rows of `len` bytes.
    pub fn encode_batch(&self, messages: &[u8], len: usize, parity: &mut [u8]) {
        assert_eq!(parity.len(), (self.n - self.ell) * len, "rs: parity size");
        parity.fill(0);
        self.encode_add_strided(messages, len, len, parity, len)
    }

    /// parity ^= the parity symbols of a strided symbol-major batch (row
    /// c of the input is `messages[c·in_stride..][..len]`, row j of the
    /// output `parity[j·out_stride..][..len]`): the additive FFT when ℓ is
    /// a power of two, else the parity matrix's AVX2 kernel.
    pub fn encode_add_strided(
        &self,
        messages: &[u8],
        in_stride: usize,
        len: usize,
        parity: &mut [u8],
        out_stride: usize,
    ) {
        let map: &dyn StridedMap = match &self.fft {
            Some(f) => f,
            None => &self.parity,
        };
        map.apply_add_strided(messages, in_stride, len, parity, out_stride)
    }
}

/// L_i(x) = Π_{k<ℓ, k≠i} (x − α_k)/(α_i − α_k) with tables (α_k = k).
fn lagrange(f: &Field, ell: usize, i: usize, x: u8) -> u8 {
    (0..ell).filter(|&k| k != i).fold(1u8, |acc, k| {
        let num = x ^ k as u8;
        let den = f.inv(i as u8 ^ k as u8).expect("distinct points");
        f.mul(acc, f.mul(num, den))
    })
}

/// L_i(x) with reference arithmetic only.
fn lagrange_reference(f: &Field, ell: usize, i: usize, x: u8) -> u8 {
    (0..ell).filter(|&k| k != i).fold(1u8, |acc, k| {
        let den = reference::inv(f, i as u8 ^ k as u8).expect("distinct points");
        reference::mul(f, acc, reference::mul(f, x ^ k as u8, den))
    })
}
