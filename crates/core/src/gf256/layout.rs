//! Symbol-major ↔ message-major byte transposes.
//!
//! Reed–Solomon encoding of a batch is fastest symbol-major (row i = symbol
//! i of every message, so one coefficient multiplies a whole row), while
//! callers hold messages one after another. [`transpose`] moves a
//! cache-sized block between the two: SSE2 16 × 16 byte blocks on x86-64
//! (two side by side on AVX2),
//! the portable twin [`transpose_portable`] elsewhere and for the edges.

/// dst\[c·dst_stride + r\] = src\[r·src_stride + c\] for r < `rows`,
/// c < `cols` (other bytes of `dst` untouched).
pub fn transpose(
    src: &[u8],
    src_stride: usize,
    rows: usize,
    cols: usize,
    dst: &mut [u8],
    dst_stride: usize,
) {
    if rows == 0 || cols == 0 {
        return;
    }
    check(src, src_stride, rows, cols, dst, dst_stride);
    #[cfg(target_arch = "x86_64")]
    {
        let (r16, c16) = (rows - rows % 16, cols - cols % 16);
        // Pairs of 16-column blocks on AVX2 when the CPU has it.
        let c32 = if super::Kernel::Avx2.is_available() {
            cols - cols % 32
        } else {
            0
        };
        for r0 in (0..r16).step_by(16) {
            for c0 in (0..c32).step_by(32) {
                // SAFETY: AVX2 detected above. Source rows r0..r0+16 hold
                // bytes c0..c0+32 (c0 + 32 ≤ cols ≤ src_stride, `check`
                // bounds the last row), and destination rows c0..c0+32
                // hold bytes r0..r0+16 (r0 + 16 ≤ rows ≤ dst_stride).
                unsafe {
                    super::x86::avx2_transpose16x32(
                        &src[r0 * src_stride + c0..],
                        src_stride,
                        &mut dst[c0 * dst_stride + r0..],
                        dst_stride,
                    )
                }
            }
            for c0 in (c32..c16).step_by(16) {
                // SAFETY: SSE2 is part of x86-64. The block's source rows
                // r0..r0+16 hold bytes c0..c0+16 (r0 + 16 ≤ rows, c0 + 16 ≤
                // cols ≤ src_stride, and `check` bounds the last row), and
                // likewise its destination rows c0..c0+16.
                unsafe {
                    super::x86::sse2_transpose16(
                        &src[r0 * src_stride + c0..],
                        src_stride,
                        &mut dst[c0 * dst_stride + r0..],
                        dst_stride,
                    )
                }
            }
        }
        edges(src, src_stride, (r16, rows), (0, cols), dst, dst_stride);
        edges(src, src_stride, (0, r16), (c16, cols), dst, dst_stride);
    }
    #[cfg(not(target_arch = "x86_64"))]
    edges(src, src_stride, (0, rows), (0, cols), dst, dst_stride);
}

/// [`transpose`] one byte at a time (the twin the SIMD blocks are tested
/// against).
pub fn transpose_portable(
    src: &[u8],
    src_stride: usize,
    rows: usize,
    cols: usize,
    dst: &mut [u8],
    dst_stride: usize,
) {
    if rows == 0 || cols == 0 {
        return;
    }
    check(src, src_stride, rows, cols, dst, dst_stride);
    edges(src, src_stride, (0, rows), (0, cols), dst, dst_stride);
}

fn check(src: &[u8], src_stride: usize, rows: usize, cols: usize, dst: &[u8], dst_stride: usize) {
    assert!(
        cols <= src_stride
            && rows <= dst_stride
            && src.len() >= (rows - 1) * src_stride + cols
            && dst.len() >= (cols - 1) * dst_stride + rows,
        "gf256::transpose: shape exceeds the slices"
    );
}

fn edges(
    src: &[u8],
    src_stride: usize,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    dst: &mut [u8],
    dst_stride: usize,
) {
    const T: usize = 16;
    for rb in (r0..r1).step_by(T) {
        for cb in (c0..c1).step_by(T) {
            for r in rb..(rb + T).min(r1) {
                for c in cb..(cb + T).min(c1) {
                    dst[c * dst_stride + r] = src[r * src_stride + c];
                }
            }
        }
    }
}
