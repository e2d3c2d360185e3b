//! VAES-512 kernels. Four gates share a ZMM register (one 128-bit lane
//! each); the garbler keeps 2 groups × 4 hash inputs = 8 ZMM states in
//! flight, the evaluator 4 groups × 2.

use super::{and_tweak, AndBytes, SlotProgram, StageFolds, StageLanes, EVAL_MIN_SPACING};
use crate::aes::ni::RoundKeys;
use crate::Block;
use std::arch::asm;
use std::arch::x86_64::*;

#[inline]
#[target_feature(enable = "sse2")]
fn ld(b: Block) -> __m128i {
    bytemuck::cast(b)
}

/// Four labels `w[idx[k]]` into the lanes of one register.
///
/// # Safety
/// Every `idx[k] < w.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather(w: &[Block], idx: [u32; 4]) -> __m512i {
    let base = w.as_ptr().cast::<__m128i>();
    // SAFETY: the caller guarantees the indices are in bounds. One
    // 16-byte vector load per label (a `u128` read may be split into
    // two 8-byte loads, which defeats store forwarding from `scatter`).
    let l = |i: u32| unsafe { _mm_loadu_si128(base.add(i as usize)) };
    let v = _mm512_castsi128_si512(l(idx[0]));
    let v = _mm512_inserti32x4::<1>(v, l(idx[1]));
    let v = _mm512_inserti32x4::<2>(v, l(idx[2]));
    _mm512_inserti32x4::<3>(v, l(idx[3]))
}

/// Four labels at byte offsets `off[k]` of `w` into the lanes of one
/// register (the AND records' form, [`AndBytes`]: no shift per lane).
///
/// # Safety
/// Every `off[k]` is a multiple of 16 with `off[k] / 16 < w.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather_at(w: &[Block], off: [u32; 4]) -> __m512i {
    let bytes = w.as_ptr().cast::<u8>();
    // SAFETY: the caller guarantees the offsets address blocks of `w`;
    // one 16-byte vector load per label, as in `gather`.
    let l = |o: u32| unsafe { _mm_loadu_si128(bytes.add(o as usize).cast::<__m128i>()) };
    let v = _mm512_castsi128_si512(l(off[0]));
    let v = _mm512_inserti32x4::<1>(v, l(off[1]));
    let v = _mm512_inserti32x4::<2>(v, l(off[2]));
    _mm512_inserti32x4::<3>(v, l(off[3]))
}

/// Input `half` (0: `a`, 1: `b`) of a group's four gates: their slots'
/// labels, XORed with their folded slots' (`F`, see
/// [`super::SlotProgram::with_folds`]) in the register.
///
/// # Safety
/// Every byte offset of `l` and, if `F`, of `f` addresses a block of `w`.
#[inline(always)]
unsafe fn gather_in<const F: bool>(
    w: &[Block],
    l: &[AndBytes; 4],
    f: &[[u32; 2]; 4],
    half: usize,
) -> __m512i {
    let idx = l.map(|s| if half == 0 { s.a } else { s.b });
    // SAFETY: forwarded from the caller.
    unsafe {
        if F {
            gather_folded(w, idx, f.map(|p| p[half]))
        } else {
            gather_at(w, idx)
        }
    }
}

/// The fold records of a group in four lanes (padding as [`lanes`]),
/// or zeros (unread) without folds.
#[inline(always)]
fn fold_lanes<const F: bool>(fs: &[[u32; 2]]) -> [[u32; 2]; 4] {
    if F {
        lanes(fs)
    } else {
        [[0; 2]; 4]
    }
}

/// The first four records of `gs` (at least four) as a group's lanes.
#[inline(always)]
fn quad<T>(gs: &[T]) -> &[T; 4] {
    gs.first_chunk().expect("a full group has four gates")
}

/// The fold lanes of a full group of gates `i..i + 4` (unread
/// [`NO_FOLDS`] without folds).
#[inline(always)]
fn fold_quad<const F: bool>(folds: &[[u32; 2]], i: usize) -> &[[u32; 2]; 4] {
    if F {
        quad(&folds[i..])
    } else {
        &NO_FOLDS
    }
}

/// Four labels `w[idx[k] / 16] ⊕ w[off[k] / 16]` (both byte offsets)
/// into the lanes of one
/// register: each lane's XOR is one 16-byte `vpxor` with a memory
/// operand before its insert, so a fold costs a load and an XOR per
/// lane and no second round of lane inserts (on the shuffle port).
///
/// # Safety
/// `idx[k]` and `off[k]` are multiples of 16 with `idx[k] / 16 <
/// w.len()` and `off[k] / 16 < w.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather_folded(w: &[Block], idx: [u32; 4], off: [u32; 4]) -> __m512i {
    let bytes = w.as_ptr().cast::<u8>();
    // SAFETY: the caller guarantees both addresses are blocks of `w`.
    let l = |k: usize| unsafe {
        _mm_xor_si128(
            _mm_loadu_si128(bytes.add(idx[k] as usize).cast::<__m128i>()),
            _mm_loadu_si128(bytes.add(off[k] as usize).cast::<__m128i>()),
        )
    };
    let v = _mm512_castsi128_si512(l(0));
    let v = _mm512_inserti32x4::<1>(v, l(1));
    let v = _mm512_inserti32x4::<2>(v, l(2));
    _mm512_inserti32x4::<3>(v, l(3))
}

/// Writes the first `n` lanes of `v` to `w[idx[k]]`.
///
/// # Safety
/// Every `idx[k] < w.len()` for `k < n`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn scatter(w: &mut [Block], idx: [u32; 4], n: usize, v: __m512i) {
    let lanes = [
        _mm512_castsi512_si128(v),
        _mm512_extracti32x4_epi32::<1>(v),
        _mm512_extracti32x4_epi32::<2>(v),
        _mm512_extracti32x4_epi32::<3>(v),
    ];
    let base = w.as_mut_ptr().cast::<__m128i>();
    for k in 0..n {
        // SAFETY: the caller guarantees the indices are in bounds. A
        // single 16-byte store, so a later 16-byte load of the same
        // label (the π cache reads what the π jobs just wrote) is
        // forwarded from the store buffer instead of stalling.
        unsafe { _mm_storeu_si128(base.add(idx[k] as usize), lanes[k]) };
    }
}

/// Writes the four lanes of `v` to the blocks at byte offsets `off[k]`
/// of `w`, last lane first: a group's padding lanes repeat its last
/// gate (see [`lanes`]), so the real lane's label is the one left in
/// the slot, and the store count is a constant (a loop over a group's
/// `n` gates compiled to a branch per lane, which mispredicts as stage
/// sizes vary). Distinct gates of a group have distinct output slots
/// (`SlotProgram::with_stages` refuses stages where they are not).
///
/// # Safety
/// Every `off[k]` is a multiple of 16 with `off[k] / 16 < w.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn scatter_rev(w: &mut [Block], off: [u32; 4], v: __m512i) {
    let bytes = w.as_mut_ptr().cast::<u8>();
    // SAFETY: the caller guarantees the offsets address blocks of `w`;
    // one 16-byte store each, as in `scatter`.
    unsafe {
        let at = |k: usize| bytes.add(off[k] as usize).cast::<__m128i>();
        _mm_storeu_si128(at(3), _mm512_extracti32x4_epi32::<3>(v));
        _mm_storeu_si128(at(2), _mm512_extracti32x4_epi32::<2>(v));
        _mm_storeu_si128(at(1), _mm512_extracti32x4_epi32::<1>(v));
        _mm_storeu_si128(at(0), _mm512_castsi512_si128(v));
    }
}

/// No folds: what the fold arguments of the kernels point to without them.
const NO_FOLDS: [[u32; 2]; 4] = [[0; 2]; 4];

/// Mask of the 64-bit elements of the lanes whose label has lsb 1.
#[inline]
#[target_feature(enable = "avx512f")]
fn colour(x: __m512i) -> __mmask8 {
    let k = _mm512_test_epi64_mask(x, _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1));
    k | (k << 1)
}

/// The gates of a group (1..=4) in four lanes: padding lanes repeat
/// the last gate, so they read valid slots (their results are dropped,
/// see [`scatter_rev`]).
#[inline(always)]
pub(super) fn lanes<T: Copy>(gs: &[T]) -> [T; 4] {
    let n = gs.len();
    debug_assert!((1..=4).contains(&n));
    // SAFETY: `i.min(n - 1) < n` for the non-empty groups callers pass.
    std::array::from_fn(|i| unsafe { *gs.get_unchecked(i.min(n - 1)) })
}

/// Lane masks from the polarity bits of a group's gates (bit 0 for
/// input `a`, bit 1 for `b`), computed in one vector register: the
/// group's four 16-byte `AndBytes` lane records (padded, see
/// [`lanes`]) are one ZMM load, `flip` being the top dword of each
/// lane; one `vpshufd` copies it into every dword, so each `vptestmq`
/// sets both qwords of a flipped lane and the masks need no shift and
/// `or` through general registers. (A scalar loop over the gates
/// compiled to a few dozen shuffles per group, on the ports VAES
/// needs.)
#[inline]
#[target_feature(enable = "avx512f")]
fn flip_masks(l: &[AndBytes; 4]) -> (__mmask8, __mmask8) {
    // SAFETY: `l` is 64 readable bytes.
    let v = unsafe { _mm512_loadu_si512(l.as_ptr().cast()) };
    let f = _mm512_shuffle_epi32::<0xFF>(v);
    let ka = _mm512_test_epi64_mask(f, _mm512_set1_epi64(1));
    let kb = _mm512_test_epi64_mask(f, _mm512_set1_epi64(2));
    (ka, kb)
}

/// Mask of the first `n` gates' table blocks among the 8 qwords of
/// each of the two table registers (`lo` holds gates 0-1, `hi` 2-3).
#[inline]
fn table_masks(n: usize) -> (__mmask8, __mmask8) {
    let q = 4 * n as u32;
    let m = |k: u32| ((1u32 << k.min(8)) - 1) as u8;
    (m(q), m(q.saturating_sub(8)))
}

/// The fixed-key AES over `N` ZMM states (4 blocks each), round keys in
/// registers; also LEGO's soldered-gate kernel's.
#[inline]
#[target_feature(enable = "avx512f,vaes")]
pub(crate) fn aes_rounds<const N: usize>(k: &[__m512i; 11], v: &mut [__m512i; N]) {
    for x in v.iter_mut() {
        *x = _mm512_xor_si512(*x, k[0]);
    }
    for rk in &k[1..10] {
        for x in v.iter_mut() {
            *x = _mm512_aesenc_epi128(*x, *rk);
        }
    }
    for x in v.iter_mut() {
        *x = _mm512_aesenclast_epi128(*x, k[10]);
    }
}

/// The stage loops' spacing for a group without feed: the written-out
/// rounds of [`aes_rounds_fed`] with no gate between them (any spacing
/// past 10 takes none). Not 0 (plain [`aes_rounds`]), which the batch
/// kernels (`garble_any`, `eval_any`) use: an instance with two callers
/// was called out of line once per stage, its arguments through memory
/// (`garble_floor` 8-AND evaluator stages without XORs 3.8 ns/AND against
/// 3.4 inlined).
const NO_FEED: usize = 11;

/// Gates a group's kernel takes from its feed at spacing `e`
/// ([`aes_rounds_fed`] runs `10 / e` per AES pass; the garbler's and
/// the evaluator's groups both make two passes).
pub(super) const fn fed_gates(e: usize) -> usize {
    match e {
        0 => 0,
        e => 2 * (10 / e),
    }
}

/// XOR gates handed to an AES loop a few per round (see
/// [`aes_rounds_fed`]): the gates of the next stage, which the plan
/// guarantees neither read nor write the slots of the group being
/// hashed.
pub(super) struct Feed {
    next: *const [u32; 4],
    end: *const [u32; 4],
}

impl Feed {
    /// A feed of `gates` (validated byte offsets).
    #[inline]
    pub(super) fn new(gates: &[[u32; 4]]) -> Feed {
        let r = gates.as_ptr_range();
        Feed {
            next: r.start,
            end: r.end,
        }
    }

    /// A feed without gates, for kernels that run none.
    #[inline]
    pub(super) fn empty() -> Feed {
        Feed::new(&[])
    }

    /// Gates not yet run.
    #[inline]
    pub(super) fn left(&self) -> usize {
        (self.end as usize).saturating_sub(self.next as usize) / 16
    }

    /// Runs the next gate on the label vector at `w`. Inline assembly
    /// so that the compiler keeps it where it is put between the AES
    /// rounds (it otherwise reorders the loads, stores and rounds into
    /// blocks, which fills the scheduler with waiting AES and stalls
    /// the XORs behind it). No check for the end: the stage loops feed
    /// a group only a feed holding the [`fed_gates`] it takes.
    ///
    /// # Safety
    /// A gate is left (`next < end`); `w` points to a label vector of
    /// which every byte offset of the feed's gates addresses a whole
    /// block, and the gates' slice is alive. Inlined only into
    /// functions with AVX enabled (the VEX forms, which do not mix
    /// legacy SSE into AVX-512 code).
    #[inline(always)]
    unsafe fn one(&mut self, w: *mut Block) {
        debug_assert!(self.next < self.end, "feed ran past its gates");
        // SAFETY: `next` is a gate of the slice (by the caller); its
        // offsets address blocks of `w` (by the caller); labels are
        // 16-byte aligned (`Block` is, and offsets are multiples of 16),
        // as `vmovdqa` and the folded loads need.
        unsafe {
            asm!(
                "mov {a:e}, dword ptr [{next}]",
                "mov {b:e}, dword ptr [{next} + 4]",
                "mov {c:e}, dword ptr [{next} + 8]",
                "vmovdqa {x}, xmmword ptr [{w} + {a}]",
                "vpxor {x}, {x}, xmmword ptr [{w} + {b}]",
                "mov {a:e}, dword ptr [{next} + 12]",
                "vpxor {x}, {x}, xmmword ptr [{w} + {c}]",
                "vmovdqa xmmword ptr [{w} + {a}], {x}",
                "add {next}, 16",
                next = inout(reg) self.next,
                w = in(reg) w,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                x = out(xmm_reg) _,
                options(nostack),
            );
        }
    }
}

/// Rounds `$r…` of [`aes_rounds_fed`], written out one by one: as a
/// `for` loop over the round keys, the compiler kept a loop for
/// feeds after every second or fifth round (a counter, a compare, a
/// parity test and two branches per round, ~100 scalar instructions
/// per group on the ports VAES shares, and the key reloaded by index).
macro_rules! aes_rounds_fed_at {
    ($k:ident, $v:ident, $f:ident, $w:ident, $E:expr, $($r:literal)*) => {{
        $(
            for x in $v.iter_mut() {
                asm!("vaesenc {0}, {0}, {1}", inout(zmm_reg) *x, in(zmm_reg) $k[$r],
                    options(nomem, nostack, preserves_flags));
            }
            if $r % $E == 0 {
                $f.one($w);
            }
        )*
    }};
}

/// [`aes_rounds`] over the states `$v`, running one gate of the feed
/// `$f` (on the label vector at `$w`) after every `$E`-th round (rounds
/// 1..=10; none if `$E == 0`): `10 / $E` gates per pass. The rounds
/// are inline assembly too, so the compiler keeps the interleave (it
/// otherwise moves the rounds of one state together, away from the
/// gates). A macro, not a function: a function holding that many
/// assembly blocks is not inlined, and its states then live in memory.
/// Expands to unsafe code: the caller states the safety of
/// [`Feed::one`] and has VAES-512 enabled.
macro_rules! aes_rounds_fed {
    ($k:expr, $v:expr, $f:expr, $w:expr, $E:expr) => {{
        // `f`: a `Feed` or a `pair::PairFeed` (both have `one`).
        let (k, v, w): (&[__m512i; 11], &mut [__m512i; _], *mut Block) = ($k, $v, $w);
        let f = &mut *$f;
        if $E == 0 {
            aes_rounds(k, v);
        } else {
            for x in v.iter_mut() {
                *x = _mm512_xor_si512(*x, k[0]);
            }
            aes_rounds_fed_at!(k, v, f, w, $E, 1 2 3 4 5 6 7 8 9);
            for x in v.iter_mut() {
                asm!("vaesenclast {0}, {0}, {1}", inout(zmm_reg) *x, in(zmm_reg) k[10],
                    options(nomem, nostack, preserves_flags));
            }
            if 10 % $E == 0 {
                f.one(w);
            }
        }
    }};
}

/// Tweaks `[offset, 2(j+i)]` of gates `j..j+4` in the four lanes.
#[inline]
#[target_feature(enable = "avx512f")]
fn tweaks4(tweak_offset: u64, j: u64) -> __m512i {
    let base = and_tweak(tweak_offset, j);
    let b = _mm512_broadcast_i32x4(ld(base));
    _mm512_add_epi64(b, _mm512_set_epi64(0, 6, 0, 4, 0, 2, 0, 0))
}

#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn keys(rk: &RoundKeys) -> [__m512i; 11] {
    std::array::from_fn(|i| _mm512_broadcast_i32x4(ld(rk[i])))
}

/// `b` in all four lanes.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn broadcast(b: Block) -> __m512i {
    _mm512_broadcast_i32x4(ld(b))
}

#[inline]
#[target_feature(enable = "avx512f")]
fn one_lo() -> __m512i {
    _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1)
}

/// Garbles `G` groups of 4 gates: `l[g]` the lanes of group `g` (see
/// [`lanes`]), `n[g]` its real gates (1..=4), the rest padding whose
/// results are dropped; `fl[g]` its fold lanes (read only if `F`).
///
/// # Safety
/// Byte offsets of `l` (and of `fl` if `F`) address blocks of `w`;
/// `tables` holds `2 · Σ n` blocks.
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn garble_groups<
    const G: usize,
    const S: usize,
    const C: bool,
    const F: bool,
    const E: usize,
>(
    k: &[__m512i; 11],
    w: &mut [Block],
    p: &[Block],
    l: [&[AndBytes; 4]; G],
    n: [usize; G],
    pgroups: [&[[u32; 4]]; G],
    fl: [&[[u32; 2]; 4]; G],
    delta: __m512i,
    tweak_offset: u64,
    first: u64,
    tables: &mut [Block],
    f: &mut Feed,
) {
    debug_assert_eq!(S, 4 * G);
    let mut a0 = [_mm512_setzero_si512(); G];
    let mut b0 = [_mm512_setzero_si512(); G];
    let mut x = [_mm512_setzero_si512(); S];
    for (g, gl) in l.iter().enumerate() {
        // SAFETY: indices (folds too) checked by the caller.
        let a = unsafe { gather_in::<F>(w, gl, fl[g], 0) };
        let b = unsafe { gather_in::<F>(w, gl, fl[g], 1) };
        let (fa, fb) = flip_masks(gl);
        a0[g] = _mm512_mask_xor_epi64(a, fa, a, delta);
        b0[g] = _mm512_mask_xor_epi64(b, fb, b, delta);
        if C {
            // π(A₀), π(A₀ ⊕ Δ), π(B₀), π(B₀ ⊕ Δ): indices precomputed.
            let ps = pgroups[g];
            let n = ps.len();
            // SAFETY: `ps` is not empty (a group has 1..=4 gates).
            let q: [[u32; 4]; 4] =
                std::array::from_fn(|i| unsafe { *ps.get_unchecked(i.min(n - 1)) });
            let pidx = |k: usize| -> [u32; 4] { [q[0][k], q[1][k], q[2][k], q[3][k]] };
            // SAFETY: π indices checked by the caller.
            unsafe {
                x[4 * g] = gather(p, pidx(0));
                x[4 * g + 1] = gather(p, pidx(1));
                x[4 * g + 2] = gather(p, pidx(2));
                x[4 * g + 3] = gather(p, pidx(3));
            }
        } else {
            x[4 * g] = a0[g];
            x[4 * g + 1] = _mm512_xor_si512(a0[g], delta);
            x[4 * g + 2] = b0[g];
            x[4 * g + 3] = _mm512_xor_si512(b0[g], delta);
        }
    }
    if !C {
        // SAFETY: the caller's feed contract (its gates address `w`).
        unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
    }
    let u = x;
    let mut at = 0u64;
    for g in 0..G {
        let ta = tweaks4(tweak_offset, first + at);
        let tb = _mm512_xor_si512(ta, one_lo());
        x[4 * g] = _mm512_xor_si512(u[4 * g], ta);
        x[4 * g + 1] = _mm512_xor_si512(u[4 * g + 1], ta);
        x[4 * g + 2] = _mm512_xor_si512(u[4 * g + 2], tb);
        x[4 * g + 3] = _mm512_xor_si512(u[4 * g + 3], tb);
        at += n[g] as u64;
    }
    // SAFETY: the caller's feed contract (its gates address `w`).
    unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
    let mut t_at = 0;
    for g in 0..G {
        let h: [__m512i; 4] = std::array::from_fn(|q| _mm512_xor_si512(u[4 * g + q], x[4 * g + q]));
        let (pa, pb) = (colour(a0[g]), colour(b0[g]));
        let tg = _mm512_xor_si512(h[0], h[1]);
        let tg = _mm512_mask_xor_epi64(tg, pb, tg, delta);
        let wg = _mm512_mask_xor_epi64(h[0], pa, h[0], tg);
        let hb = _mm512_xor_si512(h[2], h[3]);
        let te = _mm512_xor_si512(hb, a0[g]);
        let we = _mm512_mask_xor_epi64(h[2], pb, h[2], hb);
        let c = _mm512_xor_si512(wg, we);
        // [T_G, T_E] per gate: interleave the lanes of tg and te.
        let lo = _mm512_permutex2var_epi64(tg, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), te);
        let hi = _mm512_permutex2var_epi64(tg, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), te);
        let n = n[g];
        // Straight from registers to the table (public: it is sent to
        // the evaluator, so no copy on the stack to wipe), masked for a
        // short group so nothing past its blocks is touched.
        let t = &mut tables[t_at..t_at + 2 * n];
        let (mlo, mhi) = table_masks(n);
        // SAFETY: masked-off qwords are neither read nor written, so
        // only the `2n` blocks of `t` are stored to; `hi` starts 4
        // blocks in (its mask is 0 unless `n > 2`; the address is then
        // only computed, with `wrapping_add`, never accessed).
        unsafe {
            let p = t.as_mut_ptr().cast::<i64>();
            _mm512_mask_storeu_epi64(p, mlo, lo);
            _mm512_mask_storeu_epi64(p.wrapping_add(8), mhi, hi);
        }
        t_at += 2 * n;
        // SAFETY: indices checked by the caller; padding lanes repeat
        // the last gate.
        unsafe { scatter_rev(w, l[g].map(|s| s.out), c) };
    }
}

/// The feed spacing for a stage of `n` XOR gates: a gate after every
/// round (20 per group: the garbler's two passes), every second round
/// (10) or every fifth (4), the most that `n` fills (an idle gate would
/// cost as much as a real one); 0: no feed.
#[inline]
pub(super) fn spacing(n: usize) -> usize {
    match n {
        20.. => 1,
        10.. => 2,
        4.. => 5,
        _ => 0,
    }
}

/// `e` if a feed of `n` gates holds the [`fed_gates`]`(e)` a group
/// takes at that spacing (what [`Feed::one`]'s safety rests on), else 0.
#[inline]
fn checked(e: usize, n: usize) -> usize {
    if fed_gates(e) <= n {
        e
    } else {
        0
    }
}

/// Garbles one stage's AND gates `gates` (1..=8: the lanes `lanes`,
/// precomputed in [`SlotProgram`]; `fl` their folds) with a gate of `f`
/// run after every `E`-th AES round ([`aes_rounds_fed`], none if `E ==
/// 0`); a stage of more than 8 gates runs without feed.
///
/// # Safety
/// As [`garble`]; `lanes` and `fl` are the stage's lanes (their offsets
/// address `w`); `f` holds at least [`fed_gates`]`(E)` gates whose
/// offsets address `w` (see [`Feed::one`]).
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn garble_fed<const F: bool, const E: usize>(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    lanes: &StageLanes,
    fl: &StageFolds,
    d: __m512i,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
    f: &mut Feed,
) {
    let n = gates.len();
    // SAFETY: forwarded from the caller.
    unsafe {
        match n {
            0 => {}
            1..=4 => garble_groups::<1, 4, false, F, E>(
                k,
                w,
                &[],
                [&lanes[0]],
                [n],
                [&[]],
                [&fl[0]],
                d,
                tweak_offset,
                first_and,
                tables,
                f,
            ),
            5..=8 => garble_groups::<2, 8, false, F, E>(
                k,
                w,
                &[],
                [&lanes[0], &lanes[1]],
                [4, n - 4],
                [&[], &[]],
                [&fl[0], &fl[1]],
                d,
                tweak_offset,
                first_and,
                tables,
                f,
            ),
            _ => garble_big(k, w, gates, folds, d, tweak_offset, first_and, tables),
        }
    }
}

/// [`garble_with`] kept out of line, for the stage loops' stages of
/// more than 8 ANDs (the plan makes none): inlined, its kernels would
/// grow the loop's hot code.
///
/// # Safety
/// As [`garble`].
#[inline(never)]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn garble_big(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    d: __m512i,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    // SAFETY: forwarded from the caller.
    unsafe { garble_with(k, w, gates, folds, d, tweak_offset, first_and, tables) }
}

/// The evaluator's [`garble_fed`].
///
/// # Safety
/// As [`garble_fed`].
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn eval_fed<const F: bool, const E: usize>(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    lanes: &StageLanes,
    fl: &StageFolds,
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
    f: &mut Feed,
) {
    let n = gates.len();
    // SAFETY: forwarded from the caller.
    unsafe {
        match n {
            0 => {}
            1..=4 => eval_groups::<1, 2, false, F, E>(
                k,
                w,
                &[],
                [&lanes[0]],
                [n],
                [&[]],
                [&fl[0]],
                tables,
                tweak_offset,
                first_and,
                f,
            ),
            5..=8 => eval_groups::<2, 4, false, F, E>(
                k,
                w,
                &[],
                [&lanes[0], &lanes[1]],
                [4, n - 4],
                [&[], &[]],
                [&fl[0], &fl[1]],
                tables,
                tweak_offset,
                first_and,
                f,
            ),
            _ => eval_big(k, w, gates, folds, tables, tweak_offset, first_and),
        }
    }
}

/// [`eval_with`] out of line (see [`garble_big`]).
///
/// # Safety
/// As [`garble`].
#[inline(never)]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
unsafe fn eval_big(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    // SAFETY: forwarded from the caller.
    unsafe { eval_with(k, w, gates, folds, tables, tweak_offset, first_and) }
}

/// The VAES path of [`super::SlotProgram::garble_stages`]: the whole
/// stage loop in one function with VAES enabled, so that the kernels
/// inline into it and the round keys stay in registers across stages
/// (called per stage from code without AVX-512, as at first, the
/// garbler lost ~1.5 ns per AND: `garble_floor`, one call over all
/// ANDs 6.8 against 8.5 with a call per 8-gate stage).
///
/// # Safety
/// VAES, AVX-512F and AES-NI are available; `w.len() >= prog.bound`;
/// `range` is a range of stages and `tables` as long as their ANDs'
/// tables.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) unsafe fn garble_stages(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    delta: Block,
    tweak_offset: u64,
    tables: &mut [Block],
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if prog.stages_fold(range.clone()) {
            garble_stages_with::<true>(prog, rk, w, range, delta, tweak_offset, tables)
        } else {
            garble_stages_with::<false>(prog, rk, w, range, delta, tweak_offset, tables)
        }
    }
}

/// [`garble_stages`] with (`F`) or without the folded gathers
/// ([`super::SlotProgram::with_folds`]), chosen per call (a layer
/// piece) rather than per stage: one stage loop per call keeps the hot
/// code as small as without folds (a choice per stage doubled the
/// inlined kernels and measured ~0.5 ns/AND slower on SHA-256).
///
/// # Safety
/// As [`garble_stages`].
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
unsafe fn garble_stages_with<const F: bool>(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    delta: Block,
    tweak_offset: u64,
    tables: &mut [Block],
) {
    let ands = prog.stages_ands(range.clone());
    let mut start = prog.stage_start(range.start);
    let stages = &prog.stages[range.clone()];
    let lanes = &prog.stage_lanes[range.clone()];
    let fold_lanes = if F {
        &prog.stage_fold_lanes[range]
    } else {
        &[][..]
    };
    // SAFETY: forwarded from the caller: slot indices (and the XOR
    // gates' byte offsets) checked in `new` against `prog.bound`, stage
    // ends in `with_stages`, stage lanes copied from checked records
    // (`with_stages`, `with_folds`), table slices cut from a `tables`
    // that fits.
    unsafe {
        let k = keys(rk);
        let d = broadcast(delta);
        if let Some(st) = stages.first() {
            prog.xors.run(w, start[0] as usize..st[0] as usize);
        }
        for (i, (st, l)) in stages.iter().zip(lanes).enumerate() {
            let next = st[0] as usize..stages.get(i + 1).map_or(st[0], |n| n[0]) as usize;
            let (a, e) = (start[1] as usize, st[1] as usize);
            let mut f = Feed::new(prog.xors.offsets(next.clone()));
            // An AND-less stage (SHA-256 has one per layer piece) skips
            // the kernel dispatch: its XORs all run below, unfed.
            if a != e {
                let t = &mut tables[2 * (a - ands.start)..2 * (e - ands.start)];
                let g = &prog.and_bytes[a..e];
                let (fs, fl) = if F {
                    (prog.folds(a..e), &fold_lanes[i])
                } else {
                    (&[][..], &[NO_FOLDS; 2])
                };
                let j = a as u64;
                let (o, t) = (tweak_offset, t);
                match checked(spacing(next.len()), next.len()) {
                    1 => garble_fed::<F, 1>(&k, w, g, fs, l, fl, d, o, j, t, &mut f),
                    2 => garble_fed::<F, 2>(&k, w, g, fs, l, fl, d, o, j, t, &mut f),
                    5 => garble_fed::<F, 5>(&k, w, g, fs, l, fl, d, o, j, t, &mut f),
                    _ => garble_fed::<F, 0>(&k, w, g, fs, l, fl, d, o, j, t, &mut f),
                }
            }
            prog.xors.run(w, next.end - f.left()..next.end);
            start = *st;
        }
    }
}

/// The VAES path of [`super::SlotProgram::eval_stages`] (see
/// [`garble_stages`]).
///
/// # Safety
/// As [`garble_stages`].
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) unsafe fn eval_stages(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    tables: &[Block],
    tweak_offset: u64,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if prog.stages_fold(range.clone()) {
            eval_stages_with::<true>(prog, rk, w, range, tables, tweak_offset)
        } else {
            eval_stages_with::<false>(prog, rk, w, range, tables, tweak_offset)
        }
    }
}

/// [`eval_stages`] with or without folds (see [`garble_stages_with`]).
///
/// # Safety
/// As [`garble_stages`].
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
unsafe fn eval_stages_with<const F: bool>(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    tables: &[Block],
    tweak_offset: u64,
) {
    let ands = prog.stages_ands(range.clone());
    let mut start = prog.stage_start(range.start);
    let stages = &prog.stages[range.clone()];
    let lanes = &prog.stage_lanes[range.clone()];
    let fold_lanes = if F {
        &prog.stage_fold_lanes[range]
    } else {
        &[][..]
    };
    // SAFETY: forwarded from the caller (see `garble_stages_with`).
    unsafe {
        let k = keys(rk);
        if let Some(st) = stages.first() {
            prog.xors.run(w, start[0] as usize..st[0] as usize);
        }
        for (i, (st, l)) in stages.iter().zip(lanes).enumerate() {
            let next = st[0] as usize..stages.get(i + 1).map_or(st[0], |n| n[0]) as usize;
            let (a, e) = (start[1] as usize, st[1] as usize);
            let mut f = Feed::new(prog.xors.offsets(next.clone()));
            // As in `garble_stages_with`.
            if a != e {
                let t = &tables[2 * (a - ands.start)..2 * (e - ands.start)];
                let g = &prog.and_bytes[a..e];
                let (fs, fl) = if F {
                    (prog.folds(a..e), &fold_lanes[i])
                } else {
                    (&[][..], &[NO_FOLDS; 2])
                };
                let j = a as u64;
                let o = tweak_offset;
                // The evaluator feeds at most every second round
                // (`EVAL_MIN_SPACING`), so a gate after every round never occurs.
                let spacing = match spacing(next.len()) {
                    0 => 0,
                    e => checked(e.max(EVAL_MIN_SPACING), next.len()),
                };
                match spacing {
                    2 => eval_fed::<F, 2>(&k, w, g, fs, l, fl, t, o, j, &mut f),
                    5 => eval_fed::<F, 5>(&k, w, g, fs, l, fl, t, o, j, &mut f),
                    _ => eval_fed::<F, NO_FEED>(&k, w, g, fs, l, fl, t, o, j, &mut f),
                }
            }
            prog.xors.run(w, next.end - f.left()..next.end);
            start = *st;
        }
    }
}

/// See [`super::SlotProgram::garble_ands`].
///
/// # Safety
/// VAES, AVX-512F and AES-NI are available; every slot index of `gates`
/// is `< w.len()`; `tables.len() == 2 · gates.len()`.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn garble(
    rk: &RoundKeys,
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    // SAFETY: forwarded; without the cache `p` and the π slots are unused.
    unsafe {
        garble_with(
            &keys(rk),
            w,
            gates,
            folds,
            broadcast(delta),
            tweak_offset,
            first_and,
            tables,
        )
    }
}

/// See [`super::SlotProgram::garble_ands_cached`].
///
/// # Safety
/// As [`garble`], and every π slot `s` of `pis` has `2s + 1 < p.len()`;
/// `pis.len() == gates.len()`.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn garble_cached(
    rk: &RoundKeys,
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 4]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let (k, d) = (keys(rk), broadcast(delta));
    // SAFETY: forwarded from the caller.
    unsafe {
        garble_any::<true, false>(
            &k,
            w,
            p,
            gates,
            pis,
            &[],
            d,
            tweak_offset,
            first_and,
            tables,
        )
    }
}

/// [`garble`] with the round keys and Δ already in registers (the
/// stage loop calls this once per stage).
///
/// # Safety
/// As [`garble`].
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn garble_with(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    d: __m512i,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let (o, j, t) = (tweak_offset, first_and, tables);
    // SAFETY: forwarded; without the cache `p` and the π slots are unused.
    unsafe {
        if folds.is_empty() {
            garble_any::<false, false>(k, w, &[], gates, &[], folds, d, o, j, t)
        } else {
            garble_any::<false, true>(k, w, &[], gates, &[], folds, d, o, j, t)
        }
    }
}

/// # Safety
/// As [`garble_cached`] (π arguments unused unless `C`); if `F`,
/// `folds` is as long as `gates` and its byte offsets address blocks of `w`.
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn garble_any<const C: bool, const F: bool>(
    k: &[__m512i; 11],
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 4]],
    folds: &[[u32; 2]],
    d: __m512i,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let pis_at = |r: std::ops::Range<usize>| if C { &pis[r] } else { &[][..] };
    let mut j = first_and;
    let mut t = 0;
    let n8 = gates.len() / 8 * 8;
    for i in (0..n8).step_by(8) {
        // SAFETY: forwarded from the caller.
        unsafe {
            garble_groups::<2, 8, C, F, 0>(
                k,
                w,
                p,
                [quad(&gates[i..]), quad(&gates[i + 4..])],
                [4, 4],
                [pis_at(i..i + 4), pis_at(i + 4..i + 8)],
                [fold_quad::<F>(folds, i), fold_quad::<F>(folds, i + 4)],
                d,
                tweak_offset,
                j,
                &mut tables[t..t + 16],
                &mut Feed::empty(),
            )
        };
        j += 8;
        t += 16;
    }
    // The remainder in one call, so its AES states are in flight together.
    let r = &gates[n8..];
    let t = &mut tables[t..];
    let m = r.len();
    let h = m.min(4);
    let fr = |a: usize, b: usize| if F { &folds[n8 + a..n8 + b] } else { &[][..] };
    // SAFETY: forwarded from the caller.
    unsafe {
        match m {
            0 => {}
            1..=4 => garble_groups::<1, 4, C, F, 0>(
                k,
                w,
                p,
                [&lanes(r)],
                [m],
                [pis_at(n8..n8 + m)],
                [&fold_lanes::<F>(fr(0, m))],
                d,
                tweak_offset,
                j,
                t,
                &mut Feed::empty(),
            ),
            _ => garble_groups::<2, 8, C, F, 0>(
                k,
                w,
                p,
                [quad(r), &lanes(&r[h..])],
                [4, m - 4],
                [pis_at(n8..n8 + 4), pis_at(n8 + 4..n8 + m)],
                [&fold_lanes::<F>(fr(0, 4)), &fold_lanes::<F>(fr(4, m))],
                d,
                tweak_offset,
                j,
                t,
                &mut Feed::empty(),
            ),
        }
    }
}

/// Evaluates `G` groups of 4 gates (see [`garble_groups`]).
///
/// # Safety
/// As [`garble_groups`].
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn eval_groups<
    const G: usize,
    const S: usize,
    const C: bool,
    const F: bool,
    const E: usize,
>(
    k: &[__m512i; 11],
    w: &mut [Block],
    p: &[Block],
    l: [&[AndBytes; 4]; G],
    n: [usize; G],
    pgroups: [&[[u32; 2]]; G],
    fl: [&[[u32; 2]; 4]; G],
    tables: &[Block],
    tweak_offset: u64,
    first: u64,
    f: &mut Feed,
) {
    debug_assert_eq!(S, 2 * G);
    let mut x = [_mm512_setzero_si512(); S];
    let mut tg = [_mm512_setzero_si512(); G];
    let mut te = [_mm512_setzero_si512(); G];
    let mut t_at = 0;
    for g in 0..G {
        // SAFETY: indices (folds too) checked by the caller.
        x[2 * g] = unsafe { gather_in::<F>(w, l[g], fl[g], 0) };
        x[2 * g + 1] = unsafe { gather_in::<F>(w, l[g], fl[g], 1) };
        let n = n[g];
        let t = &tables[t_at..t_at + 2 * n];
        t_at += 2 * n;
        let (mlo, mhi) = table_masks(n);
        // SAFETY: masked loads read only the `2n` blocks of `t`
        // (masked-off qwords are not accessed and read as zero; `hi`'s
        // address, 4 blocks in, is computed with `wrapping_add` and
        // not accessed unless `n > 2`).
        let (lo, hi) = unsafe {
            let p = t.as_ptr().cast::<i64>();
            (
                _mm512_maskz_loadu_epi64(mlo, p),
                _mm512_maskz_loadu_epi64(mhi, p.wrapping_add(8)),
            )
        };
        tg[g] = _mm512_permutex2var_epi64(lo, _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0), hi);
        te[g] = _mm512_permutex2var_epi64(lo, _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2), hi);
    }
    let held = x;
    if C {
        for (g, ps) in pgroups.iter().enumerate() {
            let n = ps.len();
            // SAFETY: `ps` is not empty (a group has 1..=4 gates).
            let q: [[u32; 2]; 4] =
                std::array::from_fn(|i| unsafe { *ps.get_unchecked(i.min(n - 1)) });
            let pidx = |h: usize| -> [u32; 4] { [q[0][h], q[1][h], q[2][h], q[3][h]] };
            // SAFETY: π indices checked by the caller.
            unsafe {
                x[2 * g] = gather(p, pidx(0));
                x[2 * g + 1] = gather(p, pidx(1));
            }
        }
    } else {
        // SAFETY: the caller's feed contract (its gates address `w`).
        unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
    }
    let u = x;
    let mut at = 0u64;
    for g in 0..G {
        let ta = tweaks4(tweak_offset, first + at);
        x[2 * g] = _mm512_xor_si512(u[2 * g], ta);
        x[2 * g + 1] = _mm512_xor_si512(u[2 * g + 1], _mm512_xor_si512(ta, one_lo()));
        at += n[g] as u64;
    }
    // SAFETY: the caller's feed contract (its gates address `w`).
    unsafe { aes_rounds_fed!(k, &mut x, f, w.as_mut_ptr(), E) };
    for g in 0..G {
        let (a, b) = (held[2 * g], held[2 * g + 1]);
        let ha = _mm512_xor_si512(u[2 * g], x[2 * g]);
        let hb = _mm512_xor_si512(u[2 * g + 1], x[2 * g + 1]);
        let wg = _mm512_mask_xor_epi64(ha, colour(a), ha, tg[g]);
        let we = _mm512_mask_xor_epi64(hb, colour(b), hb, _mm512_xor_si512(te[g], a));
        // SAFETY: indices checked by the caller.
        // SAFETY: indices checked by the caller; padding lanes repeat
        // the last gate.
        unsafe { scatter_rev(w, l[g].map(|s| s.out), _mm512_xor_si512(wg, we)) };
    }
}

/// See [`super::SlotProgram::eval_ands`].
///
/// # Safety
/// As [`garble`].
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) unsafe fn eval(
    rk: &RoundKeys,
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    // SAFETY: forwarded from the caller.
    unsafe { eval_with(&keys(rk), w, gates, folds, tables, tweak_offset, first_and) }
}

/// [`eval`] with the round keys already in registers.
///
/// # Safety
/// As [`garble`].
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) unsafe fn eval_with(
    k: &[__m512i; 11],
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let (o, j) = (tweak_offset, first_and);
    // SAFETY: forwarded; without the cache `p` and the π slots are unused.
    unsafe {
        if folds.is_empty() {
            eval_any::<false, false>(k, w, &[], gates, &[], folds, tables, o, j)
        } else {
            eval_any::<false, true>(k, w, &[], gates, &[], folds, tables, o, j)
        }
    }
}

/// See [`super::SlotProgram::eval_ands_cached`].
///
/// # Safety
/// As [`garble`], and every π slot of `pis` is `< p.len()`;
/// `pis.len() == gates.len()`.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn eval_cached(
    rk: &RoundKeys,
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        let k = keys(rk);
        eval_any::<true, false>(&k, w, p, gates, pis, &[], tables, tweak_offset, first_and)
    }
}

/// # Safety
/// As [`eval_cached`] (π arguments unused unless `C`) and
/// [`garble_any`] (folds).
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn eval_any<const C: bool, const F: bool>(
    k: &[__m512i; 11],
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 2]],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let pis_at = |a: usize, b: usize| if C { &pis[a..b] } else { &[][..] };
    let mut j = first_and;
    let mut t = 0;
    let n16 = gates.len() / 16 * 16;
    for i in (0..n16).step_by(16) {
        // SAFETY: forwarded from the caller.
        unsafe {
            eval_groups::<4, 8, C, F, 0>(
                k,
                w,
                p,
                std::array::from_fn(|g| quad(&gates[i + 4 * g..])),
                [4; 4],
                std::array::from_fn(|g| pis_at(i + 4 * g, i + 4 * g + 4)),
                std::array::from_fn(|g| fold_quad::<F>(folds, i + 4 * g)),
                &tables[t..t + 32],
                tweak_offset,
                j,
                &mut Feed::empty(),
            )
        };
        j += 16;
        t += 32;
    }
    let r = &gates[n16..];
    let t = &tables[t..];
    let m = r.len();
    // Group `i` of the remainder, its gate count, π slots and fold lanes.
    let q = |i: usize| &r[(4 * i).min(m)..(4 * i + 4).min(m)];
    let qn = |i: usize| (4 * i + 4).min(m).saturating_sub(4 * i);
    let qp = |i: usize| pis_at(n16 + (4 * i).min(m), n16 + (4 * i + 4).min(m));
    let qf = |i: usize| {
        if F {
            fold_lanes::<F>(&folds[n16 + (4 * i).min(m)..n16 + (4 * i + 4).min(m)])
        } else {
            NO_FOLDS
        }
    };
    // SAFETY: forwarded from the caller.
    unsafe {
        match m.div_ceil(4) {
            0 => {}
            1 => eval_groups::<1, 2, C, F, 0>(
                k,
                w,
                p,
                [&lanes(r)],
                [m],
                [qp(0)],
                [&qf(0)],
                t,
                tweak_offset,
                j,
                &mut Feed::empty(),
            ),
            2 => eval_groups::<2, 4, C, F, 0>(
                k,
                w,
                p,
                [&lanes(q(0)), &lanes(q(1))],
                [qn(0), qn(1)],
                [qp(0), qp(1)],
                [&qf(0), &qf(1)],
                t,
                tweak_offset,
                j,
                &mut Feed::empty(),
            ),
            3 => eval_groups::<3, 6, C, F, 0>(
                k,
                w,
                p,
                [&lanes(q(0)), &lanes(q(1)), &lanes(q(2))],
                [qn(0), qn(1), qn(2)],
                [qp(0), qp(1), qp(2)],
                [&qf(0), &qf(1), &qf(2)],
                t,
                tweak_offset,
                j,
                &mut Feed::empty(),
            ),
            _ => eval_groups::<4, 8, C, F, 0>(
                k,
                w,
                p,
                [&lanes(q(0)), &lanes(q(1)), &lanes(q(2)), &lanes(q(3))],
                [qn(0), qn(1), qn(2), qn(3)],
                [qp(0), qp(1), qp(2), qp(3)],
                [&qf(0), &qf(1), &qf(2), &qf(3)],
                t,
                tweak_offset,
                j,
                &mut Feed::empty(),
            ),
        }
    }
}

/// π jobs: `p[2s] = π(w[l])`, `p[2s+1] = π(w[l] ⊕ Δ)` (`D`, the
/// garbler) or `p[s] = π(w[l])`, 16 jobs (garbler) or 32 (evaluator)
/// = 8 ZMM states in flight per step.
///
/// # Safety
/// VAES, AVX-512F and AES-NI are available; for every job `[l, s]`,
/// `l < w.len()` and `2s + 1 < p.len()` (`D`) or `s < p.len()`.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(super) unsafe fn pis<const D: bool>(
    rk: &RoundKeys,
    w: &[Block],
    p: &mut [Block],
    jobs: &[[u32; 2]],
    delta: Block,
) {
    let k = keys(rk);
    let d = _mm512_broadcast_i32x4(ld(delta));
    const P: usize = 8;
    let per = if D { 4 * P / 2 } else { 4 * P };
    for js in jobs.chunks(per) {
        // Short chunks repeat their last job in the spare lanes: writing
        // the same π to the same slot twice is harmless, and every loop
        // below then has a constant trip count (states stay in registers).
        let n = js.len();
        let job = |i: usize| js[i.min(n - 1)];
        let mut x = [_mm512_setzero_si512(); P];
        for g in 0..(if D { P / 2 } else { P }) {
            let idx: [u32; 4] = std::array::from_fn(|i| job(4 * g + i)[0]);
            // SAFETY: indices in bounds by the caller.
            let v = unsafe { gather(w, idx) };
            if D {
                x[2 * g] = v;
                x[2 * g + 1] = _mm512_xor_si512(v, d);
            } else {
                x[g] = v;
            }
        }
        aes_rounds(&k, &mut x);
        for g in 0..(if D { P / 2 } else { P }) {
            let s: [u32; 4] = std::array::from_fn(|i| job(4 * g + i)[1]);
            // SAFETY: indices in bounds by the caller.
            unsafe {
                if D {
                    scatter(p, s.map(|s| 2 * s), 4, x[2 * g]);
                    scatter(p, s.map(|s| 2 * s + 1), 4, x[2 * g + 1]);
                } else {
                    scatter(p, s, 4, x[g]);
                }
            }
        }
    }
}

#[path = "x86_pair.rs"]
pub(super) mod pair;
