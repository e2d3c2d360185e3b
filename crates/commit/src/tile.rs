//! 128×128 bit-matrix transpose, in place.
//!
//! The commit phase transposes one 128×128 tile per 128 commitments and
//! 128 positions; profiling showed the general-shape kernel of
//! `brickyard_core::transpose` at 17% of the benchmark, because our shape
//! (320 rows of 16 bytes) is its slow "tall" case. A square tile admits the
//! classic recursive block-swap network (Hacker's Delight §7-3): 7 levels,
//! each swapping the off-diagonal j×j blocks of every 2j×2j block. Rows are
//! `[u64; 2]` (low, high words): level 64 swaps words, levels < 64 work
//! within words, so the compiler can run two rows' words per SSE2 op. The
//! access pattern depends only on the shape, never on the bits.

/// Row r, bit c (`c < 64`: bit c of word 0, else bit c − 64 of word 1)
/// becomes row c, bit r.
pub(crate) fn transpose128(a: &mut [[u64; 2]; 128]) {
    // Level 64: swap the high word of row k with the low word of row k + 64.
    let (top, bottom) = a.split_at_mut(64);
    for (x, y) in top.iter_mut().zip(bottom.iter_mut()) {
        std::mem::swap(&mut x[1], &mut y[0]);
    }
    level::<32>(a, 0x0000_0000_FFFF_FFFF);
    level::<16>(a, 0x0000_FFFF_0000_FFFF);
    level::<8>(a, 0x00FF_00FF_00FF_00FF);
    level::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    level::<2>(a, 0x3333_3333_3333_3333);
    level::<1>(a, 0x5555_5555_5555_5555);
}

/// One level of the swap network with a constant shift, so the compiler
/// emits immediate shifts and vectorises across rows (a run-time shift
/// count kept it scalar: measured 16% of the benchmark).
#[inline(always)]
fn level<const J: usize>(a: &mut [[u64; 2]; 128], m: u64) {
    for pair in a.chunks_exact_mut(2 * J) {
        let (lo, hi) = pair.split_at_mut(J);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            for w in 0..2 {
                let t = ((x[w] >> J) ^ y[w]) & m;
                y[w] ^= t;
                x[w] ^= t << J;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brickyard_core::prg::Prg;
    use brickyard_core::Block;

    #[test]
    fn matches_the_definition_and_the_core_kernel() {
        let mut prg = Prg::from_seed(Block(42));
        let rows = prg.random_blocks(128);
        let mut a: [[u64; 2]; 128] =
            std::array::from_fn(|r| [rows[r].0 as u64, (rows[r].0 >> 64) as u64]);
        transpose128(&mut a);
        for r in 0..128 {
            for (c, ac) in a.iter().enumerate() {
                assert_eq!((ac[r / 64] >> (r % 64)) & 1 == 1, rows[r].bit(c));
            }
        }
        let core = brickyard_core::transpose::transpose(bytemuck::cast_slice(&rows), 128, 128);
        assert_eq!(bytemuck::cast_slice::<[u64; 2], u8>(&a), &core[..]);
        transpose128(&mut a);
        assert!((0..128).all(|r| a[r] == [rows[r].0 as u64, (rows[r].0 >> 64) as u64]));
    }
}
