//! The long-label half-gates equations over a batch of independent AND
//! gates (see the module docs of [`super`]): the only place they are
//! written. The circuit walk gathers a batch's input labels and calls
//! these; JIMU's Generate calls them on its random gates directly.
//!
//! Per gate the garbler compresses `A₀` and `B₀` (the compressions of
//! `A₀ ⊕ Δ`, `B₀ ⊕ Δ` are those XOR `Compress(Δ)`), runs the inner AES
//! pass on the four compressed values and the outer pass on `4L` blocks;
//! the evaluator compresses two labels and runs `2 + 2L` blocks. Both
//! passes of the whole batch are one `brickyard_core::aes::fan::tccr_fan`
//! call (VAES on YMM registers where the CPU has it, both passes and the
//! tweaks in registers; else its portable twin over `encrypt_blocks`).

use super::compress::Compress;
use super::{and_bit, lsb, max_and_index, wide_tweak, xor, Label, WideDelta};
use brickyard_core::aes::fan::tccr_fan;
use brickyard_core::{Block, Error, Result};
use zeroize::Zeroizing;

/// Reusable buffers (wiped on drop: they hold compressed labels, and
/// π of a compressed label reveals it).
#[derive(Default)]
pub struct WideScratch {
    u: Zeroizing<Vec<Block>>,
    v: Zeroizing<Vec<Block>>,
    /// The low tweak half of each hashed value's first output block.
    bases: Vec<u64>,
}

impl WideScratch {
    /// Empty buffers; they grow to the largest batch seen.
    pub fn new() -> Self {
        Self::default()
    }

    fn prepare(&mut self, nu: usize, nv: usize) -> (&mut [Block], &mut [Block], &mut [u64]) {
        if self.u.len() < nu {
            self.u.resize(nu, Block::ZERO);
            self.bases.resize(nu, 0);
        }
        if self.v.len() < nv {
            self.v.resize(nv, Block::ZERO);
        }
        (&mut self.u[..nu], &mut self.v[..nv], &mut self.bases[..nu])
    }

    /// Grows the buffers for batches of `nu` hashed values and `nv` hash
    /// output blocks and touches them (so that a later batch of that size
    /// neither allocates nor faults pages in).
    pub fn reserve(&mut self, nu: usize, nv: usize) {
        self.prepare(nu, nv);
    }

    /// The hash output and tweak buffers alone, for a caller that lays
    /// the `nu` hashed values out itself.
    fn prepare_hash(&mut self, nu: usize, nv: usize) -> (&mut [Block], &mut [u64]) {
        if self.bases.len() < nu {
            self.bases.resize(nu, 0);
        }
        if self.v.len() < nv {
            self.v.resize(nv, Block::ZERO);
        }
        (&mut self.v[..nv], &mut self.bases[..nu])
    }
}

/// `v[L·h + k] = tccr(u[h], τ(j_h, h mod 2, k))` for each hashed value:
/// afterwards `v[L·h .. L·h + L]` is `H` of value `h`. `per` values per
/// gate (4: garbler, 2: evaluator); value `h` of a gate belongs to half
/// `h / (per/2)`. `bases` is scratch of `u.len()` entries.
fn hash<const L: usize>(
    u: &[Block],
    v: &mut [Block],
    bases: &mut [u64],
    per: usize,
    offset: u64,
    index: impl Fn(usize) -> u64,
) {
    for (g, bg) in bases.chunks_exact_mut(per).enumerate() {
        let j = index(g);
        for (h, b) in bg.iter_mut().enumerate() {
            let half = (h / (per / 2)) as u64;
            *b = wide_tweak(L, offset, j, half, 0).halves().0;
        }
    }
    tccr_fan(u, bases, offset, L, v);
}

fn as_label<const L: usize>(s: &[Block]) -> Label<L> {
    std::array::from_fn(|k| s[k])
}

fn check_index<const L: usize>(first: u64, n: usize) -> Result<()> {
    if first.saturating_add(n as u64) > max_and_index(L) {
        return Err(Error::config("long-label AND index beyond the tweak space"));
    }
    Ok(())
}

/// Garbles `a0.len()` independent AND gates with global indices
/// `first, first + 1, …` under `tweak_offset`: output 0-labels to `out0`,
/// tables (`[T_G, T_E]` per gate) to `tables` (length `2n`). Mismatched
/// lengths are `Config` (a caller bug).
#[allow(clippy::too_many_arguments)]
pub fn garble_batch<const L: usize>(
    a0: &[Label<L>],
    b0: &[Label<L>],
    delta: &WideDelta<L>,
    compress: &Compress,
    tweak_offset: u64,
    first: u64,
    out0: &mut [Label<L>],
    tables: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    garble_with(
        a0,
        b0,
        |i| compress.apply(&a0[i]),
        |i| compress.apply(&b0[i]),
        delta,
        compress,
        tweak_offset,
        first,
        out0,
        tables,
        scratch,
    )
}

/// [`garble_batch`] with the inputs' compressions `ca[i] = Compress(a0[i])`,
/// `cb[i]` given (a circuit walk that carries them through XOR gates
/// compresses each AND output once instead of each AND input).
#[allow(clippy::too_many_arguments)]
pub fn garble_batch_compressed<const L: usize>(
    a0: &[Label<L>],
    b0: &[Label<L>],
    ca: &[Block],
    cb: &[Block],
    delta: &WideDelta<L>,
    compress: &Compress,
    tweak_offset: u64,
    first: u64,
    out0: &mut [Label<L>],
    tables: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    if ca.len() != a0.len() || cb.len() != b0.len() {
        return Err(Error::config("garble_batch_compressed: mismatched lengths"));
    }
    garble_with(
        a0,
        b0,
        |i| ca[i],
        |i| cb[i],
        delta,
        compress,
        tweak_offset,
        first,
        out0,
        tables,
        scratch,
    )
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn garble_with<const L: usize>(
    a0: &[Label<L>],
    b0: &[Label<L>],
    ca: impl Fn(usize) -> Block,
    cb: impl Fn(usize) -> Block,
    delta: &WideDelta<L>,
    compress: &Compress,
    tweak_offset: u64,
    first: u64,
    out0: &mut [Label<L>],
    tables: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    let n = a0.len();
    if b0.len() != n || out0.len() != n || tables.len() != 2 * n || 16 * L != compress.cols() {
        return Err(Error::config("garble_batch: mismatched lengths"));
    }
    check_index::<L>(first, n)?;
    let d = delta.label();
    let cd = compress.apply(d);
    let (u, v, bases) = scratch.prepare(4 * n, 4 * L * n);
    for (i, ug) in u.chunks_exact_mut(4).enumerate() {
        let (ca, cb) = (ca(i), cb(i));
        ug.copy_from_slice(&[ca, ca ^ cd, cb, cb ^ cd]);
    }
    hash::<L>(u, v, bases, 4, tweak_offset, |g| first + g as u64);
    for ((hg, (a, b)), (o, tab)) in v
        .chunks_exact(4 * L)
        .zip(a0.iter().zip(b0))
        .zip(out0.iter_mut().zip(tables.chunks_exact_mut(2)))
    {
        let (ha0, ha1): (Label<L>, Label<L>) = (as_label(&hg[..L]), as_label(&hg[L..2 * L]));
        let (hb0, hb1): (Label<L>, Label<L>) =
            (as_label(&hg[2 * L..3 * L]), as_label(&hg[3 * L..]));
        let (pa, pb) = (lsb(a), lsb(b));
        let tg = xor(&xor(&ha0, &ha1), &and_bit(d, pb));
        let hb = xor(&hb0, &hb1);
        let wg = xor(&ha0, &and_bit(&tg, pa));
        let we = xor(&hb0, &and_bit(&hb, pb));
        *o = xor(&wg, &we);
        tab[0] = tg;
        tab[1] = xor(&hb, a);
    }
    Ok(())
}

/// Evaluates gates garbled by [`garble_batch`] with the same
/// `tweak_offset` and `first`. `tables` usually comes from the peer: a
/// wrong length is `Malformed`.
#[allow(clippy::too_many_arguments)]
pub fn eval_batch<const L: usize>(
    a: &[Label<L>],
    b: &[Label<L>],
    tables: &[Label<L>],
    compress: &Compress,
    tweak_offset: u64,
    first: u64,
    out: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    check_index::<L>(first, a.len())?;
    eval_with(
        a,
        b,
        |i| compress.apply(&a[i]),
        |i| compress.apply(&b[i]),
        tables,
        compress,
        tweak_offset,
        |g| first + g as u64,
        out,
        scratch,
    )
}

/// [`eval_batch`] with the inputs' compressions given (as
/// [`garble_batch_compressed`]).
#[allow(clippy::too_many_arguments)]
pub fn eval_batch_compressed<const L: usize>(
    a: &[Label<L>],
    b: &[Label<L>],
    ca: &[Block],
    cb: &[Block],
    tables: &[Label<L>],
    compress: &Compress,
    tweak_offset: u64,
    first: u64,
    out: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    if ca.len() != a.len() || cb.len() != b.len() {
        return Err(Error::config("eval_batch_compressed: mismatched lengths"));
    }
    check_index::<L>(first, a.len())?;
    eval_with(
        a,
        b,
        |i| ca[i],
        |i| cb[i],
        tables,
        compress,
        tweak_offset,
        |g| first + g as u64,
        out,
        scratch,
    )
}

/// [`eval_batch_compressed`] for gates that are not consecutive in the
/// garbler's numbering: gate `i` was garbled with index `index[i]` (JIMU's
/// buckets take garbled gates from anywhere in Generate's batch, and Bob
/// evaluates a whole circuit layer of buckets in one call).
#[allow(clippy::too_many_arguments)]
pub fn eval_batch_compressed_at<const L: usize>(
    a: &[Label<L>],
    b: &[Label<L>],
    ca: &[Block],
    cb: &[Block],
    tables: &[Label<L>],
    compress: &Compress,
    tweak_offset: u64,
    index: &[u64],
    out: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    if ca.len() != a.len() || cb.len() != b.len() || index.len() != a.len() {
        return Err(Error::config(
            "eval_batch_compressed_at: mismatched lengths",
        ));
    }
    if index.iter().any(|&j| j >= max_and_index(L)) {
        return Err(Error::config("long-label AND index beyond the tweak space"));
    }
    eval_with(
        a,
        b,
        |i| ca[i],
        |i| cb[i],
        tables,
        compress,
        tweak_offset,
        |g| index[g],
        out,
        scratch,
    )
}

/// Evaluates soldered gates (JIMU's buckets) with the solderings folded
/// in ahead of time, so that the evaluator's per-gate input work is one
/// XOR of compressed blocks and a colour bit.
///
/// Gate `g` of the batch is a garbled gate whose inputs are the wire
/// labels `A ⊕ δ_l`, `B ⊕ δ_r` and whose output is soldered by `δ_o`.
/// Gates come in groups of `group` that share the left wire label `A`
/// (`left[g / group]`; a bucket's gates). The caller gives, per gate,
/// `u[2g] = Compress(A ⊕ δ_l)`, `u[2g + 1] = Compress(B ⊕ δ_r)` and the
/// colours `colours[g]` (bit 0: lsb(A ⊕ δ_l), bit 1: lsb(B ⊕ δ_r)); the
/// table holds `[T_G, T_E ⊕ δ_l]`. Then
/// `out[g] = δ_o ⊕ H(A') ⊕ s_A·T_G ⊕ H(B') ⊕ s_B·(T_E ⊕ A ⊕ δ_l)`,
/// the half-gates evaluation of [`eval_batch_compressed_at`] on the
/// soldered inputs, XOR `δ_o` (`offsets[g]`): the same value, with the
/// input-independent `T_E ⊕ δ_l` computed once before the inputs exist.
#[allow(clippy::too_many_arguments)]
pub fn eval_soldered_at<const L: usize>(
    u: &[Block],
    colours: &[u8],
    left: &[Label<L>],
    group: usize,
    tables: &[Label<L>],
    offsets: &[Label<L>],
    tweak_offset: u64,
    index: &[u64],
    out: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    let n = out.len();
    if u.len() != 2 * n
        || colours.len() != n
        || offsets.len() != n
        || index.len() != n
        || group == 0
        || left.len() * group != n
    {
        return Err(Error::config("eval_soldered_at: mismatched lengths"));
    }
    if tables.len() != 2 * n {
        return Err(Error::malformed(format!(
            "{} long-label table rows for {n} AND gates",
            tables.len()
        )));
    }
    if index.iter().any(|&j| j >= max_and_index(L)) {
        return Err(Error::config("long-label AND index beyond the tweak space"));
    }
    let (v, bases) = scratch.prepare_hash(2 * n, 2 * L * n);
    hash::<L>(u, v, bases, 2, tweak_offset, |g| index[g]);
    let gates = v
        .chunks_exact(2 * L)
        .zip(tables.chunks_exact(2))
        .zip(offsets.iter().zip(colours))
        .zip(out.iter_mut());
    for (g, (((hg, tab), (off, &c)), o)) in gates.enumerate() {
        let a = &left[g / group];
        let (ha, hb): (Label<L>, Label<L>) = (as_label(&hg[..L]), as_label(&hg[L..]));
        let h = xor(&xor(&ha, &hb), off);
        let wg = and_bit(&tab[0], c & 1 == 1);
        let we = and_bit(&xor(&tab[1], a), c & 2 == 2);
        *o = xor(&h, &xor(&wg, &we));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn eval_with<const L: usize>(
    a: &[Label<L>],
    b: &[Label<L>],
    ca: impl Fn(usize) -> Block,
    cb: impl Fn(usize) -> Block,
    tables: &[Label<L>],
    compress: &Compress,
    tweak_offset: u64,
    index: impl Fn(usize) -> u64,
    out: &mut [Label<L>],
    scratch: &mut WideScratch,
) -> Result<()> {
    let n = a.len();
    if tables.len() != 2 * n {
        return Err(Error::malformed(format!(
            "{} long-label table rows for {n} AND gates",
            tables.len()
        )));
    }
    if b.len() != n || out.len() != n || 16 * L != compress.cols() {
        return Err(Error::config("eval_batch: mismatched lengths"));
    }
    let (u, v, bases) = scratch.prepare(2 * n, 2 * L * n);
    for (i, ug) in u.chunks_exact_mut(2).enumerate() {
        ug.copy_from_slice(&[ca(i), cb(i)]);
    }
    hash::<L>(u, v, bases, 2, tweak_offset, index);
    for ((hg, (x, y)), (o, tab)) in v
        .chunks_exact(2 * L)
        .zip(a.iter().zip(b))
        .zip(out.iter_mut().zip(tables.chunks_exact(2)))
    {
        let (ha, hb): (Label<L>, Label<L>) = (as_label(&hg[..L]), as_label(&hg[L..]));
        let wg = xor(&ha, &and_bit(&tab[0], lsb(x)));
        let we = xor(&hb, &and_bit(&xor(&tab[1], x), lsb(y)));
        *o = xor(&wg, &we);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::random_label;
    use super::*;
    use brickyard_core::hash::tccr;
    use brickyard_core::prg::Prg;

    /// `H` by its definition: `tccr(Compress(X), τ(j, h, k))` per block.
    fn h_ref<const L: usize>(c: &Compress, x: &Label<L>, off: u64, j: u64, h: u64) -> Label<L> {
        let cx = c.apply_reference(x);
        std::array::from_fn(|k| tccr(cx, wide_tweak(L, off, j, h, k as u64)))
    }

    fn equations_match_the_definition<const L: usize>(seed: u128) {
        let mut prg = Prg::from_seed(Block(seed));
        let c = Compress::sample(&mut prg, 16 * L);
        let delta = WideDelta::<L>::random(&mut prg);
        let d = *delta.label();
        let n = 37;
        let a0: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let b0: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let (mut out0, mut tables) = (vec![[Block::ZERO; L]; n], vec![[Block::ZERO; L]; 2 * n]);
        let mut s = WideScratch::new();
        garble_batch(&a0, &b0, &delta, &c, 5, 70, &mut out0, &mut tables, &mut s).unwrap();
        for g in 0..n {
            let j = 70 + g as u64;
            let (a, b) = (a0[g], b0[g]);
            let ha0 = h_ref(&c, &a, 5, j, 0);
            let ha1 = h_ref(&c, &xor(&a, &d), 5, j, 0);
            let hb0 = h_ref(&c, &b, 5, j, 1);
            let hb1 = h_ref(&c, &xor(&b, &d), 5, j, 1);
            let tg = xor(&xor(&ha0, &ha1), &and_bit(&d, lsb(&b)));
            let te = xor(&xor(&hb0, &hb1), &a);
            assert_eq!([tables[2 * g], tables[2 * g + 1]], [tg, te], "gate {g}");
            // Every input combination decodes to AND.
            for x in [false, true] {
                for y in [false, true] {
                    let (la, lb) = (xor(&a, &and_bit(&d, x)), xor(&b, &and_bit(&d, y)));
                    let mut o = [[Block::ZERO; L]];
                    eval_batch(
                        &[la],
                        &[lb],
                        &tables[2 * g..2 * g + 2],
                        &c,
                        5,
                        j,
                        &mut o,
                        &mut s,
                    )
                    .unwrap();
                    assert_eq!(o[0], xor(&out0[g], &and_bit(&d, x && y)), "gate {g} {x}{y}");
                }
            }
        }
        // The batch evaluator agrees with the single-gate one; another
        // index (tweak) or compression matrix breaks evaluation.
        let mut out = vec![[Block::ZERO; L]; n];
        eval_batch(&a0, &b0, &tables, &c, 5, 70, &mut out, &mut s).unwrap();
        assert_eq!(out, out0);
        eval_batch(&a0, &b0, &tables, &c, 5, 71, &mut out, &mut s).unwrap();
        assert!(out.iter().zip(&out0).all(|(x, y)| x != y));
        let c2 = Compress::sample(&mut prg, 16 * L);
        eval_batch(&a0, &b0, &tables, &c2, 5, 70, &mut out, &mut s).unwrap();
        assert!(out.iter().zip(&out0).all(|(x, y)| x != y));
        assert!(matches!(
            eval_batch(&a0, &b0, &tables[1..], &c, 5, 70, &mut out, &mut s),
            Err(Error::Malformed(_))
        ));
        // Gates taken out of order with their own indices (as JIMU's
        // buckets are) evaluate as in the batch; a wrong index does not.
        let order: Vec<usize> = (0..n).rev().step_by(2).chain((0..n).step_by(3)).collect();
        let pick = |v: &[Label<L>]| order.iter().map(|&g| v[g]).collect::<Vec<_>>();
        let (pa, pb) = (pick(&a0), pick(&b0));
        let ca: Vec<Block> = pa.iter().map(|x| c.apply(x)).collect();
        let cb: Vec<Block> = pb.iter().map(|x| c.apply(x)).collect();
        let pt: Vec<Label<L>> = order
            .iter()
            .flat_map(|&g| [tables[2 * g], tables[2 * g + 1]])
            .collect();
        let mut idx: Vec<u64> = order.iter().map(|&g| 70 + g as u64).collect();
        let mut po = vec![[Block::ZERO; L]; order.len()];
        eval_batch_compressed_at(&pa, &pb, &ca, &cb, &pt, &c, 5, &idx, &mut po, &mut s).unwrap();
        assert_eq!(po, pick(&out0));
        idx[0] += 1;
        eval_batch_compressed_at(&pa, &pb, &ca, &cb, &pt, &c, 5, &idx, &mut po, &mut s).unwrap();
        assert_ne!(po[0], out0[order[0]]);
        assert_eq!(po[1..], pick(&out0)[1..]);
    }

    /// The soldered evaluation with folded tables gives the unfolded
    /// evaluation of the soldered inputs, XOR δ_o, for every gate of
    /// groups that share a left label; a changed δ_l (in the compression
    /// or the colour) changes the output.
    fn soldered_matches_unfolded<const L: usize>(seed: u128) {
        let mut prg = Prg::from_seed(Block(seed));
        let c = Compress::sample(&mut prg, 16 * L);
        let delta = WideDelta::<L>::random(&mut prg);
        let (group, groups) = (5, 9);
        let n = group * groups;
        let a0: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let b0: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let (mut out0, mut tables) = (vec![[Block::ZERO; L]; n], vec![[Block::ZERO; L]; 2 * n]);
        let mut s = WideScratch::new();
        garble_batch(&a0, &b0, &delta, &c, 5, 70, &mut out0, &mut tables, &mut s).unwrap();
        let idx: Vec<u64> = (0..n as u64).map(|g| 70 + g).collect();
        // Wire labels, one left label per group, and solderings.
        let left: Vec<Label<L>> = (0..groups).map(|_| random_label(&mut prg)).collect();
        let b: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let dl: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let dr: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let dout: Vec<Label<L>> = (0..n).map(|_| random_label(&mut prg)).collect();
        let sa: Vec<Label<L>> = (0..n).map(|g| xor(&left[g / group], &dl[g])).collect();
        let sb: Vec<Label<L>> = (0..n).map(|g| xor(&b[g], &dr[g])).collect();
        let (ca, cb): (Vec<Block>, Vec<Block>) = (
            sa.iter().map(|x| c.apply(x)).collect(),
            sb.iter().map(|x| c.apply(x)).collect(),
        );
        let mut want = vec![[Block::ZERO; L]; n];
        eval_batch_compressed_at(&sa, &sb, &ca, &cb, &tables, &c, 5, &idx, &mut want, &mut s)
            .unwrap();
        let u: Vec<Block> = ca.iter().zip(&cb).flat_map(|(&x, &y)| [x, y]).collect();
        let colours: Vec<u8> = (0..n)
            .map(|g| lsb(&sa[g]) as u8 | (lsb(&sb[g]) as u8) << 1)
            .collect();
        let folded: Vec<Label<L>> = (0..n)
            .flat_map(|g| [tables[2 * g], xor(&tables[2 * g + 1], &dl[g])])
            .collect();
        let mut got = vec![[Block::ZERO; L]; n];
        eval_soldered_at(
            &u, &colours, &left, group, &folded, &dout, 5, &idx, &mut got, &mut s,
        )
        .unwrap();
        for g in 0..n {
            assert_eq!(got[g], xor(&want[g], &dout[g]), "gate {g}");
        }
        let mut flipped = colours.clone();
        flipped[7] ^= 2;
        eval_soldered_at(
            &u, &flipped, &left, group, &folded, &dout, 5, &idx, &mut got, &mut s,
        )
        .unwrap();
        assert_ne!(got[7], xor(&want[7], &dout[7]));
        assert_eq!(got[8], xor(&want[8], &dout[8]));
        assert!(matches!(
            eval_soldered_at(
                &u,
                &colours,
                &left,
                group,
                &folded[1..],
                &dout,
                5,
                &idx,
                &mut got,
                &mut s,
            ),
            Err(Error::Malformed(_))
        ));
        assert!(eval_soldered_at(
            &u,
            &colours,
            &left[1..],
            group,
            &folded,
            &dout,
            5,
            &idx,
            &mut got,
            &mut s,
        )
        .is_err());
    }

    #[test]
    fn soldered_matches_unfolded_256() {
        soldered_matches_unfolded::<2>(13);
    }

    #[test]
    fn soldered_matches_unfolded_384() {
        soldered_matches_unfolded::<3>(14);
    }

    #[test]
    fn equations_match_the_definition_256() {
        equations_match_the_definition::<2>(11);
    }

    #[test]
    fn equations_match_the_definition_384() {
        equations_match_the_definition::<3>(12);
    }
}
