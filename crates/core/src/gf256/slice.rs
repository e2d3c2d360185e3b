//! Bulk kernels: `dst ^= c · src` and friends over byte rows.
//!
//! The Reed–Solomon encoder and every GF(2^σ) matrix product are sums of
//! such row updates, so they are the one thing made fast. Multiplying by a
//! fixed c is GF(2)-linear; [`ConstMul`] holds that map in the two forms the
//! kernels want: two 16-entry nibble tables (portable twin and AVX2
//! `vpshufb`) and an 8×8 bit matrix (GFNI `vgf2p8affineqb`). Input bits at
//! or above σ are ignored by every form, so all kernels compute the same map
//! even on bytes that are not field elements.

use super::{reference, Field};
use std::sync::OnceLock;

/// Multiplication by one constant, prepared for the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstMul {
    c: u8,
    /// `lo[v]` = c · v for the low nibble v.
    lo: [u8; 16],
    /// `hi[v]` = c · (v << 4) for the high nibble v.
    hi: [u8; 16],
    /// The map as a GFNI affine matrix: byte 7 − i of the qword is the row
    /// giving output bit i.
    affine: u64,
}

impl ConstMul {
    /// The map x ↦ c · x in `field`.
    pub fn new(field: &Field, c: u8) -> ConstMul {
        // col[b] = c · x^b: the image of input bit b (0 above σ).
        let mut col = [0u8; 8];
        for (b, v) in col.iter_mut().enumerate().take(field.sigma() as usize) {
            *v = reference::mul(field, c, 1 << b);
        }
        let image = |x: u8| {
            (0..8)
                .filter(|b| x >> b & 1 == 1)
                .fold(0u8, |acc, b| acc ^ col[b])
        };
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        for v in 0..16u8 {
            lo[v as usize] = image(v);
            hi[v as usize] = image(v << 4);
        }
        let mut affine = 0u64;
        for i in 0..8 {
            let row = (0..8)
                .filter(|&b| col[b] >> i & 1 == 1)
                .fold(0u8, |acc, b| acc | 1 << b);
            affine |= (row as u64) << (8 * (7 - i));
        }
        ConstMul { c, lo, hi, affine }
    }

    /// The constant c.
    pub fn constant(&self) -> u8 {
        self.c
    }

    /// c · x for one byte (the portable twin's formula).
    #[inline]
    pub fn apply(&self, x: u8) -> u8 {
        self.lo[(x & 15) as usize] ^ self.hi[(x >> 4) as usize]
    }

    pub(super) fn nibbles(&self) -> (&[u8; 16], &[u8; 16]) {
        (&self.lo, &self.hi)
    }

    pub(super) fn affine(&self) -> u64 {
        self.affine
    }
}

/// Which implementation the slice functions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Nibble tables, one byte at a time (the twin every SIMD kernel is
    /// tested against).
    Portable,
    /// AVX2 `vpshufb` on the nibble tables, 32 bytes per step.
    Avx2,
    /// GFNI `vgf2p8affineqb` / `vgf2p8mulb` on 64-byte AVX-512 registers.
    Gfni512,
}

impl Kernel {
    /// The fastest kernel this CPU runs (detected once).
    pub fn best() -> Kernel {
        *Kernel::detected().last().unwrap_or(&Kernel::Portable)
    }

    /// Every kernel this CPU runs, slowest first (tests compare them all).
    pub fn available() -> Vec<Kernel> {
        Kernel::detected().to_vec()
    }

    /// Whether this CPU runs `self` (cached detection).
    pub fn is_available(self) -> bool {
        Kernel::detected().contains(&self)
    }

    fn detected() -> &'static [Kernel] {
        static DETECTED: OnceLock<Vec<Kernel>> = OnceLock::new();
        DETECTED.get_or_init(|| {
            let mut v = vec![Kernel::Portable];
            #[cfg(target_arch = "x86_64")]
            {
                if is_x86_feature_detected!("avx2") {
                    v.push(Kernel::Avx2);
                }
                if is_x86_feature_detected!("gfni")
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                {
                    v.push(Kernel::Gfni512);
                }
            }
            v
        })
    }

    pub(super) fn check(self) {
        assert!(
            self.is_available(),
            "gf256: kernel {self:?} is not supported by this CPU"
        );
    }
}

/// dst\[j\] ^= c · src\[j\] with the best kernel.
#[inline]
pub fn mul_add_const(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    mul_add_const_on(Kernel::best(), m, src, dst)
}

/// dst\[j\] = c · src\[j\] with the best kernel.
#[inline]
pub fn mul_const(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    dst.fill(0);
    mul_add_const(m, src, dst)
}

/// [`mul_add_const`] on a chosen kernel (panics if the CPU lacks it).
pub fn mul_add_const_on(kernel: Kernel, m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "gf256::mul_add_const: lengths differ");
    match kernel {
        Kernel::Portable => portable_mul_add(m, src, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            kernel.check();
            // SAFETY: `check` confirmed AVX2 at run time.
            unsafe { super::x86::avx2_mul_add(m, src, dst) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Gfni512 => {
            kernel.check();
            // SAFETY: `check` confirmed GFNI, AVX-512F and AVX-512BW.
            unsafe { super::x86::gfni512_mul_add(m, src, dst) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => {
            kernel.check();
            unreachable!()
        }
    }
}

/// The additive FFT's butterfly on two equally long rows:
/// a ^= c · b, then b ^= a (see [`super::afft`]).
pub fn butterfly_on(kernel: Kernel, m: &ConstMul, a: &mut [u8], b: &mut [u8]) {
    assert_eq!(a.len(), b.len(), "gf256::butterfly: lengths differ");
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 {
        kernel.check();
        // SAFETY: `check` confirmed AVX2 at run time; equal lengths.
        unsafe { super::x86::avx2_butterfly(m, a, b, false) };
        return;
    }
    mul_add_const_on(kernel, m, b, a);
    xor_rows(b, a);
}

/// The inverse butterfly: b ^= a, then a ^= c · b.
pub fn butterfly_inv_on(kernel: Kernel, m: &ConstMul, a: &mut [u8], b: &mut [u8]) {
    assert_eq!(a.len(), b.len(), "gf256::butterfly: lengths differ");
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 {
        kernel.check();
        // SAFETY: `check` confirmed AVX2 at run time; equal lengths.
        unsafe { super::x86::avx2_butterfly(m, a, b, true) };
        return;
    }
    xor_rows(b, a);
    mul_add_const_on(kernel, m, b, a);
}

/// dst ^= src.
fn xor_rows(dst: &mut [u8], src: &[u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

fn portable_mul_add(m: &ConstMul, src: &[u8], dst: &mut [u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d ^= m.apply(s);
    }
}

/// dst\[j\] = a\[j\] · b\[j\] in `field` (elementwise; GFNI `vgf2p8mulb` for
/// GF(2^8), tables otherwise).
pub fn mul_slices(field: &Field, a: &[u8], b: &[u8], dst: &mut [u8]) {
    mul_slices_on(Kernel::best(), field, a, b, dst)
}

/// [`mul_slices`] on a chosen kernel (panics if the CPU lacks it).
pub fn mul_slices_on(kernel: Kernel, field: &Field, a: &[u8], b: &[u8], dst: &mut [u8]) {
    assert!(
        a.len() == dst.len() && b.len() == dst.len(),
        "gf256::mul_slices: lengths differ"
    );
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Gfni512 && field.sigma() == 8 {
        kernel.check();
        // SAFETY: `check` confirmed GFNI, AVX-512F and AVX-512BW; the field
        // is GF(2^8) modulo 0x11B, the polynomial `vgf2p8mulb` uses.
        unsafe { super::x86::gfni512_mul_slices(a, b, dst) };
        return;
    }
    kernel.check();
    for ((d, &x), &y) in dst.iter_mut().zip(a).zip(b) {
        *d = field.mul(x, y);
    }
}
