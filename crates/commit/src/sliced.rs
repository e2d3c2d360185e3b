//! Bit-sliced kernels: PRG rows, transposes, GF(2^128) row combinations.
//!
//! "Bit-sliced" (NST17 Sec. V-A): for code position j and a block of 128
//! commitments, one [`Block`] holds bit j of all 128 of them. PRG output
//! arrives in this shape (one AES-CTR stream per position), the encoder and
//! the consistency check work on it, and a transpose turns a block into 128
//! per-commitment [`Row`]s for storage and openings. Chunk buffers are
//! row-major: row j of a chunk is `CHUNK_BLOCKS` consecutive Blocks.

use crate::code::Row;
use crate::params::{CHUNK_BLOCKS, K, ROW_WORDS, SLICED_ROWS};
use brickyard_core::aes::Aes128;
use brickyard_core::gf128::{gf_inner_product, gf_mul};
use brickyard_core::transpose_cols::transpose128;
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

/// XORs `src` into `dst`.
#[inline]
pub(crate) fn xor_into(dst: &mut [Block], src: &[Block]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// Tile of 128 Blocks as `[u64; 2]` rows.
fn tile_of(blocks: impl Fn(usize) -> Block) -> [[u64; 2]; 128] {
    std::array::from_fn(|r| {
        let b = blocks(r);
        [b.0 as u64, (b.0 >> 64) as u64]
    })
}

/// Transposes column `b` of the first `nrows` rows of a chunk (row stride
/// `stride`) into 128 per-commitment rows of `ROW_WORDS` words.
pub(crate) fn rows_of_block(chunk: &[Block], stride: usize, nrows: usize, b: usize) -> Vec<Row> {
    let mut out = vec![[0u64; ROW_WORDS]; 128];
    for t in 0..ROW_WORDS.div_ceil(2) {
        let mut tile = tile_of(|r| {
            let j = 128 * t + r;
            if j < nrows {
                chunk[j * stride + b]
            } else {
                Block::ZERO
            }
        });
        transpose128(&mut tile);
        for (o, row) in out.iter_mut().zip(&tile) {
            o[2 * t] = row[0];
            if 2 * t + 1 < ROW_WORDS {
                o[2 * t + 1] = row[1];
            }
        }
        tile.zeroize();
    }
    out
}

/// Transposes column `b` of K message rows into 128 messages.
pub(crate) fn msgs_of_block(chunk: &[Block], stride: usize, b: usize) -> [Block; K] {
    let mut tile = tile_of(|r| chunk[r * stride + b]);
    transpose128(&mut tile);
    let out = std::array::from_fn(|i| Block::from_halves(tile[i][0], tile[i][1]));
    tile.zeroize();
    out
}

/// The inverse direction: up to 128 rows → `SLICED_ROWS` Blocks (bit `lane`
/// of Block j = bit j of row `lane`); missing rows are zero.
pub(crate) fn slice_rows(rows: &[Row]) -> [Block; SLICED_ROWS] {
    let mut out = [Block::ZERO; SLICED_ROWS];
    for t in 0..ROW_WORDS.div_ceil(2) {
        let mut tile: [[u64; 2]; 128] = std::array::from_fn(|lane| match rows.get(lane) {
            Some(r) => [
                r[2 * t],
                if 2 * t + 1 < ROW_WORDS {
                    r[2 * t + 1]
                } else {
                    0
                },
            ],
            None => [0, 0],
        });
        transpose128(&mut tile);
        for (j, row) in tile.iter().enumerate() {
            if 128 * t + j < SLICED_ROWS {
                out[128 * t + j] = Block::from_halves(row[0], row[1]);
            }
        }
        tile.zeroize();
    }
    out
}

/// Up to 128 messages → K Blocks (bit `lane` of Block i = bit i of message `lane`).
pub(crate) fn slice_msgs(msgs: &[Block]) -> [Block; K] {
    let mut tile = tile_of(|lane| msgs.get(lane).copied().unwrap_or(Block::ZERO));
    transpose128(&mut tile);
    let out = std::array::from_fn(|i| Block::from_halves(tile[i][0], tile[i][1]));
    tile.zeroize();
    out
}

/// `acc[r] ^= Σ_b coef[b]·rows[r][b]` for the first `acc.len()` rows of a
/// chunk (row stride `stride`, `coef.len()` columns): one GF(2^128)
/// combination per row, reduced once per row.
pub(crate) fn combine_rows(chunk: &[Block], stride: usize, coef: &[Block], acc: &mut [Block]) {
    let nb = coef.len();
    for (r, a) in acc.iter_mut().enumerate() {
        *a ^= gf_inner_product(coef, &chunk[r * stride..r * stride + nb]);
    }
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
/// for item `128h + lane`: slices each group of 128 rows and combines the
/// slices chunk-wise. Returns `SLICED_ROWS` Blocks (position j = row j).
pub(crate) fn combine_item_rows(rows: &[Row], alpha: Block) -> Vec<Block> {
    combine_groups(rows.len(), SLICED_ROWS, alpha, |h, out| {
        let end = (128 * h + 128).min(rows.len());
        out.copy_from_slice(&slice_rows(&rows[128 * h..end]));
    })
}

/// As [`combine_item_rows`] for messages (K output Blocks).
pub(crate) fn combine_item_msgs(msgs: &[Block], alpha: Block) -> Vec<Block> {
    combine_groups(msgs.len(), K, alpha, |h, out| {
        let end = (128 * h + 128).min(msgs.len());
        out.copy_from_slice(&slice_msgs(&msgs[128 * h..end]));
    })
}

fn combine_groups(
    items: usize,
    width: usize,
    alpha: Block,
    slice_group: impl Fn(usize, &mut [Block]),
) -> Vec<Block> {
    let groups = items.div_ceil(128);
    let coef = powers(alpha, 1, groups);
    let mut acc = vec![Block::ZERO; width];
    let mut buf = vec![Block::ZERO; width * CHUNK_BLOCKS];
    let mut one = vec![Block::ZERO; width];
    for start in (0..groups).step_by(CHUNK_BLOCKS) {
        let nh = (groups - start).min(CHUNK_BLOCKS);
        for h in 0..nh {
            slice_group(start + h, &mut one);
            for (j, v) in one.iter().enumerate() {
                buf[j * CHUNK_BLOCKS + h] = *v;
            }
        }
        combine_rows(&buf, CHUNK_BLOCKS, &coef[start..start + nh], &mut acc);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;

    #[test]
    fn slicing_round_trips_and_matches_bits() {
        let mut prg = Prg::from_seed(Block(9));
        let rows: Vec<Row> = (0..100)
            .map(|_| {
                let b = prg.random_blocks(3);
                [
                    b[0].0 as u64,
                    (b[0].0 >> 64) as u64,
                    b[1].0 as u64,
                    b[2].0 as u64,
                    0,
                ]
            })
            .collect();
        let s = slice_rows(&rows);
        for (lane, r) in rows.iter().enumerate() {
            for j in 0..256 {
                assert_eq!(s[j].bit(lane), (r[j / 64] >> (j % 64)) & 1 == 1);
            }
        }
        // Back through a chunk-shaped buffer.
        let back = rows_of_block(&s, 1, SLICED_ROWS, 0);
        assert_eq!(&back[..100], &rows[..]);
        let msgs = prg.random_blocks(128);
        let sm = slice_msgs(&msgs);
        assert_eq!(msgs_of_block(&sm, 1, 0).to_vec(), msgs);
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
    }
}
