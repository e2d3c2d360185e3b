//! Batches of messages and i-hashes, message-major with padded rows.
//!
//! PRG output and encoding are symbol-major (one row per code position);
//! callers and the check combinations want one row per message. Rows are
//! padded with zeros to a multiple of 32 bytes so that the core combination
//! kernel runs on SIMD registers.

use zeroize::Zeroize;

/// Row stride for `width` bytes: the next multiple of 32.
pub(crate) fn stride_for(width: usize) -> usize {
    width.div_ceil(32) * 32
}

/// `src` is `rows × cols` (row-major); writes its transpose into `dst`
/// (`cols` rows of stride `dst_stride` ≥ rows; padding untouched).
pub(crate) fn transpose(src: &[u8], rows: usize, cols: usize, dst: &mut [u8], dst_stride: usize) {
    const T: usize = 16;
    for r0 in (0..rows).step_by(T) {
        for c0 in (0..cols).step_by(T) {
            for r in r0..(r0 + T).min(rows) {
                let srow = &src[r * cols..(r + 1) * cols];
                for c in c0..(c0 + T).min(cols) {
                    dst[c * dst_stride + r] = srow[c];
                }
            }
        }
    }
}

/// A batch of equally long byte rows (messages or i-hashes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rows {
    width: usize,
    stride: usize,
    data: Vec<u8>,
}

impl Rows {
    pub(crate) fn zeroed(count: usize, width: usize) -> Rows {
        let stride = stride_for(width);
        Rows {
            width,
            stride,
            data: vec![0u8; count * stride],
        }
    }

    /// Rows copied from `flat` (`count · width` bytes, one row after another).
    pub fn from_flat(flat: &[u8], width: usize) -> Rows {
        assert!(
            width > 0 && flat.len().is_multiple_of(width),
            "Rows: ragged input"
        );
        let mut r = Rows::zeroed(flat.len() / width, width);
        for (i, row) in flat.chunks_exact(width).enumerate() {
            r.get_mut(i).copy_from_slice(row);
        }
        r
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.data.len() / self.stride
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Bytes per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Row i.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.data[i * self.stride..i * self.stride + self.width]
    }

    /// Row i, mutable.
    pub fn get_mut(&mut self, i: usize) -> &mut [u8] {
        &mut self.data[i * self.stride..i * self.stride + self.width]
    }

    /// Iterates over the rows.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.data
            .chunks_exact(self.stride)
            .map(|r| &r[..self.width])
    }

    /// All rows one after another, without padding.
    pub fn to_flat(&self) -> Vec<u8> {
        self.iter().flatten().copied().collect()
    }

    pub(crate) fn stride(&self) -> usize {
        self.stride
    }

    pub(crate) fn padded(&self) -> &[u8] {
        &self.data
    }

    pub(crate) fn padded_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }

    pub(crate) fn truncate(&mut self, count: usize) {
        let cut = count * self.stride;
        let cut = cut.min(self.data.len());
        self.data[cut..].zeroize();
        self.data.truncate(cut);
    }
}

impl Drop for Rows {
    fn drop(&mut self) {
        self.data.zeroize();
    }
}

/// dst ^= src, byte by byte (the XOR homomorphism: ⟨a⟩ ⊕ ⟨b⟩ = ⟨a ⊕ b⟩).
pub fn xor_into(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "xor_into: lengths differ");
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}
