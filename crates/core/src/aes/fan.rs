//! The TCCR hash fanned out to several tweaks per input:
//! `out[L·i + k] = tccr(x[i], (bases[i] + k) + hi·2^64)` for `k < L`,
//! `tccr(x, t) = π(π(x) ⊕ t) ⊕ π(x)` (`crate::hash::tccr`).
//!
//! This is the hash of JIMU's long labels (`brickyard_garble::wide`): a
//! label of `L` blocks is compressed to one block `x` and hashed to `L`
//! blocks, so `π(x)` is computed once and reused by its `L` outer calls.
//! The kernel keeps both AES passes and the tweak XORs in registers
//! (VAES on YMM registers: 16 inputs per step, then `L` steps of 16
//! outputs), where the portable twin makes two passes over memory through
//! [`super::Aes128::encrypt_blocks`]; tests check they agree.

use super::fixed_key;
use crate::Block;

/// Inputs per step of the kernel (8 YMM registers of AES state).
const GROUP: usize = 16;

/// Largest `L` the kernel takes (its stack buffers hold `16·L` blocks).
pub const MAX_FAN: usize = 4;

/// Which path [`tccr_fan`] takes on this machine: `"vaes256"` (the YMM
/// kernel) or `"portable"` (reported by `brickyard bench garble`).
pub fn backend() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if fixed_key().vaes256_keys().is_some() {
        return "vaes256";
    }
    "portable"
}

fn check(x: &[Block], bases: &[u64], l: usize, out: &[Block]) {
    assert!(
        x.len() == bases.len() && out.len() == l * x.len(),
        "tccr_fan: lengths (internal buffers; a mismatch is a bug)"
    );
}

/// `out[L·i + k] = tccr(x[i], Block::from_halves(bases[i] + k, hi))` for
/// `k < l` (the additions wrap).
///
/// # Panics
/// If `bases.len() != x.len()` or `out.len() != l · x.len()`.
pub fn tccr_fan(x: &[Block], bases: &[u64], hi: u64, l: usize, out: &mut [Block]) {
    check(x, bases, l, out);
    #[cfg(target_arch = "x86_64")]
    if let Some(rk) = fixed_key().vaes256_keys() {
        // SAFETY: `vaes256_keys` is `Some` only when VAES, AVX2 and
        // AES-NI were detected; lengths checked above.
        match l {
            1 => unsafe { x86::fan::<1>(rk, x, bases, hi, out) },
            2 => unsafe { x86::fan::<2>(rk, x, bases, hi, out) },
            3 => unsafe { x86::fan::<3>(rk, x, bases, hi, out) },
            4 => unsafe { x86::fan::<4>(rk, x, bases, hi, out) },
            _ => tccr_fan_portable(x, bases, hi, l, out),
        }
        return;
    }
    tccr_fan_portable(x, bases, hi, l, out)
}

/// The portable twin of [`tccr_fan`]: `π` of every input in one batch
/// call, the tweaked values in a second, then the XOR.
///
/// # Panics
/// As [`tccr_fan`].
pub fn tccr_fan_portable(x: &[Block], bases: &[u64], hi: u64, l: usize, out: &mut [Block]) {
    check(x, bases, l, out);
    let pi = fixed_key();
    let mut u = [Block::ZERO; GROUP];
    for ((xg, bg), og) in x
        .chunks(GROUP)
        .zip(bases.chunks(GROUP))
        .zip(out.chunks_mut(GROUP * l))
    {
        let u = &mut u[..xg.len()];
        pi.encrypt_blocks_to(xg, u);
        for ((&ui, &b), oi) in u.iter().zip(bg).zip(og.chunks_exact_mut(l)) {
            for (k, o) in oi.iter_mut().enumerate() {
                *o = ui ^ Block::from_halves(b.wrapping_add(k as u64), hi);
            }
        }
        pi.encrypt_blocks(og);
        for (&ui, oi) in u.iter().zip(og.chunks_exact_mut(l)) {
            for o in oi {
                *o ^= ui;
            }
        }
    }
    u.fill(Block::ZERO);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::ni::{aes256_rounds, keys256, ld2, st2, RoundKeys};
    use super::{GROUP, MAX_FAN};
    use crate::Block;
    use std::arch::x86_64::*;

    /// One step: `x`, `bases` of [`GROUP`] entries, `out` of `GROUP·L`.
    #[inline]
    #[target_feature(enable = "avx2,vaes,aes,sse2")]
    fn step<const L: usize>(
        k: &[__m256i; 11],
        x: &[Block; GROUP],
        bases: &[u64; GROUP],
        hi: u64,
        out: &mut [Block],
    ) {
        let mut p: [__m256i; GROUP / 2] = std::array::from_fn(|j| ld2(&x[2 * j..2 * j + 2]));
        aes256_rounds(k, &mut p);
        let pb: [Block; GROUP] = bytemuck::cast(p);
        // The outputs in L runs of GROUP blocks: block b is tweak b % L of
        // input b / L.
        for (c, oc) in out.chunks_exact_mut(GROUP).enumerate() {
            let mut t = [Block::ZERO; GROUP];
            let mut q = [Block::ZERO; GROUP];
            for (m, (tm, qm)) in t.iter_mut().zip(q.iter_mut()).enumerate() {
                let b = GROUP * c + m;
                let (i, kk) = (b / L, b % L);
                *qm = pb[i];
                *tm = pb[i] ^ Block::from_halves(bases[i].wrapping_add(kk as u64), hi);
            }
            let mut v: [__m256i; GROUP / 2] = bytemuck::cast(t);
            aes256_rounds(k, &mut v);
            let qv: [__m256i; GROUP / 2] = bytemuck::cast(q);
            for (j, (vj, qj)) in v.into_iter().zip(qv).enumerate() {
                st2(&mut oc[2 * j..2 * j + 2], _mm256_xor_si256(vj, qj));
            }
        }
    }

    /// [`super::tccr_fan`] with `l = L` on VAES-256.
    ///
    /// # Safety
    /// The CPU must support VAES, AVX2, AES-NI and SSE2;
    /// `bases.len() == x.len()`, `out.len() == L · x.len()`, `1 ≤ L ≤`
    /// [`MAX_FAN`].
    #[target_feature(enable = "avx2,vaes,aes,sse2")]
    pub(super) unsafe fn fan<const L: usize>(
        rk: &RoundKeys,
        x: &[Block],
        bases: &[u64],
        hi: u64,
        out: &mut [Block],
    ) {
        assert!((1..=MAX_FAN).contains(&L) && bases.len() == x.len() && out.len() == L * x.len());
        let k = keys256(rk);
        let mut xs = x.chunks_exact(GROUP);
        let mut bs = bases.chunks_exact(GROUP);
        let mut os = out.chunks_exact_mut(GROUP * L);
        for ((xg, bg), og) in (&mut xs).zip(&mut bs).zip(&mut os) {
            let xg: &[Block; GROUP] = xg.try_into().expect("GROUP inputs");
            let bg: &[u64; GROUP] = bg.try_into().expect("GROUP bases");
            step::<L>(&k, xg, bg, hi, og);
        }
        // The last < GROUP inputs, padded through stack buffers.
        let (xr, br, or) = (xs.remainder(), bs.remainder(), os.into_remainder());
        if !xr.is_empty() {
            let mut xp = [Block::ZERO; GROUP];
            let mut bp = [0u64; GROUP];
            let mut op = [Block::ZERO; GROUP * MAX_FAN];
            xp[..xr.len()].copy_from_slice(xr);
            bp[..br.len()].copy_from_slice(br);
            step::<L>(&k, &xp, &bp, hi, &mut op[..GROUP * L]);
            or.copy_from_slice(&op[..or.len()]);
            xp.fill(Block::ZERO);
            op.fill(Block::ZERO);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::tccr;
    use crate::prg::Prg;

    /// The kernel (where this CPU has it), the portable twin and the
    /// definition agree on the same random inputs, for every `L` and
    /// every remainder length, with bases near the wrap.
    #[test]
    fn fan_kernel_matches_portable_and_definition() {
        let mut prg = Prg::from_seed(Block(0xfa4));
        for l in 1..=MAX_FAN + 1 {
            for n in [0usize, 1, 5, 15, 16, 17, 31, 32, 33, 100] {
                let x = prg.random_blocks(n);
                let bases: Vec<u64> = (0..n as u64)
                    .map(|i| {
                        if i == 3 {
                            u64::MAX - 1
                        } else {
                            prg.random_u64()
                        }
                    })
                    .collect();
                let hi = prg.random_u64();
                let mut fast = vec![Block::ZERO; l * n];
                let mut port = vec![Block(1); l * n];
                tccr_fan(&x, &bases, hi, l, &mut fast);
                tccr_fan_portable(&x, &bases, hi, l, &mut port);
                assert_eq!(fast, port, "l = {l}, n = {n}");
                for i in 0..n {
                    for k in 0..l {
                        let t = Block::from_halves(bases[i].wrapping_add(k as u64), hi);
                        assert_eq!(fast[l * i + k], tccr(x[i], t), "l = {l}, i = {i}, k = {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn fan_kernel_runs_here_when_the_cpu_has_vaes() {
        // Says which path the test above exercised (the host in
        // docs/protocols/jimu.md has VAES + AVX2, so the kernel).
        #[cfg(target_arch = "x86_64")]
        {
            let has = is_x86_feature_detected!("vaes")
                && is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("aes");
            assert_eq!(fixed_key().vaes256_keys().is_some(), has);
        }
    }

    #[test]
    #[should_panic(expected = "tccr_fan: lengths")]
    fn fan_refuses_mismatched_lengths() {
        let mut out = vec![Block::ZERO; 3];
        tccr_fan(&[Block(1), Block(2)], &[0, 1], 0, 2, &mut out);
    }
}
