//! acc ^= Σ_i c_i · row_i: a linear combination of byte rows with
//! per-row coefficients, for message-major data.
//!
//! A batch of messages stored one after another (message-major) is
//! combined this way: the IHash consistency check sums y_i · m_i over the
//! messages, and encoding one message m is Σ_i m_i · (column i of the
//! parity matrix). The coefficients change every row, so each row looks its
//! constant's tables up in [`const_muls`] (all 2^σ constants prepared once
//! per field) instead of building a [`ConstMul`].

use super::slice::{ConstMul, Kernel};
use super::{Field, GF256, GF64};
use std::sync::OnceLock;

/// [`ConstMul`] for every constant of `field`, indexed by the constant
/// (entries at or above 2^σ use the constant's low σ bits).
pub fn const_muls(field: &Field) -> &'static [ConstMul; 256] {
    static T8: OnceLock<Box<[ConstMul; 256]>> = OnceLock::new();
    static T6: OnceLock<Box<[ConstMul; 256]>> = OnceLock::new();
    let (cell, f): (&'static OnceLock<_>, &'static Field) = match field.sigma() {
        8 => (&T8, &GF256),
        _ => (&T6, &GF64),
    };
    cell.get_or_init(|| {
        let mask = (f.order() - 1) as u8;
        Box::new(std::array::from_fn(|c| ConstMul::new(f, c as u8 & mask)))
    })
}

/// acc\[k\] ^= Σ_i coeffs\[i\] · rows\[i · stride + k\] for k < stride,
/// stride = `acc.len()`, with the best kernel. SIMD runs when the stride is
/// a multiple of 32 (callers pad rows with zero bytes to get it).
pub fn combine_rows(field: &Field, coeffs: &[u8], rows: &[u8], acc: &mut [u8]) {
    combine_rows_on(Kernel::best(), field, coeffs, rows, acc)
}

/// [`combine_rows`] on a chosen kernel (panics if the CPU lacks it).
pub fn combine_rows_on(kernel: Kernel, field: &Field, coeffs: &[u8], rows: &[u8], acc: &mut [u8]) {
    let stride = acc.len();
    assert_eq!(
        rows.len(),
        coeffs.len() * stride,
        "gf256::combine_rows: rows must be coeffs.len() × acc.len() bytes"
    );
    assert!(
        kernel.is_available(),
        "gf256: kernel {kernel:?} is not supported by this CPU"
    );
    let tables = const_muls(field);
    #[cfg(target_arch = "x86_64")]
    if stride.is_multiple_of(32) && stride > 0 {
        match kernel {
            // SAFETY: availability checked above; stride is a positive
            // multiple of 32 and rows.len() == coeffs.len() * stride.
            Kernel::Avx2 => return unsafe { super::x86::avx2_combine(tables, coeffs, rows, acc) },
            // SAFETY: as above, with GFNI, AVX-512F and AVX-512BW.
            Kernel::Gfni512 => {
                return unsafe { super::x86::gfni_combine(tables, coeffs, rows, acc) }
            }
            Kernel::Portable => {}
        }
    }
    if stride == 0 {
        return;
    }
    for (&c, row) in coeffs.iter().zip(rows.chunks_exact(stride)) {
        let m = &tables[c as usize];
        for (a, &x) in acc.iter_mut().zip(row) {
            *a ^= m.apply(x);
        }
    }
}

/// Several combinations of the same rows in one pass over them:
/// accs\[t·stride + k\] ^= Σ_i coeffs\[t·count + i\] · rows\[i·stride + k\]
/// for t < accs.len() / stride, count = rows.len() / stride. IHash's
/// consistency check takes ξ combinations of one batch; reading the batch
/// once instead of ξ times is what makes it cheap on long batches.
pub fn combine_rows_many(
    field: &Field,
    coeffs: &[u8],
    rows: &[u8],
    accs: &mut [u8],
    stride: usize,
) {
    combine_rows_many_on(Kernel::best(), field, coeffs, rows, accs, stride)
}

/// [`combine_rows_many`] on a chosen kernel (panics if the CPU lacks it).
pub fn combine_rows_many_on(
    kernel: Kernel,
    field: &Field,
    coeffs: &[u8],
    rows: &[u8],
    accs: &mut [u8],
    stride: usize,
) {
    if stride == 0 {
        assert!(
            accs.is_empty() && rows.is_empty(),
            "gf256::combine_rows_many: stride 0"
        );
        return;
    }
    assert!(
        rows.len().is_multiple_of(stride) && accs.len().is_multiple_of(stride),
        "gf256::combine_rows_many: rows and accs must be whole rows"
    );
    let (count, combos) = (rows.len() / stride, accs.len() / stride);
    assert_eq!(
        coeffs.len(),
        combos * count,
        "gf256::combine_rows_many: coeffs must be combos × rows"
    );
    assert!(
        kernel.is_available(),
        "gf256: kernel {kernel:?} is not supported by this CPU"
    );
    #[cfg(target_arch = "x86_64")]
    if kernel != Kernel::Portable && stride.is_multiple_of(32) {
        let tables = const_muls(field);
        let mut t0 = 0;
        while t0 < combos {
            let g = (combos - t0).min(8);
            macro_rules! group {
                ($($n:literal)*) => {
                    match g {
                        $($n => {
                            // SAFETY: AVX2 is available (every non-portable
                            // kernel implies it); stride is a positive
                            // multiple of 32, rows are count × stride,
                            // coeffs combos × count and accs combos ×
                            // stride with t0 + g ≤ combos.
                            unsafe {
                                super::x86::avx2_combine_group::<$n>(
                                    tables, coeffs, rows, stride, accs, t0,
                                )
                            }
                        })*
                        _ => unreachable!(),
                    }
                };
            }
            group!(1 2 3 4 5 6 7 8);
            t0 += g;
        }
        return;
    }
    for (c, acc) in coeffs
        .chunks_exact(count.max(1))
        .zip(accs.chunks_exact_mut(stride))
    {
        combine_rows_on(Kernel::Portable, field, &c[..count], rows, acc);
    }
}
