//! GF(2)-linear maps applied to bit-sliced data.
//!
//! A bit-sliced vector holds one row of Blocks per coordinate: bit `i` of
//! Block `b` of row `j` is coordinate j of item `128b + i`. A GF(2) matrix
//! with `outputs × inputs` entries maps the input rows to output rows, each
//! output row the XOR of the input rows in its support: the systematic
//! encoder of a binary linear code does exactly this to 128 codewords per
//! Block (and, being F2-linear, to vectors over GF(2^128) too).
//!
//! [`Gf2Matrix::apply`] uses the "Four Russians" method: the input rows
//! are taken in groups of four, the 16 XOR combinations of each group are
//! tabulated, and each output row is the XOR of one table entry per group
//! (`inputs / 4` loads instead of ~`inputs / 2`). It works on column slices
//! of four Blocks so that the tables of all groups (16 entries × 64 bytes
//! per group) stay in L1 and each output slice is summed in a register; on
//! CPUs with AVX-512F one `zmm` register holds a slice. The portable twin
//! runs the same schedule on `[Block; 4]` and is tested on the same vectors.

use crate::Block;

/// Input rows per table group.
const GROUP: usize = 4;
/// Blocks per column slice (one 512-bit register).
const SLICE: usize = 4;

/// A GF(2) matrix prepared for [`Gf2Matrix::apply`].
#[derive(Clone, Debug)]
pub struct Gf2Matrix {
    inputs: usize,
    outputs: usize,
    groups: usize,
    /// `idx[l * groups + g]` = `16g + v`: the table entry of group g that
    /// output l takes, where bit b of v says whether input `4g + b` is in
    /// its support. Every entry is below `16 * groups` (the table length).
    idx: Vec<u32>,
}

impl Gf2Matrix {
    /// The matrix whose entry (output `l`, input `i`) is `entry(l, i)`.
    pub fn from_fn(inputs: usize, outputs: usize, entry: impl Fn(usize, usize) -> bool) -> Self {
        let groups = inputs.div_ceil(GROUP);
        let mut idx = Vec::with_capacity(outputs * groups);
        for l in 0..outputs {
            for g in 0..groups {
                let v = (0..GROUP)
                    .filter(|&b| GROUP * g + b < inputs && entry(l, GROUP * g + b))
                    .fold(0u32, |acc, b| acc | (1 << b));
                idx.push(16 * g as u32 + v);
            }
        }
        Gf2Matrix {
            inputs,
            outputs,
            groups,
            idx,
        }
    }

    /// Number of input rows.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of output rows.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Applies the matrix: `input` holds `inputs` rows of `width` Blocks
    /// (row i at `input[i * width..]`), `output` receives `outputs` rows of
    /// the same width, row l = XOR of the input rows in the support of l.
    ///
    /// # Panics
    /// If `input.len() != inputs * width` or `output.len() != outputs * width`.
    pub fn apply(&self, input: &[Block], width: usize, output: &mut [Block]) {
        self.check(input.len(), width, output.len());
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the kernel only requires AVX-512F, detected just
            // above; its body is safe code on bounds-checked slices.
            unsafe { avx512::apply(self, input, width, output) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: requires AVX2, detected just above; the body is the
            // portable code, only compiled for AVX2.
            unsafe { avx2::apply(self, input, width, output) };
            return;
        }
        self.apply_with::<[Block; SLICE]>(input, width, output);
    }

    /// The portable twin of [`Gf2Matrix::apply`].
    ///
    /// # Panics
    /// As [`Gf2Matrix::apply`].
    pub fn apply_portable(&self, input: &[Block], width: usize, output: &mut [Block]) {
        self.check(input.len(), width, output.len());
        self.apply_with::<[Block; SLICE]>(input, width, output);
    }

    fn check(&self, input: usize, width: usize, output: usize) {
        assert_eq!(input, self.inputs * width, "Gf2Matrix::apply: input shape");
        assert_eq!(
            output,
            self.outputs * width,
            "Gf2Matrix::apply: output shape"
        );
    }

    /// One column slice of `V::L` Blocks starting at column `c`.
    #[inline(always)]
    fn apply_slice<V: Lane>(
        &self,
        input: &[Block],
        width: usize,
        output: &mut [Block],
        c: usize,
        table: &mut [V],
    ) {
        assert_eq!(table.len(), 16 * self.groups, "Gf2Matrix: table size");
        for (g, t) in table.chunks_exact_mut(16).enumerate() {
            t[0] = V::ZERO;
            for b in 0..GROUP {
                let i = GROUP * g + b;
                let x = if i < self.inputs {
                    V::load(&input[i * width + c..])
                } else {
                    V::ZERO
                };
                let half = 1 << b;
                for v in 0..half {
                    t[half + v] = t[v].xor(x);
                }
            }
        }
        for l in 0..self.outputs {
            let mut acc = V::ZERO;
            for &k in &self.idx[l * self.groups..(l + 1) * self.groups] {
                // SAFETY: `from_fn` makes every index `16g + v` with
                // g < groups and v < 16, and the table has 16·groups
                // entries (asserted above).
                acc = acc.xor(*unsafe { table.get_unchecked(k as usize) });
            }
            acc.store(&mut output[l * width + c..]);
        }
    }

    /// The whole map: slices of four Blocks (lane type `V4`), then the last
    /// `width % 4` columns one Block at a time.
    #[inline(always)]
    fn apply_with<V4: Lane>(&self, input: &[Block], width: usize, output: &mut [Block]) {
        let full = width / SLICE * SLICE;
        if full > 0 {
            let mut table = vec![<V4 as Lane>::ZERO; 16 * self.groups];
            for c in (0..full).step_by(SLICE) {
                self.apply_slice(input, width, output, c, &mut table);
            }
        }
        if full < width {
            let mut table = vec![Block::ZERO; 16 * self.groups];
            for c in full..width {
                self.apply_slice(input, width, output, c, &mut table);
            }
        }
    }
}

/// A column slice held as one value: four Blocks (a 512-bit register's
/// worth) or one Block.
trait Lane: Copy {
    const ZERO: Self;
    /// The first lanes' worth of `src`.
    fn load(src: &[Block]) -> Self;
    /// Writes into the first lanes' worth of `dst`.
    fn store(self, dst: &mut [Block]);
    fn xor(self, o: Self) -> Self;
}

impl Lane for [Block; SLICE] {
    const ZERO: Self = [Block::ZERO; SLICE];
    #[inline(always)]
    fn load(src: &[Block]) -> Self {
        src[..SLICE].try_into().expect("SLICE blocks")
    }
    #[inline(always)]
    fn store(self, dst: &mut [Block]) {
        dst[..SLICE].copy_from_slice(&self);
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        std::array::from_fn(|i| self[i] ^ o[i])
    }
}

impl Lane for Block {
    const ZERO: Self = Block::ZERO;
    #[inline(always)]
    fn load(src: &[Block]) -> Self {
        src[0]
    }
    #[inline(always)]
    fn store(self, dst: &mut [Block]) {
        dst[0] = self;
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
}

/// The portable kernel compiled with AVX2 enabled (x86 CPUs without
/// AVX-512): the same safe code as [`Gf2Matrix::apply_portable`], which
/// the compiler vectorises over 256-bit registers.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Block, Gf2Matrix, SLICE};

    /// [`Gf2Matrix::apply`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply(m: &Gf2Matrix, input: &[Block], width: usize, output: &mut [Block]) {
        m.apply_with::<[Block; SLICE]>(input, width, output)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Gf2Matrix, Lane, SLICE};
    use crate::Block;
    use std::arch::x86_64::*;

    /// Four Blocks in a `zmm` register. Values of this type exist only
    /// inside [`apply`], which runs only after AVX-512F was detected.
    #[derive(Clone, Copy)]
    struct Zmm(__m512i);

    impl Lane for Zmm {
        // SAFETY: `__m512i` is 64 plain bytes; every bit pattern is valid.
        const ZERO: Self = Zmm(unsafe { std::mem::transmute::<[u64; 8], __m512i>([0; 8]) });
        #[inline(always)]
        fn load(src: &[Block]) -> Self {
            let b: [Block; SLICE] = src[..SLICE].try_into().expect("SLICE blocks");
            Zmm(bytemuck::cast(b))
        }
        #[inline(always)]
        fn store(self, dst: &mut [Block]) {
            let b: [Block; SLICE] = bytemuck::cast(self.0);
            dst[..SLICE].copy_from_slice(&b);
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: a `Zmm` is only ever created and used inside `apply`,
            // whose caller has detected AVX-512F.
            Zmm(unsafe { _mm512_xor_si512(self.0, o.0) })
        }
    }

    /// [`Gf2Matrix::apply`] with one `zmm` register per column slice
    /// (shapes checked by the caller).
    #[target_feature(enable = "avx512f")]
    pub(super) fn apply(m: &Gf2Matrix, input: &[Block], width: usize, output: &mut [Block]) {
        m.apply_with::<Zmm>(input, width, output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    fn reference(
        entry: &dyn Fn(usize, usize) -> bool,
        ins: usize,
        outs: usize,
        input: &[Block],
        width: usize,
    ) -> Vec<Block> {
        let mut out = vec![Block::ZERO; outs * width];
        for l in 0..outs {
            for i in 0..ins {
                if entry(l, i) {
                    for c in 0..width {
                        out[l * width + c] ^= input[i * width + c];
                    }
                }
            }
        }
        out
    }

    #[test]
    fn apply_matches_the_definition_on_both_paths() {
        let mut prg = Prg::from_seed(Block(91));
        for (ins, outs, width) in [
            (128usize, 171usize, 32usize),
            (128, 171, 1),
            (7, 5, 9),
            (13, 3, 4),
            (0, 2, 3),
            (5, 0, 2),
            (9, 4, 0),
        ] {
            let bits = prg.random_bits(ins * outs);
            let entry = |l: usize, i: usize| bits[l * ins + i];
            let m = Gf2Matrix::from_fn(ins, outs, entry);
            assert_eq!((m.inputs(), m.outputs()), (ins, outs));
            let input = prg.random_blocks(ins * width);
            let want = reference(&entry, ins, outs, &input, width);
            let mut got = vec![Block::ONES; outs * width];
            m.apply(&input, width, &mut got);
            assert_eq!(got, want, "dispatch {ins}x{outs} width {width}");
            let mut got = vec![Block::ONES; outs * width];
            m.apply_portable(&input, width, &mut got);
            assert_eq!(got, want, "portable {ins}x{outs} width {width}");
        }
    }

    #[test]
    #[should_panic(expected = "input shape")]
    fn apply_rejects_a_wrong_shape() {
        let m = Gf2Matrix::from_fn(3, 2, |_, _| true);
        m.apply(&[Block::ZERO; 5], 2, &mut [Block::ZERO; 4]);
    }
}
