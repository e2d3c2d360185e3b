//! Half-gates evaluation of *soldered* garbled gates: the hot loop of
//! LEGO's online phase (`brickyard_protocols::lego::evaluator`).
//!
//! In a LEGO bucket every garbled AND gate is evaluated on the bucket
//! head's input keys translated by the gate's solderings, and its output is
//! translated back to the head's output key by a third soldering:
//!
//! ```text
//! A = H_L ⊕ s_L,  B = H_R ⊕ s_R                    (H: the head's keys)
//! out = H(A,t) ⊕ lsb(A)·T_G ⊕ H(B,t⊕1) ⊕ lsb(B)·(T_E ⊕ A) ⊕ s_O
//! ```
//!
//! with `t = and_tweak(0, id)` and `H(x, i) = π(π(x) ⊕ i) ⊕ π(x)` — the
//! evaluator equation of [`super::halfgates`]. The previous form gathered
//! every gate's inputs into a buffer, hashed the buffer in two AES passes
//! and finished the gates in a third pass, streaming each gate's 32-byte
//! input pair, both hashes and the AES scratch through memory several
//! times. Here one pass reads each gate once, keeps both AES passes of
//! 16 gates (8 ZMM states) in registers and writes only the 16-byte output;
//! the caller applies the bucket rule to the outputs.
//!
//! Backends: VAES-512 when the CPU has it, else a portable twin on
//! [`fixed_key`]'s batch encryption (small stack buffers, no allocation);
//! tests check they agree on random gates, and the protocol crate checks
//! the result against the garble crate's `eval_and`.

use super::fixed_key;
use super::halfgates::and_tweak;
use crate::Block;

/// A garbled AND gate as an evaluator holding solderings sees it. A trait
/// (not a struct) so that the protocol keeps its own serialisable record
/// and the kernel reads the fields in place.
pub trait SolderedGate {
    /// `[T_G, T_E]`.
    fn table(&self) -> &[Block; 2];
    /// The gate's AND index: its tweak is `and_tweak(0, id)`.
    fn id(&self) -> u64;
    /// Solderings `[s_L, s_R, s_O]` to the bucket head's keys.
    fn solder(&self) -> &[Block; 3];
}

/// Evaluates every gate `i` on the keys `heads[i / per]` translated by its
/// solderings; `out[i]` receives its output translated to the head's
/// output key (so the gates of a good bucket all agree).
///
/// # Panics
/// If `per == 0`, `gates.len() != heads.len() · per` or
/// `out.len() != gates.len()` (the caller's own buffers).
pub fn eval_soldered<G: SolderedGate>(
    heads: &[[Block; 2]],
    per: usize,
    gates: &[G],
    out: &mut [Block],
) {
    check(heads, per, gates, out);
    #[cfg(target_arch = "x86_64")]
    if let Some(rk) = fixed_key().vaes512_keys() {
        // SAFETY: `vaes512_keys` is `Some` only when VAES, AVX-512F and
        // AES-NI were detected; the lengths were checked just above.
        unsafe { x86::eval(rk, heads, per, gates, out) };
        return;
    }
    eval_soldered_portable(heads, per, gates, out)
}

/// [`eval_soldered`] on the portable backend (tests, and CPUs without
/// VAES).
///
/// # Panics
/// As [`eval_soldered`].
pub fn eval_soldered_portable<G: SolderedGate>(
    heads: &[[Block; 2]],
    per: usize,
    gates: &[G],
    out: &mut [Block],
) {
    check(heads, per, gates, out);
    const CHUNK: usize = 32;
    let pi = fixed_key();
    let mut x = [Block::ZERO; 2 * CHUNK];
    let mut u = [Block::ZERO; 2 * CHUNK];
    for (c, (gc, oc)) in gates.chunks(CHUNK).zip(out.chunks_mut(CHUNK)).enumerate() {
        let n = gc.len();
        let (x, u) = (&mut x[..2 * n], &mut u[..2 * n]);
        for (j, (g, xp)) in gc.iter().zip(x.chunks_exact_mut(2)).enumerate() {
            let h = &heads[(c * CHUNK + j) / per];
            let s = g.solder();
            xp[0] = h[0] ^ s[0];
            xp[1] = h[1] ^ s[1];
        }
        pi.encrypt_blocks_to(x, u);
        let mut h = [Block::ZERO; 2 * CHUNK];
        let h = &mut h[..2 * n];
        for ((hp, up), g) in h.chunks_exact_mut(2).zip(u.chunks_exact(2)).zip(gc) {
            let t = and_tweak(0, g.id());
            hp[0] = up[0] ^ t;
            hp[1] = up[1] ^ t ^ Block(1);
        }
        pi.encrypt_blocks(h);
        for ((((o, g), xp), hp), up) in oc
            .iter_mut()
            .zip(gc)
            .zip(x.chunks_exact(2))
            .zip(h.chunks_exact(2))
            .zip(u.chunks_exact(2))
        {
            let (a, b) = (xp[0], xp[1]);
            let (ha, hb) = (hp[0] ^ up[0], hp[1] ^ up[1]);
            let t = g.table();
            *o = ha ^ t[0].and_bit(a.lsb()) ^ hb ^ (t[1] ^ a).and_bit(b.lsb()) ^ g.solder()[2];
        }
    }
}

fn check<G>(heads: &[[Block; 2]], per: usize, gates: &[G], out: &[Block]) {
    assert!(per > 0, "eval_soldered: empty buckets");
    assert_eq!(gates.len(), heads.len() * per, "eval_soldered: gate count");
    assert_eq!(out.len(), gates.len(), "eval_soldered: output length");
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The VAES-512 kernel: 16 gates per step, in 4 groups of 4 lanes
    //! (one gate per 128-bit lane), both hash inputs of each group in
    //! flight: 8 ZMM AES states per pass. Lanes are filled with 128-bit
    //! inserts straight from the gate records (the shuffle port, shared
    //! with VAES-512, is what limits the kernel beside the AES itself).

    use super::SolderedGate;
    use crate::aes::halfgates::x86::aes_rounds;
    use crate::aes::ni::RoundKeys;
    use crate::Block;
    use std::arch::x86_64::*;

    /// One 16-byte load.
    ///
    /// # Safety
    /// SSE2 is available.
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn ld(b: &Block) -> __m128i {
        // SAFETY: `b` is a valid reference to 16 bytes; the load is unaligned.
        unsafe { _mm_loadu_si128((b as *const Block).cast()) }
    }

    /// Mask of the 64-bit elements of the lanes whose key has lsb 1.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn colour(x: __m512i) -> __mmask8 {
        let k = _mm512_test_epi64_mask(x, _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1));
        k | (k << 1)
    }

    /// Lane `J` of a gate's five vectors `[A, B, T_G, T_E, s_O]` (`A`, `B`
    /// its soldered input keys) and its tweak's low half.
    ///
    /// # Safety
    /// SSE2 and AVX-512F are available.
    #[inline]
    #[target_feature(enable = "avx512f,sse2")]
    unsafe fn put<const J: i32, T: SolderedGate>(
        v: &mut [__m512i; 5],
        id: &mut i64,
        (gate, h): (&T, &[Block; 2]),
    ) {
        let (sd, t) = (gate.solder(), gate.table());
        // SAFETY: SSE2 is enabled; every reference is valid.
        let x = unsafe {
            [
                _mm_xor_si128(ld(&h[0]), ld(&sd[0])),
                _mm_xor_si128(ld(&h[1]), ld(&sd[1])),
                ld(&t[0]),
                ld(&t[1]),
                ld(&sd[2]),
            ]
        };
        for (vi, xi) in v.iter_mut().zip(x) {
            *vi = _mm512_inserti32x4::<J>(*vi, xi);
        }
        // Tweak and_tweak(0, id) = (id << 1, 0).
        *id = (gate.id() << 1) as i64;
    }

    /// Kernel steps between prefetching a gate and evaluating it.
    const PREFETCH: usize = 4;

    /// See [`super::eval_soldered`].
    ///
    /// # Safety
    /// VAES, AVX-512F and AES-NI are available; `per > 0`,
    /// `gates.len() == heads.len() · per`, `out.len() == gates.len()`.
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    pub(super) unsafe fn eval<T: SolderedGate>(
        rk: &RoundKeys,
        heads: &[[Block; 2]],
        per: usize,
        gates: &[T],
        out: &mut [Block],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { eval_g::<T, 4, 8, 16>(rk, heads, per, gates, out) }
    }

    /// [`eval`] with `G` groups of 4 lanes per step (`S = 2G` AES states,
    /// `L = 4G` gates). Measured on the 2-core VAES machine (one AES-128 at
    /// β = 7, 44 800 gates, in cache): G = 4 6.4 ns/gate, G = 6 6.8, G = 8
    /// 7.3 (spills: 16 states + 11 round keys do not fit the 32 ZMM
    /// registers).
    ///
    /// # Safety
    /// As [`eval`].
    #[inline]
    #[target_feature(enable = "avx512f,vaes,aes,sse2")]
    unsafe fn eval_g<T: SolderedGate, const G: usize, const S: usize, const L: usize>(
        rk: &RoundKeys,
        heads: &[[Block; 2]],
        per: usize,
        gates: &[T],
        out: &mut [Block],
    ) {
        // SAFETY (for the `ld` calls below): SSE2 is enabled here.
        let mut k = [_mm512_setzero_si512(); 11];
        for (kv, r) in k.iter_mut().zip(rk) {
            // SAFETY: SSE2 is enabled here.
            *kv = _mm512_broadcast_i32x4(unsafe { ld(r) });
        }
        let one = _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1);
        let n = gates.len();
        // Head of the next gate, stepped instead of divided.
        let (mut hk, mut hr) = (0usize, 0usize);
        let mut i0 = 0;
        while i0 < n {
            let m = (n - i0).min(L);
            // Fetch the gates PREFETCH steps ahead: the records of a fresh
            // copy come from memory, and the hardware stream prefetcher
            // alone left the kernel waiting on them (2× slower in the
            // protocol than on cached gates).
            if let Some(ahead) = gates.get(i0 + PREFETCH * L..(i0 + (PREFETCH + 1) * L).min(n)) {
                let bytes = std::mem::size_of_val(ahead);
                let p = ahead.as_ptr().cast::<i8>();
                for off in (0..bytes).step_by(64) {
                    // SAFETY: `off < bytes`, inside the slice `ahead`; a
                    // prefetch never faults anyway.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(off)) };
                }
            }
            // Lane j of group g is gate i0 + 4g + j; lanes past the end
            // repeat the last gate and are never stored.
            let mut hidx = [0usize; L];
            for h in &mut hidx[..m] {
                *h = hk;
                hr += 1;
                if hr == per {
                    hr = 0;
                    hk += 1;
                }
            }
            let last = hidx[m - 1];
            hidx[m..].fill(last);
            let mut a = [_mm512_setzero_si512(); G];
            let mut b = [_mm512_setzero_si512(); G];
            let mut t0 = [_mm512_setzero_si512(); G];
            let mut t1 = [_mm512_setzero_si512(); G];
            let mut so = [_mm512_setzero_si512(); G];
            let mut tw = [_mm512_setzero_si512(); G];
            for g in 0..G {
                let lane = |j: usize| {
                    let q = 4 * g + j;
                    (&gates[i0 + q.min(m - 1)], &heads[hidx[q]])
                };
                let mut v = [_mm512_setzero_si512(); 5];
                let mut id = [0i64; 4];
                // SAFETY (all four): SSE2 and AVX-512F are enabled here.
                unsafe {
                    put::<0, T>(&mut v, &mut id[0], lane(0));
                    put::<1, T>(&mut v, &mut id[1], lane(1));
                    put::<2, T>(&mut v, &mut id[2], lane(2));
                    put::<3, T>(&mut v, &mut id[3], lane(3));
                }
                [a[g], b[g], t0[g], t1[g], so[g]] = v;
                tw[g] = _mm512_set_epi64(0, id[3], 0, id[2], 0, id[1], 0, id[0]);
            }
            let mut x = [_mm512_setzero_si512(); S];
            for g in 0..G {
                x[2 * g] = a[g];
                x[2 * g + 1] = b[g];
            }
            aes_rounds(&k, &mut x);
            let u = x;
            for g in 0..G {
                x[2 * g] = _mm512_xor_si512(u[2 * g], tw[g]);
                x[2 * g + 1] = _mm512_xor_si512(u[2 * g + 1], _mm512_xor_si512(tw[g], one));
            }
            aes_rounds(&k, &mut x);
            let mut res = [_mm512_setzero_si512(); G];
            for g in 0..G {
                let ha = _mm512_xor_si512(u[2 * g], x[2 * g]);
                let hb = _mm512_xor_si512(u[2 * g + 1], x[2 * g + 1]);
                let wg = _mm512_mask_xor_epi64(ha, colour(a[g]), ha, t0[g]);
                let te = _mm512_xor_si512(t1[g], a[g]);
                let we = _mm512_mask_xor_epi64(hb, colour(b[g]), hb, te);
                res[g] = _mm512_xor_si512(_mm512_xor_si512(wg, we), so[g]);
            }
            if m == L {
                let o = &mut out[i0..i0 + L];
                for (g, r) in res.iter().enumerate() {
                    // SAFETY: `o` holds 16 blocks, so blocks 4g..4g+4 are in
                    // bounds; the store is unaligned.
                    unsafe { _mm512_storeu_si512(o[4 * g..].as_mut_ptr().cast(), *r) };
                }
            } else {
                let mut r = [Block::ZERO; L];
                for (g, v) in res.iter().enumerate() {
                    let q: [Block; 4] = bytemuck::cast(*v);
                    r[4 * g..4 * g + 4].copy_from_slice(&q);
                }
                out[i0..i0 + m].copy_from_slice(&r[..m]);
            }
            i0 += m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prg::Prg;

    struct G {
        table: [Block; 2],
        id: u64,
        s: [Block; 3],
    }

    impl SolderedGate for G {
        fn table(&self) -> &[Block; 2] {
            &self.table
        }
        fn id(&self) -> u64 {
            self.id
        }
        fn solder(&self) -> &[Block; 3] {
            &self.s
        }
    }

    /// The equation of the module doc, one gate at a time with `tccr`.
    fn reference(h: &[Block; 2], g: &G) -> Block {
        let (a, b) = (h[0] ^ g.s[0], h[1] ^ g.s[1]);
        let t = and_tweak(0, g.id);
        let ha = crate::hash::tccr(a, t);
        let hb = crate::hash::tccr(b, t ^ Block(1));
        ha ^ g.table[0].and_bit(a.lsb()) ^ hb ^ (g.table[1] ^ a).and_bit(b.lsb()) ^ g.s[2]
    }

    fn random(prg: &mut Prg, buckets: usize, per: usize) -> (Vec<[Block; 2]>, Vec<G>) {
        let heads = (0..buckets)
            .map(|_| [prg.random_block(), prg.random_block()])
            .collect();
        let gates = (0..buckets * per)
            .map(|i| G {
                table: [prg.random_block(), prg.random_block()],
                // Scattered ids, some with the top bit set.
                id: (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 3),
                s: [prg.random_block(), prg.random_block(), prg.random_block()],
            })
            .collect();
        (heads, gates)
    }

    #[test]
    fn kernel_and_portable_agree_with_the_equation() {
        let mut prg = Prg::from_seed(Block(7));
        // Sizes around the kernel's 16-gate step and the portable chunk.
        for (buckets, per) in [
            (1, 1),
            (1, 5),
            (3, 5),
            (4, 4),
            (5, 7),
            (7, 3),
            (40, 7),
            (9, 33),
        ] {
            let (heads, gates) = random(&mut prg, buckets, per);
            let want: Vec<Block> = gates
                .iter()
                .enumerate()
                .map(|(i, g)| reference(&heads[i / per], g))
                .collect();
            let mut got = vec![Block::ZERO; gates.len()];
            eval_soldered(&heads, per, &gates, &mut got);
            assert_eq!(got, want, "dispatching kernel, {buckets}×{per}");
            let mut got = vec![Block::ZERO; gates.len()];
            eval_soldered_portable(&heads, per, &gates, &mut got);
            assert_eq!(got, want, "portable, {buckets}×{per}");
        }
    }

    #[test]
    fn empty_input_is_fine() {
        let mut out: [Block; 0] = [];
        eval_soldered::<G>(&[], 3, &[], &mut out);
    }

    #[test]
    #[should_panic(expected = "gate count")]
    fn wrong_gate_count_panics() {
        let mut prg = Prg::from_seed(Block(8));
        let (heads, gates) = random(&mut prg, 2, 3);
        let mut out = vec![Block::ZERO; 6];
        eval_soldered(&heads[..1], 3, &gates, &mut out);
    }
}
