//! Batches of messages and i-hashes, message-major with padded rows.
//!
//! PRG output and encoding are symbol-major (one row per code position);
//! callers and the check combinations want one row per message. Rows are
//! padded with zeros to a multiple of 32 bytes so that the core combination
//! kernel runs on SIMD registers.

use brickyard_core::gf256::Field;
use brickyard_core::prg::Prg;
use zeroize::Zeroize;

/// Row stride for `width` bytes: the next multiple of 32.
pub(crate) fn stride_for(width: usize) -> usize {
    width.div_ceil(32) * 32
}

/// Messages per chunk of a batch (a multiple of 16, so PRG streams are cut
/// at block boundaries): n rows of it are 86 KiB for the k = 88 labels,
/// which stay in L2 while they are encoded and transposed.
pub(crate) const CHUNK: usize = 1024;

/// Fills `row` with the next symbols of `prg`'s stream (bytes masked to
/// GF(2^σ)).
pub(crate) fn fill_symbols(prg: &mut Prg, row: &mut [u8], field: &Field) {
    prg.fill_bytes(row);
    let mask = (field.order() - 1) as u8;
    if mask != 0xff {
        row.iter_mut().for_each(|x| *x &= mask);
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
    /// `count` rows of `width` zero bytes (callers fill them with
    /// [`Rows::get_mut`], e.g. a batch of pairs for
    /// [`Verifier::verify_batch`](crate::Verifier::verify_batch)).
    pub fn zeroed(count: usize, width: usize) -> Rows {
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

    /// Makes it `count` rows: rows cut off are wiped, new rows are zero.
    pub fn resize(&mut self, count: usize) {
        if count <= self.len() {
            self.truncate(count);
        } else {
            self.data.resize(count * self.stride, 0);
        }
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
