//! Matrices over GF(2^σ): products on byte rows, rank and inverse.
//!
//! Bulk products work "symbol-major": an input of `cols` rows of `len`
//! bytes (row i = coordinate i of `len` vectors) maps to `rows` rows of
//! `len` bytes. A systematic encoder's parity part and JIMU's label
//! compression are such products; the layout lets each row update be one
//! slice kernel call over many vectors at once.

use super::slice::{mul_add_const_on, ConstMul, Kernel};
use super::Field;

/// Column chunk (bytes) a product works on at a time, so the `cols` input
/// and `rows` output chunks stay in L1/L2 while every entry touches them.
const CHUNK: usize = 512;

/// A `rows × cols` matrix over one of the fields.
#[derive(Clone, Debug)]
pub struct GfMatrix {
    field: &'static Field,
    rows: usize,
    cols: usize,
    /// Row-major entries.
    entries: Vec<u8>,
    /// `ConstMul` of every entry, row-major.
    prepared: Vec<ConstMul>,
}

impl PartialEq for GfMatrix {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.field, other.field)
            && self.rows == other.rows
            && self.cols == other.cols
            && self.entries == other.entries
    }
}

impl Eq for GfMatrix {}

impl GfMatrix {
    /// The matrix with entry (r, c) = `entry(r, c)`; panics if an entry is
    /// not a field element.
    pub fn from_fn(
        field: &'static Field,
        rows: usize,
        cols: usize,
        mut entry: impl FnMut(usize, usize) -> u8,
    ) -> GfMatrix {
        let entries: Vec<u8> = (0..rows * cols)
            .map(|k| entry(k / cols, k % cols))
            .collect();
        Self::from_entries(field, rows, cols, entries)
    }

    /// The matrix with row-major `entries`; panics on a wrong length or a
    /// non-element.
    pub fn from_entries(
        field: &'static Field,
        rows: usize,
        cols: usize,
        entries: Vec<u8>,
    ) -> GfMatrix {
        assert_eq!(entries.len(), rows * cols, "GfMatrix: wrong entry count");
        assert!(
            entries.iter().all(|&e| field.contains(e)),
            "GfMatrix: entry outside GF(2^{})",
            field.sigma()
        );
        let prepared = entries.iter().map(|&e| ConstMul::new(field, e)).collect();
        GfMatrix {
            field,
            rows,
            cols,
            entries,
            prepared,
        }
    }

    /// The field.
    pub fn field(&self) -> &'static Field {
        self.field
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Entry (r, c).
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.entries[r * self.cols + c]
    }

    /// Row r.
    pub fn row(&self, r: usize) -> &[u8] {
        &self.entries[r * self.cols..(r + 1) * self.cols]
    }

    /// The matrix formed by the given columns, in that order.
    pub fn select_cols(&self, cols: &[usize]) -> GfMatrix {
        GfMatrix::from_fn(self.field, self.rows, cols.len(), |r, c| {
            self.get(r, cols[c])
        })
    }

    /// M · v for one vector (log/exp tables; scalar work).
    pub fn mul_vec(&self, v: &[u8]) -> Vec<u8> {
        assert_eq!(v.len(), self.cols, "GfMatrix::mul_vec: wrong length");
        (0..self.rows)
            .map(|r| self.field.dot(self.row(r), v))
            .collect()
    }

    /// out = M · input on symbol-major rows (see the module doc):
    /// `input.len() == cols · len`, `out.len() == rows · len`.
    pub fn apply(&self, input: &[u8], len: usize, out: &mut [u8]) {
        self.apply_on(Kernel::best(), input, len, out)
    }

    /// out ^= M · input (same layout as [`GfMatrix::apply`]).
    pub fn apply_add(&self, input: &[u8], len: usize, out: &mut [u8]) {
        self.apply_add_on(Kernel::best(), input, len, out)
    }

    /// [`GfMatrix::apply`] on a chosen kernel.
    pub fn apply_on(&self, kernel: Kernel, input: &[u8], len: usize, out: &mut [u8]) {
        assert_eq!(out.len(), self.rows * len, "GfMatrix::apply: output size");
        out.fill(0);
        self.apply_add_on(kernel, input, len, out)
    }

    /// [`GfMatrix::apply_add`] on a chosen kernel.
    pub fn apply_add_on(&self, kernel: Kernel, input: &[u8], len: usize, out: &mut [u8]) {
        assert_eq!(input.len(), self.cols * len, "GfMatrix::apply: input size");
        assert_eq!(out.len(), self.rows * len, "GfMatrix::apply: output size");
        self.apply_add_strided_on(kernel, input, len, len, out, len)
    }

    /// The rank, by Gaussian elimination.
    pub fn rank(&self) -> usize {
        self.echelon(None)
    }

    /// The inverse of a square matrix, or `None` if it is singular.
    pub fn inverse(&self) -> Option<GfMatrix> {
        assert_eq!(self.rows, self.cols, "GfMatrix::inverse: not square");
        let n = self.rows;
        let mut inv = vec![0u8; n * n];
        for i in 0..n {
            inv[i * n + i] = 1;
        }
        (self.echelon(Some(&mut inv)) == n).then(|| GfMatrix::from_entries(self.field, n, n, inv))
    }

    /// Reduces a copy to reduced row echelon form, applying the same row
    /// operations to `aug` (n × n, when given); returns the rank.
    fn echelon(&self, mut aug: Option<&mut Vec<u8>>) -> usize {
        let f = self.field;
        let (rows, cols) = (self.rows, self.cols);
        let mut m = self.entries.clone();
        let aw = if aug.is_some() { rows } else { 0 };
        let mut rank = 0;
        for c in 0..cols {
            let Some(p) = (rank..rows).find(|&r| m[r * cols + c] != 0) else {
                continue;
            };
            swap_rows(&mut m, cols, p, rank);
            if let Some(a) = aug.as_deref_mut() {
                swap_rows(a, aw, p, rank);
            }
            let inv = f.inv(m[rank * cols + c]).expect("pivot is nonzero");
            scale_row(f, &mut m, cols, rank, inv);
            if let Some(a) = aug.as_deref_mut() {
                scale_row(f, a, aw, rank, inv);
            }
            for r in 0..rows {
                let factor = m[r * cols + c];
                if r != rank && factor != 0 {
                    sub_row(f, &mut m, cols, r, rank, factor);
                    if let Some(a) = aug.as_deref_mut() {
                        sub_row(f, a, aw, r, rank, factor);
                    }
                }
            }
            rank += 1;
        }
        rank
    }
}

/// A GF(2^σ)-linear map applied to strided symbol-major rows: input row c
/// is `input[c·in_stride..][..len]`, output row r is
/// `out[r·out_stride..][..len]`. Strides let a caller work on a cache-sized
/// chunk of a long batch in place (strides = the batch's row length)
/// instead of copying the chunk out and back. The parity matrix product
/// ([`GfMatrix`]) and the additive-FFT encoder ([`super::SubspaceCode`])
/// both implement it, so the shape checks and the kernel choice live here
/// once.
pub trait StridedMap {
    /// Input rows.
    fn inputs(&self) -> usize;

    /// Output rows.
    fn outputs(&self) -> usize;

    /// The map on a shape that [`StridedMap::apply_add_strided_on`] has
    /// checked (`len ≥ 1`, at least one input and output row, both slices
    /// long enough, `kernel` available); called directly on another shape
    /// it panics, never reads or writes outside the slices.
    fn add_checked(
        &self,
        kernel: Kernel,
        input: &[u8],
        in_stride: usize,
        len: usize,
        out: &mut [u8],
        out_stride: usize,
    );

    /// out ^= map(input) on the fastest kernel this CPU has.
    fn apply_add_strided(
        &self,
        input: &[u8],
        in_stride: usize,
        len: usize,
        out: &mut [u8],
        out_stride: usize,
    ) {
        self.apply_add_strided_on(Kernel::best(), input, in_stride, len, out, out_stride)
    }

    /// [`StridedMap::apply_add_strided`] on a chosen kernel; panics on a
    /// shape the slices do not hold or a kernel this CPU lacks.
    fn apply_add_strided_on(
        &self,
        kernel: Kernel,
        input: &[u8],
        in_stride: usize,
        len: usize,
        out: &mut [u8],
        out_stride: usize,
    ) {
        let (rows, cols) = (self.outputs(), self.inputs());
        if len == 0 || rows == 0 {
            return;
        }
        assert!(
            len <= in_stride && len <= out_stride,
            "gf256: row longer than its stride"
        );
        assert!(
            out.len() >= (rows - 1) * out_stride + len,
            "gf256: output size"
        );
        if cols == 0 {
            return;
        }
        assert!(
            input.len() >= (cols - 1) * in_stride + len,
            "gf256: input size"
        );
        assert!(
            kernel.is_available(),
            "gf256: kernel {kernel:?} is not supported by this CPU"
        );
        self.add_checked(kernel, input, in_stride, len, out, out_stride)
    }
}

impl StridedMap for GfMatrix {
    fn inputs(&self) -> usize {
        self.cols
    }

    fn outputs(&self) -> usize {
        self.rows
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
        #[cfg(target_arch = "x86_64")]
        if kernel == Kernel::Avx2 {
            // `add_checked` is callable directly: the one precondition the
            // kernel cannot assert itself is checked here.
            kernel.check();
            let shape = super::x86::MatrixShape {
                rows: self.rows,
                cols: self.cols,
                in_stride,
                len,
                out_stride,
            };
            // SAFETY: AVX2 asserted just above; `avx2_matrix` asserts the
            // sizes of its contract itself, and `prepared` has rows · cols
            // entries by construction.
            unsafe { super::x86::avx2_matrix(&self.prepared, shape, input, out) };
            return;
        }
        let mut start = 0;
        while start < len {
            let end = (start + CHUNK).min(len);
            for r in 0..self.rows {
                let dst = &mut out[r * out_stride + start..r * out_stride + end];
                for c in 0..self.cols {
                    let e = &self.prepared[r * self.cols + c];
                    if e.constant() != 0 {
                        let src = &input[c * in_stride + start..c * in_stride + end];
                        mul_add_const_on(kernel, e, src, dst);
                    }
                }
            }
            start = end;
        }
    }
}

fn swap_rows(m: &mut [u8], w: usize, a: usize, b: usize) {
    if a != b {
        for k in 0..w {
            m.swap(a * w + k, b * w + k);
        }
    }
}

fn scale_row(f: &Field, m: &mut [u8], w: usize, r: usize, by: u8) {
    for x in &mut m[r * w..(r + 1) * w] {
        *x = f.mul(*x, by);
    }
}

/// row r -= factor · row p.
fn sub_row(f: &Field, m: &mut [u8], w: usize, r: usize, p: usize, factor: u8) {
    for k in 0..w {
        let v = f.mul(factor, m[p * w + k]);
        m[r * w + k] ^= v;
    }
}
