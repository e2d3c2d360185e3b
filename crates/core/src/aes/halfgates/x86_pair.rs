//! The VAES-512 stage kernel over **two** copies side by side (the lane
//! layout of `lanes.rs` with 2 lanes: slot `s` of copy `c` is block
//! `2s + c`, so a slot of both copies is one 32-byte unit).
//!
//! Why: one copy at a time ([`super::eval_stages`]) a stage of 8 AND
//! gates gives the AES unit 4 ZMM states per pass, and its fused XOR
//! gates (3.8 per AND in AES-128) cost 4 index loads, 3 label loads and
//! a store for one 16-byte label each. With two copies in a register
//! pair a stage gives 8 states per pass (AES throughput instead of
//! latency), an XOR gate moves both copies' labels with the same index
//! work (one YMM XOR), and a gate's input in both copies is one 32-byte
//! load instead of two lane inserts. A register holds gates `g, g+1`
//! of copies 0 and 1 (lanes `[g₀, g₁, (g+1)₀, (g+1)₁]`). Per copy the
//! gate order, tweaks and equations are those of
//! [`super::SlotProgram::eval_ands`], so the labels are those of
//! evaluating each copy alone (tests: `stage_lanes_agree` and the
//! garble crate's `tests/many.rs`, which reach this kernel through
//! `eval_stages_lanes` with 2 lanes).

use super::*;

/// [`super::Feed`] on the pair layout: XOR gates of the next stage run
/// between the AES rounds, both copies per gate in one YMM register. The
/// gate list and its bookkeeping are the one-copy feed's; only the gate
/// itself differs (offsets scaled by 2, 32 bytes per slot).
pub(super) struct PairFeed(Feed);

impl PairFeed {
    /// A feed of `gates` (validated byte offsets `16 · s`).
    #[inline]
    fn new(gates: &[[u32; 4]]) -> PairFeed {
        PairFeed(Feed::new(gates))
    }

    /// Gates not yet run.
    #[inline]
    fn left(&self) -> usize {
        self.0.left()
    }

    /// Runs the next gate on both copies of the pair vector at `w`
    /// (slot `s` at byte `32 · s`: the record's offset scaled by 2).
    /// Inline assembly for the reason given at [`super::Feed::one`].
    ///
    /// # Safety
    /// A gate is left; for every byte offset `o` of the feed's gates,
    /// `w` holds 32 bytes at `2 · o`; the gates' slice is alive. Inlined
    /// only into functions with AVX enabled.
    #[inline(always)]
    unsafe fn one(&mut self, w: *mut Block) {
        debug_assert!(self.0.next < self.0.end, "feed ran past its gates");
        // SAFETY: `next` is a gate of the slice and its scaled offsets
        // address 32 bytes of `w` (by the caller); unaligned forms (the
        // vector is 64-byte aligned by `many.rs`, but nothing here
        // relies on it).
        unsafe {
            asm!(
                "mov {a:e}, dword ptr [{next}]",
                "mov {b:e}, dword ptr [{next} + 4]",
                "mov {c:e}, dword ptr [{next} + 8]",
                "vmovdqu {x:y}, ymmword ptr [{w} + 2*{a}]",
                "vpxor {x:y}, {x:y}, ymmword ptr [{w} + 2*{b}]",
                "mov {a:e}, dword ptr [{next} + 12]",
                "vpxor {x:y}, {x:y}, ymmword ptr [{w} + 2*{c}]",
                "vmovdqu ymmword ptr [{w} + 2*{a}], {x:y}",
                "add {next}, 16",
                next = inout(reg) self.0.next,
                w = in(reg) w,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                // Named as its YMM register (`:y`): the upper half is written
                // too, and an `xmm_reg` output is clobbered whole.
                x = out(xmm_reg) _,
                options(nostack),
            );
        }
    }

    /// Runs every gate left.
    ///
    /// # Safety
    /// As [`PairFeed::one`].
    #[inline(always)]
    unsafe fn rest(&mut self, w: *mut Block) {
        while self.0.next < self.0.end {
            // SAFETY: a gate is left; the rest by the caller.
            unsafe { self.one(w) };
        }
    }
}

/// Both copies of gates `g0`, `g1` (byte offsets `o0`, `o1`) in one
/// register: one 32-byte load per gate.
///
/// # Safety
/// `w` holds 32 bytes at `2 · o0` and `2 · o1`.
#[inline(always)]
unsafe fn pair_in(w: *const Block, o0: u32, o1: u32) -> __m512i {
    let bytes = w.cast::<u8>();
    // SAFETY: by the caller.
    unsafe {
        let l = |o: u32| _mm256_loadu_si256(bytes.add(2 * o as usize).cast::<__m256i>());
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(l(o0)), l(o1))
    }
}

/// Evaluates gates `gates` (`G` registers of two gates each; `1..=2G`
/// gates, a missing last gate repeats the one before) of both copies,
/// running feed gates after every `E`-th AES round as
/// [`super::eval_groups`] does. `tables[c]` are copy `c`'s tables of
/// these gates, `off` the copies' tweak offsets, `first` the global
/// index of the first gate.
///
/// # Safety
/// Every byte offset of `gates` (and of `folds`, if `F`) addresses 32
/// bytes of `w` when scaled by 2; `folds` is as long as `gates` if `F`;
/// `tables[c]` holds `2 · gates.len()` blocks; the feed holds at least
/// [`fed_gates`]`(E)` gates, as [`PairFeed::one`] requires.
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn eval_pair_groups<const G: usize, const S: usize, const F: bool, const E: usize>(
    k: &[__m512i; 11],
    w: *mut Block,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: [&[Block]; 2],
    off: [u64; 2],
    first: u64,
    f: &mut PairFeed,
) {
    debug_assert_eq!(S, 2 * G);
    let n = gates.len();
    debug_assert!(n > 2 * (G - 1) && n <= 2 * G);
    let mut x = [_mm512_setzero_si512(); S];
    let mut tg = [_mm512_setzero_si512(); G];
    let mut te = [_mm512_setzero_si512(); G];
    let mut outs = [[0u32; 2]; G];
    for r in 0..G {
        let (i0, i1) = (2 * r, (2 * r + 1).min(n - 1));
        // SAFETY: `i0, i1 < n`; offsets by the caller.
        unsafe {
            let (g0, g1) = (gates.get_unchecked(i0), gates.get_unchecked(i1));
            x[2 * r] = pair_in(w, g0.a, g1.a);
            x[2 * r + 1] = pair_in(w, g0.b, g1.b);
            if F {
                let (f0, f1) = (folds.get_unchecked(i0), folds.get_unchecked(i1));
                x[2 * r] = _mm512_xor_si512(x[2 * r], pair_in(w, f0[0], f1[0]));
                x[2 * r + 1] = _mm512_xor_si512(x[2 * r + 1], pair_in(w, f0[1], f1[1]));
            }
            outs[r] = [g0.out, g1.out];
        }
        // Gates `i0` and (if real) `i0 + 1`: 4 or 2 blocks from each
        // copy's tables; the qwords `[T_G, T_E]` of gate 0 then gate 1
        // of copy 0 (0..8) and copy 1 (8..16) into `T_G` / `T_E` lanes.
        let m: __mmask8 = if i1 > i0 { 0xff } else { 0x0f };
        // SAFETY: the masked loads read only the gates' `2(i1 - i0 + 1)`
        // blocks of each table (by the caller's length), the rest unread.
        let (t0, t1) = unsafe {
            let at = |t: &[Block]| t.as_ptr().add(2 * i0).cast::<i64>();
            (
                _mm512_maskz_loadu_epi64(m, at(tables[0])),
                _mm512_maskz_loadu_epi64(m, at(tables[1])),
            )
        };
        tg[r] = _mm512_permutex2var_epi64(t0, _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), t1);
        te[r] = _mm512_permutex2var_epi64(t0, _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2), t1);
    }
    let held = x;
    // SAFETY: the caller's feed contract.
    unsafe { aes_rounds_fed!(k, &mut x, f, w, E) };
    let u = x;
    let (o0, o1) = (off[0] as i64, off[1] as i64);
    for r in 0..G {
        let j0 = 2 * (first as i64 + 2 * r as i64);
        let j1 = j0 + 2;
        let ta = _mm512_set_epi64(o1, j1, o0, j1, o1, j0, o0, j0);
        x[2 * r] = _mm512_xor_si512(u[2 * r], ta);
        x[2 * r + 1] = _mm512_xor_si512(u[2 * r + 1], _mm512_xor_si512(ta, one_lo()));
    }
    // SAFETY: the caller's feed contract.
    unsafe { aes_rounds_fed!(k, &mut x, f, w, E) };
    let bytes = w.cast::<u8>();
    for r in 0..G {
        let (a, b) = (held[2 * r], held[2 * r + 1]);
        let ha = _mm512_xor_si512(u[2 * r], x[2 * r]);
        let hb = _mm512_xor_si512(u[2 * r + 1], x[2 * r + 1]);
        let wg = _mm512_mask_xor_epi64(ha, colour(a), ha, tg[r]);
        let we = _mm512_mask_xor_epi64(hb, colour(b), hb, _mm512_xor_si512(te[r], a));
        let v = _mm512_xor_si512(wg, we);
        // Second gate first: a repeated last gate's lanes are then
        // overwritten by the real ones (distinct gates of a stage have
        // distinct output slots).
        // SAFETY: output offsets by the caller.
        unsafe {
            let at = |o: u32| bytes.add(2 * o as usize).cast::<__m256i>();
            _mm256_storeu_si256(at(outs[r][1]), _mm512_extracti64x4_epi64::<1>(v));
            _mm256_storeu_si256(at(outs[r][0]), _mm512_castsi512_si256(v));
        }
    }
}

/// Up to 8 gates of a stage: [`eval_pair_groups`] with as many
/// registers as the gates fill, at feed spacing `E`.
///
/// # Safety
/// As [`eval_pair_groups`] (`gates` has 1..=8 gates).
#[inline]
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
#[allow(clippy::too_many_arguments)]
unsafe fn eval_pair_chunk<const F: bool, const E: usize>(
    k: &[__m512i; 11],
    w: *mut Block,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: [&[Block]; 2],
    off: [u64; 2],
    first: u64,
    f: &mut PairFeed,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match gates.len() {
            1..=2 => eval_pair_groups::<1, 2, F, E>(k, w, gates, folds, tables, off, first, f),
            3..=4 => eval_pair_groups::<2, 4, F, E>(k, w, gates, folds, tables, off, first, f),
            5..=6 => eval_pair_groups::<3, 6, F, E>(k, w, gates, folds, tables, off, first, f),
            _ => eval_pair_groups::<4, 8, F, E>(k, w, gates, folds, tables, off, first, f),
        }
    }
}

/// The VAES-512 path of [`super::super::SlotProgram::eval_stages_lanes`]
/// with 2 lanes: stages `range` (XORs, then ANDs; the next stage's
/// XORs fed between the AES rounds, as [`super::eval_stages`]).
///
/// # Safety
/// VAES, AVX-512F and AES-NI are available; `w.len() ≥ 2 · prog.bound`;
/// `range` is a range of stages; `tables` two slices as long as the
/// range's AND tables.
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
pub(in crate::aes::halfgates) unsafe fn eval_stages_pair(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    tables: [&[Block]; 2],
    offsets: [u64; 2],
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if prog.stages_fold(range.clone()) {
            eval_stages_pair_with::<true>(prog, rk, w, range, tables, offsets)
        } else {
            eval_stages_pair_with::<false>(prog, rk, w, range, tables, offsets)
        }
    }
}

/// [`eval_stages_pair`] with or without folds (as [`super::eval_stages`]).
///
/// # Safety
/// As [`eval_stages_pair`].
#[target_feature(enable = "avx512f,vaes,aes,sse2")]
unsafe fn eval_stages_pair_with<const F: bool>(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    range: std::ops::Range<usize>,
    tables: [&[Block]; 2],
    off: [u64; 2],
) {
    let ands = prog.stages_ands(range.clone());
    let mut start = prog.stage_start(range.start);
    let stages = &prog.stages[range];
    let w = w.as_mut_ptr();
    // SAFETY: every XOR and AND offset was validated `16 · s` with
    // `s < bound` (`SlotProgram::new`), and `w` holds `2 · bound`
    // blocks, so each scaled offset addresses 32 bytes of it; the feed
    // is handed to a chunk only if it holds the gates the chunk takes
    // (`checked`); table slices are cut from the caller's, whose length
    // is checked.
    unsafe {
        let k = keys(rk);
        if let Some(st) = stages.first() {
            PairFeed::new(prog.xors.offsets(start[0] as usize..st[0] as usize)).rest(w);
        }
        for (i, st) in stages.iter().enumerate() {
            let next = st[0] as usize..stages.get(i + 1).map_or(st[0], |n| n[0]) as usize;
            let mut f = PairFeed::new(prog.xors.offsets(next));
            let (mut a, e) = (start[1] as usize, st[1] as usize);
            // A stage of more than 8 gates (the plan makes none) runs a
            // gate at a time without feed, as the one-copy kernel runs
            // it without: no group condition holds for it, so two of
            // its gates may write one slot (the later one must win).
            let big = e - a > 8;
            while a < e {
                let c = if big { 1 } else { e - a };
                let g = &prog.and_bytes[a..a + c];
                let fs = if F { prog.folds(a..a + c) } else { &[][..] };
                let t = 2 * (a - ands.start)..2 * (a + c - ands.start);
                let t = [&tables[0][t.clone()], &tables[1][t]];
                let j = a as u64;
                // Eight states per pass (a full chunk) leave room for a
                // gate after every round; fewer, every second round at most.
                let min = if c > 6 { 1 } else { EVAL_MIN_SPACING };
                let spacing = match spacing(f.left()) {
                    _ if big => 0,
                    0 => 0,
                    s => checked(s.max(min), f.left()),
                };
                match spacing {
                    1 => eval_pair_chunk::<F, 1>(&k, w, g, fs, t, off, j, &mut f),
                    2 => eval_pair_chunk::<F, 2>(&k, w, g, fs, t, off, j, &mut f),
                    5 => eval_pair_chunk::<F, 5>(&k, w, g, fs, t, off, j, &mut f),
                    _ => eval_pair_chunk::<F, NO_FEED>(&k, w, g, fs, t, off, j, &mut f),
                }
                a += c;
            }
            f.rest(w);
            start = *st;
        }
    }
}
