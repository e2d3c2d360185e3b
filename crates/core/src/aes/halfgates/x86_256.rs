//! VAES-256 (YMM, AVX2) kernels for the lane layout of `lanes.rs`: CPUs
//! with VAES but no AVX-512 (AMD Zen 3, this class of host) never run the
//! VAES-512 kernels of `x86.rs`, and one copy's 8-gate stages are too few
//! to fill the AES pipeline there. Here a YMM register holds one input of
//! one gate in two adjacent lanes (copies), so an AND stage of `L` lanes
//! is `L/2 ×` its gates of independent AES work, [`UNITS`] register pairs
//! in flight.
//!
//! Labels and tables are touched only through checked slices (`ld2` /
//! `st2`); the AES rounds are inline assembly reading the round keys
//! from the array `keys256` made (see [`aes_rounds_asm`]).

use super::super::ni::{keys256, ld2, st2, RoundKeys};
use super::{AndBytes, SlotProgram};
use crate::Block;
use std::arch::asm;
use std::arch::x86_64::*;

/// AES-128 on the YMM states `$v` (an array) under the broadcast round
/// keys `$k` (`&[__m256i; 11]`), round-major. Inline assembly, because
/// with intrinsics (`ni::aes256_rounds`) the compiler regrouped the 8
/// states' rounds into runs of 2 states × 10 rounds to keep the keys in
/// registers, which leaves the AES unit waiting on its own latency; each
/// `asm!` block here has (default) side effects, so their order stays.
/// The keys are memory operands (one load per round and state, on the
/// load ports VAES does not use). Expands to unsafe code: the caller
/// has VAES and AVX2 enabled.
macro_rules! aes_rounds_asm {
    ($k:expr, $v:expr) => {{
        let (k, v): (&[__m256i; 11], &mut [__m256i; _]) = ($k, $v);
        for x in v.iter_mut() {
            *x = _mm256_xor_si256(*x, k[0]);
        }
        let kp = k.as_ptr();
        aes_rounds_asm!(@round kp, v, 1 2 3 4 5 6 7 8 9);
        for x in v.iter_mut() {
            // SAFETY: `kp` points to 11 keys of 32 bytes (a live array
            // borrowed above); the caller has VAES/AVX2 enabled.
            unsafe {
                asm!("vaesenclast {x}, {x}, ymmword ptr [{k} + 320]",
                    x = inout(ymm_reg) *x, k = in(reg) kp,
                    options(readonly, nostack, preserves_flags));
            }
        }
    }};
    (@round $kp:ident, $v:ident, $($r:literal)*) => {{
        $(
            for x in $v.iter_mut() {
                // SAFETY: as for the last round: key `$r` (< 11) of the array.
                unsafe {
                    asm!("vaesenc {x}, {x}, ymmword ptr [{k} + {off}]",
                        x = inout(ymm_reg) *x, k = in(reg) $kp, off = const 32 * $r,
                        options(readonly, nostack, preserves_flags));
                }
            }
        )*
    }};
}

/// Gate-lane-pairs hashed together: each is two YMM states (inputs `a`
/// and `b`), so 8 states per AES pass, the most that fit the 16 YMM
/// registers beside the round keys' loads and the tweaks.
const UNITS: usize = 4;

/// All ones in each 128-bit half whose bit 0 (the colour bit) is set.
#[inline]
#[target_feature(enable = "avx2")]
fn lsb_mask(x: __m256i) -> __m256i {
    let d = _mm256_shuffle_epi32::<0>(x);
    _mm256_srai_epi32::<31>(_mm256_slli_epi32::<31>(d))
}

#[inline]
#[target_feature(enable = "avx2")]
fn pair(lo: Block, hi: Block) -> __m256i {
    bytemuck::cast([lo, hi])
}

/// `w[o] = w[a] ⊕ w[b] ⊕ w[c]` in every lane, two lanes per instruction.
/// Unchecked loads and stores: with slice indexing the three bounds
/// checks per lane pair were ~a fifth of the loop's instructions.
///
/// # Safety
/// `lanes` is even and every byte offset of `gates` is `16 · s` with
/// `s · lanes + lanes ≤ w.len()` (offsets validated against the
/// program's bound, `w` at least `bound · lanes` long).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn xors_lanes(w: &mut [Block], lanes: usize, gates: &[[u32; 4]]) {
    let base = w.as_mut_ptr();
    let at = |off: u32| {
        base.wrapping_add(off as usize / 16 * lanes)
            .cast::<__m256i>()
    };
    for &[a, b, c, o] in gates {
        let (a, b, c, o) = (at(a), at(b), at(c), at(o));
        for p in 0..lanes / 2 {
            // SAFETY: lane pair `p` of each slot is within `w` (by the
            // caller); unaligned forms, `w` is only 16-byte aligned.
            unsafe {
                let x =
                    _mm256_xor_si256(_mm256_loadu_si256(a.add(p)), _mm256_loadu_si256(b.add(p)));
                let x = _mm256_xor_si256(x, _mm256_loadu_si256(c.add(p)));
                _mm256_storeu_si256(o.add(p), x);
            }
        }
    }
}

/// The gathered inputs of up to [`UNITS`] (gate, lane pair) units.
struct Group {
    a: [__m256i; UNITS],
    b: [__m256i; UNITS],
    /// (gate index in the range, first lane of the pair).
    at: [(usize, usize); UNITS],
    n: usize,
}

/// Evaluates AND gates `gates` (global indices `first_and..`) in every
/// lane: the twin of `lanes::eval_lanes_portable`.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,vaes,aes,sse2")]
pub(super) fn eval_lanes(
    rk: &RoundKeys,
    w: &mut [Block],
    lanes: usize,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[&[Block]],
    offsets: &[u64],
    first_and: u64,
) {
    let k = keys256(rk);
    eval_lanes_at(&k, w, lanes, gates, folds, tables, 0, offsets, first_and);
}

/// Stages `range` of `prog` (XORs, then ANDs, each) in every lane: the
/// twin of `SlotProgram::stages_lanes_portable`, the keys broadcast once.
///
/// # Safety
/// As [`xors_lanes`] for every stage's XOR gates: `lanes` even, `w` at
/// least `prog.bound · lanes` blocks; `range` a range of stages and
/// `tables` one slice per lane as long as the range's AND tables.
#[target_feature(enable = "avx2,vaes,aes,sse2")]
pub(super) unsafe fn eval_stages_lanes(
    prog: &SlotProgram,
    rk: &RoundKeys,
    w: &mut [Block],
    lanes: usize,
    range: std::ops::Range<usize>,
    tables: &[&[Block]],
    offsets: &[u64],
) {
    let k = keys256(rk);
    let first = prog.stages_ands(range.clone()).start;
    for s in range {
        // SAFETY: forwarded from the caller (validated offsets, `w` long
        // enough for every lane group of every slot).
        unsafe { xors_lanes(w, lanes, prog.xors.offsets(prog.stage_xors(s))) };
        let r = prog.stages_ands(s..s + 1);
        if r.is_empty() {
            continue;
        }
        let (gates, folds) = (&prog.and_bytes[r.clone()], prog.folds(r.clone()));
        let (base, at) = (r.start - first, r.start as u64);
        eval_lanes_at(&k, w, lanes, gates, folds, tables, base, offsets, at);
    }
}

/// [`eval_lanes`] with the keys broadcast and the gates' tables at
/// `base` gates into each lane's slice.
#[allow(clippy::too_many_arguments)]
#[inline]
#[target_feature(enable = "avx2,vaes,aes,sse2")]
fn eval_lanes_at(
    k: &[__m256i; 11],
    w: &mut [Block],
    lanes: usize,
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[&[Block]],
    base: usize,
    offsets: &[u64],
    first_and: u64,
) {
    let zero = _mm256_setzero_si256();
    let mut g = Group {
        a: [zero; UNITS],
        b: [zero; UNITS],
        at: [(0, 0); UNITS],
        n: 0,
    };
    let env = Env {
        k,
        lanes,
        gates,
        tables,
        base,
        offsets,
        first_and,
    };
    for (i, gate) in gates.iter().enumerate() {
        let (sa, sb) = (gate.slot(0) * lanes, gate.slot(1) * lanes);
        let fold = folds
            .get(i)
            .map(|f| (f[0] as usize / 16 * lanes, f[1] as usize / 16 * lanes));
        for p in (0..lanes).step_by(2) {
            let mut x = ld2(&w[sa + p..sa + p + 2]);
            let mut y = ld2(&w[sb + p..sb + p + 2]);
            if let Some((fa, fb)) = fold {
                x = _mm256_xor_si256(x, ld2(&w[fa + p..fa + p + 2]));
                y = _mm256_xor_si256(y, ld2(&w[fb + p..fb + p + 2]));
            }
            g.a[g.n] = x;
            g.b[g.n] = y;
            g.at[g.n] = (i, p);
            g.n += 1;
            if g.n == UNITS {
                flush(&env, w, &g);
                g.n = 0;
            }
        }
    }
    if g.n > 0 {
        flush(&env, w, &g);
    }
}

/// What every group of one stage shares.
struct Env<'a> {
    k: &'a [__m256i; 11],
    lanes: usize,
    gates: &'a [AndBytes],
    tables: &'a [&'a [Block]],
    /// Gates of the lanes' table slices before `gates[0]`.
    base: usize,
    offsets: &'a [u64],
    first_and: u64,
}

/// Hashes a group (all [`UNITS`] units; the results of units past `g.n`
/// are stale and dropped) and stores its `g.n` outputs:
/// `W = H(A,t) ⊕ s_a·T_G ⊕ H(B,t⊕1) ⊕ s_b·(T_E ⊕ A)` per lane.
#[inline]
#[target_feature(enable = "avx2,vaes,aes,sse2")]
fn flush(e: &Env, w: &mut [Block], g: &Group) {
    let (k, lanes, gates, tables, offsets) = (e.k, e.lanes, e.gates, e.tables, e.offsets);
    let (base, first_and) = (e.base, e.first_and);
    debug_assert!(lanes.is_multiple_of(2));
    let one = _mm256_set_epi64x(0, 1, 0, 1);
    let mut p1: [__m256i; 2 * UNITS] =
        std::array::from_fn(|j| if j < UNITS { g.a[j] } else { g.b[j - UNITS] });
    aes_rounds_asm!(k, &mut p1);
    let tweaks: [__m256i; UNITS] = std::array::from_fn(|j| {
        let (i, p) = g.at[j];
        let lo = ((first_and + i as u64) << 1) as i64;
        // `and_tweak(offsets[c], first_and + i)` for lanes p and p + 1.
        _mm256_set_epi64x(offsets[p + 1] as i64, lo, offsets[p] as i64, lo)
    });
    let mut p2: [__m256i; 2 * UNITS] = std::array::from_fn(|j| {
        if j < UNITS {
            _mm256_xor_si256(p1[j], tweaks[j])
        } else {
            _mm256_xor_si256(p1[j], _mm256_xor_si256(tweaks[j - UNITS], one))
        }
    });
    aes_rounds_asm!(k, &mut p2);
    for j in 0..g.n {
        let (i, p) = g.at[j];
        let (t0, t1) = (tables[p], tables[p + 1]);
        let t = 2 * (base + i);
        let tg = pair(t0[t], t1[t]);
        let te = pair(t0[t + 1], t1[t + 1]);
        let ha = _mm256_xor_si256(p1[j], p2[j]);
        let hb = _mm256_xor_si256(p1[UNITS + j], p2[UNITS + j]);
        let wg = _mm256_xor_si256(ha, _mm256_and_si256(tg, lsb_mask(g.a[j])));
        let te_a = _mm256_xor_si256(te, g.a[j]);
        let we = _mm256_xor_si256(hb, _mm256_and_si256(te_a, lsb_mask(g.b[j])));
        let o = gates[i].out_slot() * lanes + p;
        st2(&mut w[o..o + 2], _mm256_xor_si256(wg, we));
    }
}
