//! Bit-sliced kernels: PRG rows, transposes, GF(2^128) row combinations.
//!
//! "Bit-sliced" (NST17 Sec. V-A): for code position j and a block of 128
//! commitments, one [`Block`] holds bit j of all 128 of them. PRG output
//! arrives in this shape (one AES-CTR stream per position), the encoder and
//! the consistency check work on it, and a transpose turns a block into 128
//! per-commitment [`Row`]s for storage and openings. Chunk buffers are
//! row-major: row j of a chunk is `CHUNK_BLOCKS` consecutive Blocks. The
//! heavy lifting is done by `brickyard_core` kernels (VAES, VPCLMULQDQ and
//! AVX-512 transposes where the CPU has them).

use crate::code::Row;
use crate::params::{CHUNK_BLOCKS, K, MIN_N, ROW_WORDS};
use brickyard_core::aes::Aes128;
use brickyard_core::gf128::{gf_mul, gf_mul_acc_rows, GfWide};
use brickyard_core::transpose_cols::{transpose_columns_to_words, transpose_words_to_columns};
use brickyard_core::Block;
use zeroize::Zeroize;

/// `out[b] = AES_key(first + b)`: blocks `first..` of the AES-CTR stream of
/// one base-OT seed (the stream of [`brickyard_core::prg::Prg`], addressed
/// by counter so threads can start anywhere).
pub(crate) fn prg_row(aes: &Aes128, first: u64, out: &mut [Block]) {
    for (b, o) in out.iter_mut().enumerate() {
        *o = Block(first as u128 + b as u128);
    }
    aes.encrypt_blocks(out);
}

/// Transposes the `n` (= N) rows of a chunk (row stride `CHUNK_BLOCKS`) into
/// per-commitment rows, one per entry of `out` (commitment q = lane q % 128
/// of block q / 128).
pub(crate) fn store_rows(chunk: &[Block], n: usize, out: &mut [Row]) {
    // The transpose writes the code's words; the padding words are zeroed
    // here, so a reused buffer never leaves stale bits past N.
    debug_assert!((MIN_N..=64 * ROW_WORDS).contains(&n));
    let count = out.len();
    transpose_columns_to_words(
        chunk,
        CHUNK_BLOCKS,
        n,
        count,
        bytemuck::cast_slice_mut(out),
        ROW_WORDS,
    );
    let used = n.div_ceil(64);
    if used < ROW_WORDS {
        // A fixed-width mask per row: `fill` on the short tail compiled to
        // a `memset` call per row (≈ 0.5 ms per party and AES-128).
        let keep: Row = std::array::from_fn(|w| if w < used { !0 } else { 0 });
        for r in out.iter_mut() {
            for (x, k) in r.iter_mut().zip(&keep) {
                *x &= *k;
            }
        }
    }
}

/// Transposes the K message rows of a chunk into one message per entry
/// of `out`.
pub(crate) fn store_msgs(chunk: &[Block], out: &mut [Block]) {
    let n = out.len();
    transpose_columns_to_words(chunk, CHUNK_BLOCKS, K, n, bytemuck::cast_slice_mut(out), 2);
}

/// XORs `src` into `dst`.
#[inline]
pub(crate) fn xor_into(dst: &mut [Block], src: &[Block]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// Up to 128 messages → K Blocks (bit `lane` of Block i = bit i of message
/// `lane`; missing lanes are zero).
pub(crate) fn slice_msgs(msgs: &[Block]) -> [Block; K] {
    let mut out = [Block::ZERO; K];
    transpose_words_to_columns(
        bytemuck::cast_slice(msgs),
        2,
        K,
        msgs.len().min(128),
        &mut out,
        1,
    );
    out
}

/// `[α^first, α^(first+1), …]` (`len` powers).
pub(crate) fn powers(alpha: Block, first: u64, len: usize) -> Vec<Block> {
    let mut out = Vec::with_capacity(len);
    let mut x = brickyard_core::gf128::gf_pow(alpha, first as u128);
    for _ in 0..len {
        out.push(x);
        x = gf_mul(x, alpha);
    }
    out
}

/// GF(2^128) combination of per-item rows with coefficient `α^(h+1)·x^lane`
/// for item `128h + lane`: slices the items chunk by chunk (up to
/// `CHUNK_BLOCKS` groups of 128) and combines the slices. Returns N Blocks
/// (position j = row position j). (The protocol gathers items straight
/// into [`combine_items_with`]; tests build answers with this.)
#[cfg(test)]
pub(crate) fn combine_item_rows(rows: &[Row], n: usize, alpha: Block) -> Vec<Block> {
    combine_items_with(ROW_WORDS, n, rows.len(), alpha, |range, out| {
        out.copy_from_slice(bytemuck::cast_slice(&rows[range]));
    })
}

/// As [`combine_item_rows`] for messages (K output Blocks).
pub(crate) fn combine_item_msgs(msgs: &[Block], alpha: Block) -> Vec<Block> {
    combine_items_with(2, K, msgs.len(), alpha, |range, out| {
        out.copy_from_slice(bytemuck::cast_slice(&msgs[range]));
    })
}

/// The combination of [`combine_item_rows`] over `items` items of
/// `stride` words, the first `nrows` bits of each; `fill(range, out)`
/// writes the words of the items in `range` (at most one chunk, 4096) to
/// `out`, so callers can gather items (or XORs of items) straight into the
/// reused chunk buffer instead of collecting them all first.
pub(crate) fn combine_items_with(
    stride: usize,
    nrows: usize,
    items: usize,
    alpha: Block,
    mut fill: impl FnMut(std::ops::Range<usize>, &mut [u64]),
) -> Vec<Block> {
    let groups = items.div_ceil(128);
    let coef = powers(alpha, 1, groups);
    let mut acc = vec![GfWide::default(); nrows];
    let mut cols = vec![Block::ZERO; nrows * CHUNK_BLOCKS];
    let per_chunk = 128 * CHUNK_BLOCKS;
    let mut words = vec![0u64; items.min(per_chunk) * stride];
    for (c, coef) in coef.chunks(CHUNK_BLOCKS).enumerate() {
        let first = c * per_chunk;
        let n = (items - first).min(per_chunk);
        let src = &mut words[..n * stride];
        fill(first..first + n, src);
        transpose_words_to_columns(src, stride, nrows, n, &mut cols, CHUNK_BLOCKS);
        gf_mul_acc_rows(coef, &cols, CHUNK_BLOCKS, &mut acc);
    }
    words.zeroize();
    cols.zeroize();
    let out = acc.iter().map(|a| a.reduce()).collect();
    acc.zeroize();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;

    const N: usize = 299;

    #[test]
    fn slicing_round_trips_and_matches_bits() {
        let mut prg = Prg::from_seed(Block(9));
        // 300 rows as a chunk of width 3 (the last block partial).
        let rows: Vec<Row> = (0..300)
            .map(|_| {
                let b = prg.random_blocks(3);
                let top = (b[2].0 >> 64) as u64 & ((1 << (N % 64)) - 1);
                let mut r = [0u64; ROW_WORDS];
                r[..5].copy_from_slice(&[
                    b[0].0 as u64,
                    (b[0].0 >> 64) as u64,
                    b[1].0 as u64,
                    b[2].0 as u64,
                    top,
                ]);
                r
            })
            .collect();
        let mut chunk = vec![Block::ZERO; N * CHUNK_BLOCKS];
        transpose_words_to_columns(
            bytemuck::cast_slice(&rows),
            ROW_WORDS,
            N,
            300,
            &mut chunk,
            CHUNK_BLOCKS,
        );
        for (q, r) in rows.iter().enumerate() {
            for j in 0..N {
                assert_eq!(
                    chunk[j * CHUNK_BLOCKS + q / 128].bit(q % 128),
                    (r[j / 64] >> (j % 64)) & 1 == 1
                );
            }
        }
        let mut back = vec![[0u64; ROW_WORDS]; 300];
        store_rows(&chunk, N, &mut back);
        assert_eq!(back, rows);
        // A buffer with stale bits gets the same words and zero padding.
        let mut dirty = vec![[!0u64; ROW_WORDS]; 300];
        store_rows(&chunk, N, &mut dirty);
        let used = N.div_ceil(64);
        for (d, r) in dirty.iter().zip(&rows) {
            assert_eq!(d[..used], r[..used]);
            assert!(d[used..].iter().all(|&w| w == 0), "padding cleared");
        }
        let msgs = prg.random_blocks(128);
        let sm = slice_msgs(&msgs);
        let mut m_chunk = vec![Block::ZERO; K * CHUNK_BLOCKS];
        for (i, s) in sm.iter().enumerate() {
            m_chunk[i * CHUNK_BLOCKS] = *s;
        }
        let mut m_back = vec![Block::ZERO; 128];
        store_msgs(&m_chunk, &mut m_back);
        assert_eq!(m_back, msgs);
        assert_eq!(
            slice_msgs(&msgs[..3])[7].0 >> 3,
            0,
            "missing lanes are zero"
        );
    }

    #[test]
    fn item_combination_is_the_documented_sum() {
        let mut prg = Prg::from_seed(Block(10));
        let msgs = prg.random_blocks(300);
        let alpha = prg.random_block();
        let got = combine_item_msgs(&msgs, alpha);
        // Position i: Σ_q α^(q/128+1)·x^(q%128)·bit_i(m_q).
        for i in [0usize, 5, 127] {
            let mut want = Block::ZERO;
            for (q, m) in msgs.iter().enumerate() {
                if m.bit(i) {
                    let c = gf_mul(
                        brickyard_core::gf128::gf_pow(alpha, (q / 128 + 1) as u128),
                        Block(1u128 << (q % 128)),
                    );
                    want ^= c;
                }
            }
            assert_eq!(got[i], want);
        }
        // Rows: more than one chunk of groups.
        let rows: Vec<Row> = (0..128 * CHUNK_BLOCKS + 5)
            .map(|q| {
                let mut r = [0u64; ROW_WORDS];
                r[..5].copy_from_slice(&[q as u64, 0, 1, 0, (q as u64) & 7]);
                r
            })
            .collect();
        let got = combine_item_rows(&rows, N, alpha);
        for j in [0usize, 1, 128, 256, 258] {
            let mut want = Block::ZERO;
            for (q, r) in rows.iter().enumerate() {
                if (r[j / 64] >> (j % 64)) & 1 == 1 {
                    want ^= gf_mul(
                        brickyard_core::gf128::gf_pow(alpha, (q / 128 + 1) as u128),
                        Block(1u128 << (q % 128)),
                    );
                }
            }
            assert_eq!(got[j], want, "position {j}");
        }
    }
}
